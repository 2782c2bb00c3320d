#!/usr/bin/env bash
# Installs the Debian packages the tests and the main job need, when they are missing:
#   xvfb + xauth        an X display for headless-gl (scripts/with-display.sh)
#   libgl1-mesa-dri ... Mesa's llvmpipe, the OpenGL that headless-gl's ANGLE renders on
#   chromium            the browser run of the GPU tests (vitest project 'chromium', driven by
#                       playwright-core at /usr/bin/chromium; never `npx playwright install`)
#   firefox-esr         the 'firefox' project and page tests (puppeteer-core over WebDriver BiDi)
#   webkit2gtk-driver   the 'webkit' project and page tests: WebKitWebDriver and WebKitGTK's
#                       MiniBrowser (webdriverio); see scripts/browsers.mjs
# Called by `npm test` / `npm start`, never by a consumer's `npm install`. As root it uses apt-get;
# otherwise it prints the command to run.
set -euo pipefail
need=()
command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb xauth)
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || [ -n "$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null)" ] || need+=(libgl1-mesa-dri)
ldconfig -p 2>/dev/null | grep -q libglapi.so.0 || need+=(libglapi-mesa)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/firefox-esr ] || need+=(firefox-esr)
[ -x /usr/bin/WebKitWebDriver ] || need+=(webkit2gtk-driver)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "glcompact needs these Debian packages: ${need[*]}" >&2
  echo "install them with: sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
  exit 1
fi
echo "setup-system: installing ${need[*]} (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || true
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
