// libEGL.so stand-in for headless-gl on a machine without an X server. headless-gl asks ANGLE for
// eglGetDisplay(EGL_DEFAULT_DISPLAY), which picks ANGLE's GLX backend and fails without X. This
// library takes the place of ANGLE's libEGL.so (renamed libEGL_angle.so by device.sh), forwards every
// entry point to it, and answers eglGetDisplay with an ANGLE display on the native driver's OpenGL ES
// through EGL instead (EGL_PLATFORM_ANGLE_TYPE_OPENGLES + EGL_PLATFORM_ANGLE_DEVICE_TYPE_EGL_ANGLE).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *EGLDisplay;
typedef intptr_t EGLAttrib;
typedef unsigned int EGLenum;

enum {
  PLATFORM_ANGLE = 0x3202, ANGLE_TYPE = 0x3203, ANGLE_TYPE_OPENGLES = 0x320E,
  ANGLE_DEVICE_TYPE = 0x3209, ANGLE_DEVICE_TYPE_EGL = 0x348E, ATTRIB_END = 0x3038,
};

static void *(*angle_get_proc)(const char *);
static EGLDisplay (*angle_platform_display)(EGLenum, void *, const EGLAttrib *);

static void load_angle(void) {
  if (angle_get_proc) return;
  Dl_info self;
  dladdr((void *)load_angle, &self);
  char path[4096];
  snprintf(path, sizeof path, "%s", self.dli_fname);
  char *slash = strrchr(path, '/');
  snprintf(slash ? slash + 1 : path, sizeof path - (slash ? (size_t)(slash + 1 - path) : 0), "libEGL_angle.so");
  void *angle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!angle) {
    fprintf(stderr, "egl-angle-shim: cannot load %s: %s\n", path, dlerror());
    abort();
  }
  angle_get_proc = (void *(*)(const char *))dlsym(angle, "eglGetProcAddress");
  angle_platform_display = (EGLDisplay(*)(EGLenum, void *, const EGLAttrib *))angle_get_proc("eglGetPlatformDisplay");
}

static EGLDisplay display_on_native_egl(void *native) {
  const EGLAttrib attributes[] = {ANGLE_TYPE, ANGLE_TYPE_OPENGLES, ANGLE_DEVICE_TYPE, ANGLE_DEVICE_TYPE_EGL, ATTRIB_END};
  return angle_platform_display(PLATFORM_ANGLE, native, attributes);
}

// headless-gl reaches every EGL function through eglGetProcAddress.
void *eglGetProcAddress(const char *name) {
  load_angle();
  if (strcmp(name, "eglGetDisplay") == 0) return (void *)display_on_native_egl;
  return angle_get_proc(name);
}
