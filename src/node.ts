/**
 * `glcompact/node`: a WebGL2 context for Node from headless-gl (npm `gl`, 9.0.0-rc.10 is the one
 * release with WebGL2), for tests, servers and batch jobs. Install `gl@9.0.0-rc.10` next to
 * glcompact (an optional peer dependency) and run under an X display (`xvfb-run -a node app.mjs`).
 *
 * @example
 * ```ts
 * import { createEngine } from 'glcompact';
 * import { createHeadlessContext, destroyHeadlessContext } from 'glcompact/node';
 *
 * const gl = createHeadlessContext();
 * const engine = createEngine(gl);
 * const kept = engine.compact(engine.stream(new Uint32Array([0, 7, 0, 9])), { keep: 'nonzero' });
 * console.log(await kept.read()); // Uint32Array [7, 9]
 * engine.dispose();
 * destroyHeadlessContext(gl);
 * ```
 * @module glcompact/node
 */
// Made recognisable to twgl: see patchHeadlessClasses.
import { createRequire } from 'node:module';
import { patchHeadlessContext as patchContext } from './headless-gl-patches.js';
import { describe, optionsObject } from './validate.js';

const require = createRequire(import.meta.url);

/** Options of {@link createHeadlessContext}; each may be left out or `undefined`. */
export interface HeadlessContextOptions {
  /** Drawing-buffer width in pixels (default 1); the engine renders into its own textures, so 1×1 is enough. */
  width?: number | undefined;
  /** Drawing-buffer height in pixels (default 1). */
  height?: number | undefined;
}

const setupHint =
  'headless-gl renders through ANGLE on the host OpenGL: it needs an X display with Mesa. On Debian/Ubuntu: ' +
  '`apt-get install xvfb xauth libgl1-mesa-dri libglapi-mesa` (Debian 12 names), ' +
  'then run your command under `xvfb-run -a` (e.g. `xvfb-run -a node app.mjs`). Without X: ' +
  'ANGLE_DEFAULT_PLATFORM=vulkan with libvulkan.so.1 copied next to node_modules/gl/build/Release/libGLESv2.so ' +
  '(Debian: libvulkan1 mesa-vulkan-drivers).';

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
 * Free it with {@link destroyHeadlessContext}.
 * @param options - Drawing-buffer size, 1×1 by default (see {@link HeadlessContextOptions}).
 * @throws Error if an option is not a positive integer; if `gl` (9.0.0-rc.10) is not installed or
 * not built; or if headless-gl cannot create a context (no X display, no Mesa): the message names
 * the Debian packages to install and the `xvfb-run -a` to run under.
 * @example
 * ```ts
 * const gl = createHeadlessContext(); // run under `xvfb-run -a`
 * const engine = createEngine(gl);
 * ```
 */
export function createHeadlessContext(options: HeadlessContextOptions = {}): WebGL2RenderingContext {
  optionsObject('createHeadlessContext(options)', options, ['width', 'height']);
  for (const key of ['width', 'height'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new Error(`createHeadlessContext(): options.${key} must be a positive integer (pixels); got ${describe(value)}`);
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

/**
 * The renderer behind a headless-gl context, unmasked (headless-gl reports only "ANGLE"): e.g.
 * "ANGLE (Mesa, llvmpipe (LLVM 19.1.7 256 bits), OpenGL 4.5)". llvmpipe is Mesa's CPU renderer.
 */
export function headlessRenderer(gl: WebGL2RenderingContext): string {
  const native = (require('gl/src/javascript/native-gl.js') as { gl: { getParameter(this: unknown, p: number): unknown } }).gl;
  return String(native.getParameter.call(gl, 0x1f01 /* RENDERER */));
}

/**
 * Frees a headless-gl context's native resources (no-op for other contexts). Dispose the engines
 * on it first; the context is unusable afterwards.
 */
export function destroyHeadlessContext(gl: WebGL2RenderingContext): void {
  const ext = gl.getExtension('STACKGL_destroy_context') as { destroy(): void } | null;
  ext?.destroy();
}
