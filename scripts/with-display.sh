#!/usr/bin/env bash
# Runs a command with an X display for headless-gl (ANGLE on Mesa's llvmpipe through GLX):
# the existing DISPLAY if there is one, else a private Xvfb server for the command's lifetime.
set -euo pipefail
if [ -n "${DISPLAY:-}" ]; then exec "$@"; fi
exec xvfb-run -a -s "-screen 0 64x64x24 -nolisten tcp" "$@"
