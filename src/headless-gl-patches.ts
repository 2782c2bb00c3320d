// Runtime patches that make WebGL2 transform feedback work on a headless-gl (npm `gl`
// 9.0.0-rc.10) context, and give it the renderer string browsers give (WEBGL_debug_renderer_info). Node-only: src/node.ts imports this module, src/index.ts never does.
//
// How headless-gl is built (read from node_modules/gl/src/javascript/): the context a user gets
// is a "wrapper" whose methods are own properties, each bound to an inner context object; that
// inner object's class (webgl-rendering-context.js) extends the native class and overrides the
// WebGL 1 methods with JS that checks arguments and keeps bookkeeping (bound ARRAY/ELEMENT_ARRAY
// buffers, each buffer's `_size` and `_binding`, the bound VAO). WebGL 2 methods it does not
// override are the raw native functions, which take integer GL ids (`object._`), not wrapper
// objects: given an object they read it as 0. Every patch below replaces one own property of ONE
// wrapper, so no prototype, other context or browser context is touched; each one says which
// quirk it works around. test/headless-transform-feedback.node.test.ts shows every quirk on an
// unpatched context and the patched behaviour next to it.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Marks a patched wrapper; Symbol.for so that two copies of this module agree. */
const patchedMark = Symbol.for('glcompact.headlessGlTransformFeedbackPatches');

/** headless-gl's per-object wrappers (WebGLBuffer, WebGLProgram, …): `_` is the GL id. */
interface GlObject {
  _: number;
  _ctx: InnerContext;
  _pendingDelete: boolean;
  /** The first target the buffer was bound to (the wrapper refuses any other). */
  _binding: number;
  _size: number;
  _elements: Uint8Array;
}

type NativeMethod = (...args: unknown[]) => unknown;

/** The inner context behind a wrapper: the JS class over the native one, with its bookkeeping. */
interface InnerContext {
  _buffers: Record<number, GlObject | undefined>;
  _textures: Record<number, object | undefined>;
  _activeVertexArrayObject: object | null;
  _checkWrapper(object: unknown, type: unknown): boolean;
  _getActiveBuffer(target: number): GlObject | null;
  _saveError(): void;
  _restoreError(error: number): void;
  setError(error: number): void;
  getError(): number;
}

interface HeadlessGlModules {
  native: Record<string, NativeMethod>;
  WebGLRenderingContext: abstract new () => object;
  WebGL2RenderingContext: abstract new () => object;
  WebGLBuffer: abstract new () => object;
  WebGLProgram: abstract new () => object;
  WebGLActiveInfo: new (info: unknown) => WebGLActiveInfo;
  isTypedArray(data: unknown): boolean;
  unpackTypedArray(data: ArrayBufferView): Uint8Array;
}

let modules: HeadlessGlModules | null | undefined;

/** headless-gl's JS internals, from the same `gl` package createHeadlessContext() loads; null if absent. */
function headlessGlModules(): HeadlessGlModules | null {
  if (modules !== undefined) return modules;
  try {
    const file = (name: string) => require(`gl/src/javascript/${name}.js`) as Record<string, never>;
    const context = file('webgl-rendering-context');
    const utils = file('utils');
    modules = {
      native: file('native-gl').gl,
      WebGLRenderingContext: context.WebGLRenderingContext,
      WebGL2RenderingContext: context.WebGL2RenderingContext,
      WebGLBuffer: file('webgl-buffer').WebGLBuffer,
      WebGLProgram: file('webgl-program').WebGLProgram,
      WebGLActiveInfo: file('webgl-active-info').WebGLActiveInfo,
      isTypedArray: utils.isTypedArray,
      unpackTypedArray: utils.unpackTypedArray,
    };
  } catch {
    modules = null;
  }
  return modules;
}

function describeValue(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  return (value as object).constructor?.name ?? 'an object';
}

/** Throws unless `gl` is a WebGL2 headless-gl wrapper; returns its inner context. */
function innerContext(gl: unknown, m: HeadlessGlModules | null): InnerContext {
  const what = 'patchHeadlessContext()';
  if (!m) {
    throw new Error(`${what}: headless-gl (npm gl@9.0.0-rc.10) is not installed, so ${describeValue(gl)} cannot be a headless-gl context; browser contexts need no patches`);
  }
  if (gl instanceof m.WebGLRenderingContext) {
    throw new Error(`${what}: this is a WebGL 1 headless-gl context; transform feedback needs WebGL2: require('gl')(width, height, { createWebGL2Context: true })`);
  }
  // A wrapper from headless-gl's createContext has its methods as own (bound) properties.
  if (!(gl instanceof m.WebGL2RenderingContext) || !Object.prototype.hasOwnProperty.call(gl, 'bindBuffer')) {
    throw new Error(`${what}: expected a WebGL2 context made by headless-gl (require('gl')(w, h, { createWebGL2Context: true }) or createHeadlessContext()), got ${describeValue(gl)}; browser contexts need no patches`);
  }
  // The wrapper hides its inner context; every object the context creates points back to it.
  const probe = (gl as WebGL2RenderingContext).createBuffer() as unknown as GlObject | null;
  if (!probe) throw new Error(`${what}: the context could not create a buffer (lost or destroyed?)`);
  const ctx = probe._ctx;
  (gl as WebGL2RenderingContext).deleteBuffer(probe as unknown as WebGLBuffer);
  if (!(ctx instanceof m.WebGL2RenderingContext)) throw new Error(`${what}: headless-gl's internals are not the ones this patch was written for (gl@9.0.0-rc.10)`);
  return ctx;
}

/**
 * Patches one headless-gl WebGL2 context (in place) so that transform feedback works; returns it.
 * See node.ts for the public documentation. Idempotent.
 */
export function patchHeadlessContext(gl: WebGL2RenderingContext): WebGL2RenderingContext {
  if ((gl as unknown as Record<symbol, unknown>)?.[patchedMark]) return gl;
  const m = headlessGlModules();
  const ctx = innerContext(gl, m);
  const { native } = m!;
  const callNative = (name: string, ...args: unknown[]) => native[name].call(ctx, ...args);

  const RENDERER = gl.RENDERER;
  const VENDOR = gl.VENDOR;
  const UNMASKED_VENDOR_WEBGL = 0x9245;
  const UNMASKED_RENDERER_WEBGL = 0x9246;
  const rendererInfo = Object.freeze({ UNMASKED_VENDOR_WEBGL, UNMASKED_RENDERER_WEBGL });
  const ARRAY_BUFFER = gl.ARRAY_BUFFER;
  const ELEMENT_ARRAY_BUFFER = gl.ELEMENT_ARRAY_BUFFER;
  const TRANSFORM_FEEDBACK_BUFFER = gl.TRANSFORM_FEEDBACK_BUFFER;
  const drawUsages: number[] = [gl.STREAM_DRAW, gl.STATIC_DRAW, gl.DYNAMIC_DRAW];
  const webgl2Usages: number[] = [gl.STREAM_READ, gl.STREAM_COPY, gl.STATIC_READ, gl.STATIC_COPY, gl.DYNAMIC_READ, gl.DYNAMIC_COPY];

  const original = {
    bindBuffer: gl.bindBuffer,
    bufferData: gl.bufferData as (target: number, data: unknown, usage: number) => void,
    getParameter: gl.getParameter,
    getProgramParameter: gl.getProgramParameter,
    getExtension: gl.getExtension,
  };

  /** Mirrors the wrapper's own argument check (TypeError for a non-object). */
  const checkObject = (value: unknown, signature: string) => {
    if (!(typeof value === 'object' || value === undefined)) throw new TypeError(signature);
  };

  /**
   * The GL id of a buffer being bound to a WebGL2-only target, or null after raising the error
   * WebGL2 asks for. Bookkeeping: the wrapper records in `_binding` the first target a buffer
   * was bound to and later refuses any other (WebGL 1's rule). WebGL2 keeps only the
   * ELEMENT_ARRAY_BUFFER ↔ other-targets split, so a buffer first used here is recorded as an
   * ARRAY_BUFFER one: it can then be bound as ARRAY_BUFFER to draw from what it captured, and
   * the wrapper still refuses it as ELEMENT_ARRAY_BUFFER.
   */
  const bufferId = (buffer: unknown, signature: string): number | null => {
    checkObject(buffer, signature);
    if (!buffer) return 0;
    const object = buffer as GlObject;
    if (object instanceof m!.WebGLBuffer && object._pendingDelete) {
      ctx.setError(gl.INVALID_OPERATION);
      return null;
    }
    if (!ctx._checkWrapper(object, m!.WebGLBuffer)) return null;
    if (object._binding === ELEMENT_ARRAY_BUFFER) {
      ctx.setError(gl.INVALID_OPERATION);
      return null;
    }
    if (!object._binding) object._binding = ARRAY_BUFFER;
    return object._ | 0;
  };

  /** The wrapper object of the buffer bound to the generic TRANSFORM_FEEDBACK_BUFFER point. */
  const boundFeedbackBuffer = (): GlObject | null => {
    const id = callNative('getParameter', gl.TRANSFORM_FEEDBACK_BUFFER_BINDING) as number;
    return (id && ctx._buffers[id]) || null;
  };

  const patches: Partial<Record<keyof WebGL2RenderingContext, unknown>> = {
    /*
     * Quirk: the wrapper's bindBuffer accepts only ARRAY_BUFFER and ELEMENT_ARRAY_BUFFER and
     * raises INVALID_ENUM for TRANSFORM_FEEDBACK_BUFFER. Patch: bind that target natively with
     * the buffer's id (the generic binding lives in the bound transform feedback object, so it
     * is read back from GL when needed rather than tracked here). Other targets: unchanged.
     */
    bindBuffer(target: number, buffer: WebGLBuffer | null) {
      if ((target | 0) !== TRANSFORM_FEEDBACK_BUFFER) return original.bindBuffer(target, buffer);
      const id = bufferId(buffer, 'bindBuffer(GLenum, WebGLBuffer)');
      if (id !== null) callNative('bindBuffer', TRANSFORM_FEEDBACK_BUFFER, id);
    },

    /*
     * Quirk: the wrapper's bufferData accepts only *_DRAW usages (INVALID_ENUM for the WebGL2
     * STREAM/STATIC/DYNAMIC _READ/_COPY ones, which transform feedback buffers use) and only the
     * ARRAY/ELEMENT_ARRAY targets. Patch: for those usages or the TRANSFORM_FEEDBACK_BUFFER
     * target, do what the wrapper does (same argument checks, native call, and its bookkeeping:
     * the buffer's `_size`, which bufferSubData checks, and `_elements` for index buffers).
     * Everything else goes to the wrapper unchanged.
     */
    bufferData(target: number, data: unknown, usage: number, ...rest: unknown[]) {
      target |= 0;
      usage |= 0;
      const ours =
        (target === TRANSFORM_FEEDBACK_BUFFER && (drawUsages.includes(usage) || webgl2Usages.includes(usage))) ||
        ((target === ARRAY_BUFFER || target === ELEMENT_ARRAY_BUFFER) && webgl2Usages.includes(usage));
      if (!ours) return (original.bufferData as NativeMethod)(target, data, usage, ...rest);
      const active = target === TRANSFORM_FEEDBACK_BUFFER ? boundFeedbackBuffer() : ctx._getActiveBuffer(target);
      if (!active) {
        ctx.setError(gl.INVALID_OPERATION);
        return;
      }
      let contents: Uint8Array | number;
      if (typeof data === 'number') {
        contents = data | 0;
        if (contents < 0) {
          ctx.setError(gl.INVALID_VALUE);
          return;
        }
      } else if (m!.isTypedArray(data) || data instanceof DataView) {
        contents = m!.unpackTypedArray(data as ArrayBufferView);
      } else if (data instanceof ArrayBuffer) {
        contents = new Uint8Array(data);
      } else {
        ctx.setError(gl.INVALID_VALUE);
        return;
      }
      ctx._saveError();
      callNative('bufferData', target, contents, usage);
      const error = ctx.getError();
      ctx._restoreError(error);
      if (error !== gl.NO_ERROR) return;
      const size = typeof contents === 'number' ? contents : contents.length;
      active._size = size;
      if (target === ELEMENT_ARRAY_BUFFER) active._elements = typeof contents === 'number' ? new Uint8Array(size) : new Uint8Array(contents);
    },

    /*
     * Quirk: transformFeedbackVaryings is the raw native method, which reads the WebGLProgram
     * object as program 0: nothing is registered (INVALID_VALUE) and the program links without
     * capture. Patch: pass the program's id.
     * Quirk: with two or more names the native code keeps a pointer into one reused string buffer
     * per name, so every name reads as the last one and linking fails ("Two transform feedback
     * varyings specify the same output variable"). JS cannot fix that (the copies are made in
     * native code; array varyings, one name for several values, ANGLE refuses: "Capture of arrays
     * is undefined and not supported"), so the patch refuses two or more names with an error
     * that says what to do instead.
     */
    transformFeedbackVaryings(program: WebGLProgram, varyings: Iterable<string> | ArrayLike<string>, bufferMode: number) {
      checkObject(program, 'transformFeedbackVaryings(WebGLProgram, sequence<DOMString>, GLenum)');
      const names = Array.from(varyings as ArrayLike<string>, String);
      if (names.length > 1) {
        throw new Error(
          `transformFeedbackVaryings(): this headless-gl context (gl@9.0.0-rc.10) can capture only ONE varying per program ` +
            `(got ${names.length}: ${names.join(', ')}); its native binding keeps dangling pointers to the names, so all of them ` +
            `read as the last one. Pack the values into one vec4/uvec4 varying.`,
        );
      }
      if (!ctx._checkWrapper(program, m!.WebGLProgram)) return;
      callNative('transformFeedbackVaryings', (program as unknown as GlObject)._ | 0, names, bufferMode | 0);
    },

    /*
     * Quirk: the wrapper's getProgramParameter raises INVALID_ENUM (and returns null) for the
     * WebGL2 names TRANSFORM_FEEDBACK_VARYINGS and TRANSFORM_FEEDBACK_BUFFER_MODE, so twgl's
     * createProgramInfo finds no captured varyings and leaves an error queued. Patch: ask GL with
     * the program's id. Other names: unchanged.
     */
    getProgramParameter(program: WebGLProgram, pname: number) {
      pname |= 0;
      if (pname !== gl.TRANSFORM_FEEDBACK_VARYINGS && pname !== gl.TRANSFORM_FEEDBACK_BUFFER_MODE) {
        return original.getProgramParameter(program, pname);
      }
      checkObject(program, 'getProgramParameter(WebGLProgram, GLenum)');
      if (!ctx._checkWrapper(program, m!.WebGLProgram)) return null;
      return callNative('getProgramParameter', (program as unknown as GlObject)._ | 0, pname);
    },

    /*
     * Quirk: getTransformFeedbackVarying is the raw native method: the program reads as 0
     * (INVALID_VALUE, and a name from an uninitialised buffer). Patch: pass the id, check the
     * index first (GL leaves the name unwritten for a bad one) and return a WebGLActiveInfo.
     */
    getTransformFeedbackVarying(program: WebGLProgram, index: number) {
      checkObject(program, 'getTransformFeedbackVarying(WebGLProgram, GLuint)');
      if (!ctx._checkWrapper(program, m!.WebGLProgram)) return null;
      const id = (program as unknown as GlObject)._ | 0;
      const count = callNative('getProgramParameter', id, gl.TRANSFORM_FEEDBACK_VARYINGS) as number;
      if (!(index >= 0 && index < count)) {
        ctx.setError(gl.INVALID_VALUE);
        return null;
      }
      return new m!.WebGLActiveInfo(callNative('getTransformFeedbackVarying', id, index >>> 0));
    },

    /*
     * Quirk: bindBufferBase/bindBufferRange are raw native methods: the WebGLBuffer reads as 0,
     * so the call UNbinds the index (and the generic binding) and capture writes nowhere. Patch:
     * pass the buffer's id, with the wrapper's checks (and `_binding` bookkeeping, see bufferId).
     * Applies to every indexed target (UNIFORM_BUFFER has the same cast).
     */
    bindBufferBase(target: number, index: number, buffer: WebGLBuffer | null) {
      const id = bufferId(buffer, 'bindBufferBase(GLenum, GLuint, WebGLBuffer)');
      if (id !== null) callNative('bindBufferBase', target | 0, index >>> 0, id);
    },
    bindBufferRange(target: number, index: number, buffer: WebGLBuffer | null, offset: number, size: number) {
      const id = bufferId(buffer, 'bindBufferRange(GLenum, GLuint, WebGLBuffer, GLintptr, GLsizeiptr)');
      if (id !== null) callNative('bindBufferRange', target | 0, index >>> 0, id, offset, size);
    },

    /*
     * Quirk: getParameter(TRANSFORM_FEEDBACK_BUFFER_BINDING) and getParameter(VERTEX_ARRAY_BINDING)
     * fall through to native code and return GL ids (numbers), which cannot be passed back to
     * bindBuffer/bindVertexArray (TypeError): code that saves and restores these bindings breaks.
     * Patch: return the wrapper objects (the VAO is the one the wrapper tracks; the buffer is
     * looked up by id among the context's buffers). The same for TEXTURE_BINDING_2D_ARRAY and
     * TEXTURE_BINDING_3D (WebGL2-only bindings the wrapper does not track): the texture is looked up
     * by id among the context's textures. Other names: unchanged.
     */
    getParameter(pname: number) {
      if (pname === gl.TRANSFORM_FEEDBACK_BUFFER_BINDING) return boundFeedbackBuffer();
      if (pname === gl.TEXTURE_BINDING_2D_ARRAY || pname === gl.TEXTURE_BINDING_3D) {
        const id = callNative('getParameter', pname) as number;
        return id ? ctx._textures[id] ?? null : null;
      }
      if (pname === gl.VERTEX_ARRAY_BINDING) return ctx._activeVertexArrayObject ?? null;
      if (pname === UNMASKED_RENDERER_WEBGL) return String(callNative('getParameter', RENDERER));
      if (pname === UNMASKED_VENDOR_WEBGL) return String(callNative('getParameter', VENDOR));
      return original.getParameter(pname);
    },

    /*
     * Quirk: the wrapper answers RENDERER with a fixed 'ANGLE' and offers no
     * WEBGL_debug_renderer_info, so engine.caps.renderer (and the key of every engine.tune()
     * profile) was 'ANGLE' on every machine. Patch: the extension, whose two parameters (above)
     * answer the native strings, e.g. 'ANGLE (Mesa/X.org, llvmpipe (...), OpenGL 4.5)', as
     * browsers answer them. Other names: unchanged.
     */
    getExtension(name: string) {
      if (name === 'WEBGL_debug_renderer_info') return rendererInfo;
      return original.getExtension(name);
    },
  };

  for (const [name, patch] of Object.entries(patches)) {
    Object.defineProperty(gl, name, { value: patch, writable: true, configurable: true, enumerable: true });
  }
  Object.defineProperty(gl, patchedMark, { value: true });
  return gl;
}

/** Whether patchHeadlessContext() has patched this context. */
export function isHeadlessContextPatched(gl: WebGL2RenderingContext): boolean {
  return Boolean((gl as unknown as Record<symbol, unknown>)?.[patchedMark]);
}
