#!/usr/bin/env bash
# Runs on the GPU machine from the project root:  [GPU_BACKEND=egl|vulkan] bash .gpu/device.sh SCRIPT [ARGS...]
# bench/gpu/prepare.sh copies this file into .gpu/ next to SCRIPT (a file name inside .gpu/, e.g. bench-cli.mjs).
#   egl     ANGLE on the driver's OpenGL ES through EGL (egl-angle-shim.c); the faster for many passes
#   vulkan  ANGLE on the NVIDIA Vulkan driver (default)
# No X server: headless-gl's ANGLE otherwise asks for one. The scripts print the renderer themselves.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
xz -dc "$here/node.xz" > "$here/node" && chmod +x "$here/node"
release=$here/node_modules/gl/build/Release
# prepare.sh packs ANGLE's largest library and the bundles xz-compressed (what travels to the GPU
# machine is limited to 64 MiB, the tracked tree included): unpack them, unless a newer plain copy is
# there (a bundle rebuilt and copied in by hand).
for packed in "$release/libGLESv2.so.xz" "$here"/*.mjs.xz; do
  plain=${packed%.xz}
  if [ -e "$packed" ] && { [ ! -e "$plain" ] || [ "$packed" -nt "$plain" ]; }; then
    xz -dc "$packed" > "$plain" || { echo "device.sh: cannot unpack $packed" >&2; exit 1; }
  fi
done
driver=/usr/local/nvidia
icd=$(ls $driver/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json 2>/dev/null | head -1)
vendor=$(ls $driver/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json 2>/dev/null | head -1)
if [ -n "$icd" ]; then export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd; fi
if [ -n "$vendor" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor; fi
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for dir in $driver/lib64 $driver/lib; do if [ -d $dir ]; then LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$dir; fi; done
unset DISPLAY
case "${GPU_BACKEND:-vulkan}" in
  vulkan)
    # An earlier egl run on the same machine left the shim in ANGLE's place: put ANGLE's libEGL back.
    if [ -e "$release/libEGL_angle.so" ]; then mv "$release/libEGL_angle.so" "$release/libEGL.so"; fi
    export ANGLE_DEFAULT_PLATFORM=vulkan ;;
  egl)
    # ANGLE's own libEGL moves aside; the shim takes its name and forwards to it.
    if [ ! -e "$release/libEGL_angle.so" ]; then mv "$release/libEGL.so" "$release/libEGL_angle.so" && cp "$here/libEGL_shim.so" "$release/libEGL.so"; fi ;;
  *) echo "GPU_BACKEND must be egl or vulkan" >&2; exit 2 ;;
esac
export NODE_PATH=$here/node_modules
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
script=$1; shift
exec "$here/node" ${NODE_FLAGS:-} "$here/$script" "$@"
