// glcompact/node: a WebGL2 context for Node from headless-gl (npm `gl`, 9.0.0-rc.10 is the one
// release with WebGL2), made recognisable to twgl.
import { createRequire } from 'node:module';
import { patchHeadlessContext as patchContext } from './headless-gl-patches.js';

const require = createRequire(import.meta.url);

export interface HeadlessContextOptions {
  /** Drawing-buffer size; the engine renders into its own textures, so 1×1 is enough. */
  width?: number;
  height?: number;
}

const setupHint =
  'headless-gl renders through ANGLE on the host OpenGL: it needs an X display with Mesa ' +
  '(run under `xvfb-run -a`, Debian packages: xvfb libgl1-mesa-dri libglapi-mesa), or ' +
  'ANGLE_DEFAULT_PLATFORM=vulkan with libvulkan.so.1 copied next to node_modules/gl/build/Release/libGLESv2.so ' +
  '(Debian: libvulkan1 mesa-vulkan-drivers). In this repository `bash scripts/setup-system.sh` installs them ' +
  'and `bash scripts/with-display.sh <command>` provides the display.';

let classesPatched = false;

/**
 * twgl recognises GL objects by `typeof WebGLTexture` globals and Object.prototype.toString, and
 * headless-gl's classes provide neither (twgl's createFramebufferInfo then throws "unknown
 * attachment type"). Expose them as globals with a matching Symbol.toStringTag, as browsers do.
 */
function patchHeadlessClasses(): void {
  if (classesPatched) return;
  classesPatched = true;
  const modules: Record<string, string> = {
    WebGLBuffer: 'webgl-buffer',
    WebGLFramebuffer: 'webgl-framebuffer',
    WebGLProgram: 'webgl-program',
    WebGLRenderbuffer: 'webgl-renderbuffer',
    WebGLShader: 'webgl-shader',
    WebGLTexture: 'webgl-texture',
    WebGLVertexArrayObject: 'webgl-vertex-array-object',
    WebGLUniformLocation: 'webgl-uniform-location',
  };
  const globals = globalThis as Record<string, unknown>;
  for (const [name, file] of Object.entries(modules)) {
    const cls = (require(`gl/src/javascript/${file}.js`) as Record<string, { prototype: object }>)[name];
    if (!cls) continue;
    if (!Object.prototype.hasOwnProperty.call(cls.prototype, Symbol.toStringTag)) {
      Object.defineProperty(cls.prototype, Symbol.toStringTag, { value: name, configurable: true });
    }
    if (globals[name] === undefined) globals[name] = cls;
  }
}

/**
 * A WebGL2 context from headless-gl, ready for the engine: twgl can recognise its objects, and
 * {@link patchHeadlessContext} has been applied to it, so transform feedback works (one captured
 * varying per program; see there). Only the returned context is patched: a context made directly
 * with `require('gl')(…)` is NOT, unless it is passed to {@link patchHeadlessContext}.
 */
export function createHeadlessContext(options: HeadlessContextOptions = {}): WebGL2RenderingContext {
  for (const key of ['width', 'height'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new Error(`createHeadlessContext(): options.${key} must be a positive integer (pixels); got ${JSON.stringify(value)}`);
    }
  }
  let createGL: (width: number, height: number, attributes: object) => WebGL2RenderingContext | null;
  try {
    createGL = require('gl');
  } catch (error) {
    throw new Error(`createHeadlessContext(): headless-gl is not installed or not built (npm install gl@9.0.0-rc.10): ${(error as Error).message}`);
  }
  patchHeadlessClasses();
  const gl = createGL(options.width ?? 1, options.height ?? 1, { createWebGL2Context: true, preserveDrawingBuffer: true });
  if (!gl) {
    const where = process.env.DISPLAY ? `DISPLAY=${process.env.DISPLAY}` : 'no DISPLAY set';
    throw new Error(`createHeadlessContext(): headless-gl could not create a WebGL2 context (${where}). ${setupHint}`);
  }
  return patchContext(gl);
}

/**
 * Makes WebGL2 transform feedback work on a headless-gl (npm `gl` 9.0.0-rc.10) context that you
 * created yourself with `require('gl')(width, height, { createWebGL2Context: true })`; returns the
 * same context. {@link createHeadlessContext} already does this; a raw `require('gl')` context is
 * not patched unless passed here.
 *
 * It replaces a few methods on this one context object (never a prototype, never another context;
 * the browser build does not include it): `bindBuffer`/`bufferData` accept
 * TRANSFORM_FEEDBACK_BUFFER and the `*_READ`/`*_COPY` usages; `transformFeedbackVaryings`,
 * `getTransformFeedbackVarying`, `bindBufferBase` and `bindBufferRange` pass GL ids to native code
 * instead of objects; `getProgramParameter` answers TRANSFORM_FEEDBACK_VARYINGS/_BUFFER_MODE;
 * `getParameter` returns objects for TRANSFORM_FEEDBACK_BUFFER_BINDING and VERTEX_ARRAY_BINDING.
 *
 * Limits that remain (they are in headless-gl's native code): capture ONE varying per program
 * (`transformFeedbackVaryings` throws for two or more names: pack values into one vec4/uvec4), and
 * `getBufferSubData` does nothing, so check captured data by drawing from the buffer.
 *
 * Idempotent: patching a patched context does nothing.
 * @throws Error if `gl` is not a WebGL2 context made by headless-gl (browser contexts need no patch).
 */
export function patchHeadlessContext(gl: WebGL2RenderingContext): WebGL2RenderingContext {
  return patchContext(gl);
}

/** The renderer behind a headless-gl context, unmasked (headless-gl reports only "ANGLE"). */
export function headlessRenderer(gl: WebGL2RenderingContext): string {
  const native = (require('gl/src/javascript/native-gl.js') as { gl: { getParameter(this: unknown, p: number): unknown } }).gl;
  return String(native.getParameter.call(gl, 0x1f01 /* RENDERER */));
}

/** Frees a headless-gl context's native resources (no-op for other contexts). */
export function destroyHeadlessContext(gl: WebGL2RenderingContext): void {
  const ext = gl.getExtension('STACKGL_destroy_context') as { destroy(): void } | null;
  ext?.destroy();
}
