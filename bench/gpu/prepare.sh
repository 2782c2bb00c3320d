#!/usr/bin/env bash
# Packs what a headless-gl WebGL2 run needs on a headless NVIDIA GPU server into .gpu/ at the
# repository root (git-ignored): that machine has the NVIDIA driver but no npm registry, no X server,
# and only the working tree (with .gpu/) travels. bench/README.md "Running on a headless NVIDIA GPU server".
#   usage, from the project root after npm ci:  bash bench/gpu/prepare.sh BUNDLE.mjs [MORE FILES...]
# BUNDLE: one self-contained script with 'gl' left external (bench/build-*.mjs make them).
# Then run it there, with .gpu/ copied along:  GPU_BACKEND=egl bash .gpu/device.sh BUNDLE_BASENAME [ARGS...]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bash bench/gpu/prepare.sh BUNDLE [MORE FILES...]" >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
recipe=$(cd "$(dirname "$0")" && pwd)   # bench/gpu: the shim source and device.sh
cd "$root"
release=node_modules/gl/build/Release
[ -d "$release" ] || { echo "prepare.sh: $release is missing; run npm ci first" >&2; exit 1; }
rm -rf .gpu && mkdir -p .gpu/node_modules .gpu/lib
# Node itself (the device image has none): this machine's binary, compressed hard (-9e: ~23 MiB, -3
# ~26) to fit the 64 MiB limit beside the tracked files (~25 MiB with bench/results).
xz -T2 -9e -c "$(readlink -f "$(command -v node)")" > .gpu/node.xz
# headless-gl (ANGLE is inside it) and the packages it requires at run time.
for package in gl bindings file-uri-to-path bit-twiddle glsl-tokenizer through2 readable-stream inherits \
               string_decoder safe-buffer util-deprecate core-util-is isarray process-nextick-args; do
  if [ -d "node_modules/$package" ]; then cp -r "node_modules/$package" .gpu/node_modules/; fi
done
# Build inputs are not needed at run time: the C++ sources (2 MiB) and the objects.
rm -rf .gpu/node_modules/gl/deps .gpu/node_modules/gl/src/native .gpu/$release/obj.target .gpu/$release/.deps
# ANGLE's Vulkan backend loads libvulkan.so.1 from its own folder only.
if [ ! -e /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ]; then apt-get install -y -qq libvulkan1 >/dev/null; fi
cp -L /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ".gpu/$release/"
# Missing on the device image: glvnd's EGL loader (egl backend) and the X client libraries without
# which the NVIDIA Vulkan driver does not offer the surface extension ANGLE requires.
libraries="libEGL.so.1 libGLdispatch.so.0 libxcb.so.1 libX11.so.6 libX11-xcb.so.1 libXau.so.6 libXdmcp.so.6 libbsd.so.0 libmd.so.0 libXext.so.6"
for library in $libraries; do
  if [ ! -e "/usr/lib/x86_64-linux-gnu/$library" ]; then apt-get install -y -qq libegl1 libx11-6 libx11-xcb1 libxcb1 libxext6 >/dev/null; break; fi
done
for library in $libraries; do cp -L "/usr/lib/x86_64-linux-gnu/$library" .gpu/lib/; done
# The egl backend's shim (egl-angle-shim.c says why).
gcc -O2 -shared -fPIC -o .gpu/libEGL_shim.so "$recipe/egl-angle-shim.c" -ldl
cp "$recipe/device.sh" .gpu/
# The largest files travel xz-compressed (device.sh unpacks them): the working tree that travels to the
# GPU machine is limited to 64 MiB, bench/results included (2026-11-28: 29 MiB tracked + 38 MiB here).
xz -T2 -9 ".gpu/$release/libGLESv2.so"
for file in "$@"; do
  case "$file" in
    *.mjs) xz -T2 -9 -c "$file" > ".gpu/$(basename "$file").xz" ;;
    *) cp "$file" .gpu/ ;;
  esac
done
du -sh .gpu
echo "ready: device run, carry [\".gpu\"], command: GPU_BACKEND=egl bash .gpu/device.sh $(basename "$1") [ARGS...]"
