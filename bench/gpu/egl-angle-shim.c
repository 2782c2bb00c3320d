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

// headless-gl 9.0.0-rc.10's drawBuffers passes each enum through OverrideDrawBufferEnum, a switch
// without a default case that the compiled module turns into COLOR_ATTACHMENT0 for everything but
// DEPTH/STENCIL: [ATTACHMENT0 .. ATTACHMENTn-1] reaches GL as n times ATTACHMENT0, which GL rejects,
// so no pass can write more than one attachment (src/capabilities.ts, probeDrawBuffers). A list of
// n > 1 entries that are all ATTACHMENT0 is never a valid call; it is taken as ATTACHMENT0 .. n-1,
// the only list the engine asks for. Benchmarks only: it lets the H200 measure the multi-attachment
// scans that browsers run; a headless-gl user without this shim gets the single-attachment form.
enum { COLOR_ATTACHMENT0 = 0x8CE0, MAX_ATTACHMENTS = 16 };
static void (*angle_draw_buffers)(int, const unsigned *);

static void draw_buffers_fixed(int count, const unsigned *buffers) {
  unsigned fixed[MAX_ATTACHMENTS];
  int all_first = count > 1 && count <= MAX_ATTACHMENTS;
  for (int i = 0; all_first && i < count; i++) all_first = buffers[i] == COLOR_ATTACHMENT0;
  if (!all_first) return angle_draw_buffers(count, buffers);
  for (int i = 0; i < count; i++) fixed[i] = COLOR_ATTACHMENT0 + (unsigned)i;
  angle_draw_buffers(count, fixed);
}

// headless-gl reaches every EGL function, and the GL ES functions, through eglGetProcAddress.
void *eglGetProcAddress(const char *name) {
  load_angle();
  if (strcmp(name, "eglGetDisplay") == 0) return (void *)display_on_native_egl;
  // headless-gl loads the GL ES functions through the eglGetProcAddress it got from here: this one.
  if (strcmp(name, "eglGetProcAddress") == 0) return (void *)eglGetProcAddress;
  if (strcmp(name, "glDrawBuffers") == 0) {
    angle_draw_buffers = (void (*)(int, const unsigned *))angle_get_proc(name);
    return angle_draw_buffers ? (void *)draw_buffers_fixed : NULL;
  }
  return angle_get_proc(name);
}
