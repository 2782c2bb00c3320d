// What this context can really do, found by running tiny GL tests at start-up, never by reading
// version strings (headless-gl reports "WebGL 1.0" for its WebGL2 contexts, for one).
import { clearErrors, readBits, uploadBits, type UploadPath } from './adapter.js';
import type { Gpu } from './gpu.js';
import type { Program } from './programs.js';
import { probeTransformFeedback } from './probe-transform-feedback.js';
import probeDrawBuffersFragment from '../glsl/probe-draw-buffers.frag';
import { renderedFormats, texelFormats } from './texel-format.js';

/**
 * What a context can do (`engine.caps`), found by running tiny GL tests when the engine is created,
 * never by reading version strings.
 */
export interface Capabilities {
  /**
   * The largest texture side the engine uses: `createEngine(gl, { maxTextureSize })`, by default
   * 4096 or the context's MAX_TEXTURE_SIZE where that is smaller. A stream holds at most its square
   * of elements (README "Device limits").
   */
  maxTextureSize: number;
  /**
   * The context's own MAX_TEXTURE_SIZE, read once at createEngine: the most `maxTextureSize` can be
   * raised to. Phones may report more than they can allocate (iOS: 16384, crashing above 4096).
   */
  contextMaxTextureSize: number;
  /**
   * Which upload path stores 32-bit patterns exactly: 'integer' (texSubImage2D with RED_INTEGER,
   * the normal WebGL2 way) or 'float-bits' (headless-gl: float uploads reinterpreted on the GPU).
   * Spelt out rather than adapter.ts's UploadPath, which would pull the GL internals into the
   * public declarations.
   */
  uploadPath: 'integer' | 'float-bits';
  /** Direct RED_INTEGER/RGBA_INTEGER uploads work. */
  integerUpload: boolean;
  /** readPixels(RGBA_INTEGER, UNSIGNED_INT) returns correct data but raises a GL error (headless-gl). */
  readPixelsRaisesError: boolean;
  /** Transform feedback captures a varying into a buffer that draws right (probe-transform-feedback.ts); on headless-gl only once patched (glcompact/node). */
  transformFeedback: boolean;
  /** R32F render targets (EXT_color_buffer_float). The engine keeps all data in integer targets, so it does not need them. */
  floatRender: boolean;
  /**
   * Colour attachments the engine writes in one pass: 8 where a probe pass really fills 8 layers of a
   * texture array, else 4 (all WebGL2 promises), or 1 where `drawBuffers` cannot route outputs to
   * more than one (headless-gl). With 4 or 8 the scans write that many times 4 running sums per
   * fragment (docs/how-it-works.md).
   */
  drawBuffers: 1 | 4 | 8;
  /**
   * A pass writes RGBA32UI layers and an R32UI texture attached after them at once: attachments of
   * two formats, which OpenGL ES 3.0 lets a driver refuse (FRAMEBUFFER_UNSUPPORTED). The sort's
   * select writes the next digit's bit planes that way; where this is false it puts them on a fifth
   * RGBA32UI layer instead (the same results, ~0.3 ms slower at 2^24 on an H200). Probed only where
   * passes write 8 attachments (the only case that uses it); false otherwise.
   */
  mixedFormatAttachments: boolean;
  /** GPU timer queries (EXT_disjoint_timer_query_webgl2). */
  timerQuery: boolean;
  /** Pixel-pack buffer + fence readback works (browsers); else reads block in readPixels (headless-gl). */
  asyncReadback: boolean;
  /** KHR_parallel_shader_compile: engine.warmUp() lets the driver link in the background, never blocking a task. */
  parallelShaderCompile: boolean;
  /**
   * The renderer string, unmasked where the context allows (`WEBGL_debug_renderer_info`). A context
   * from `createHeadlessContext()` offers that extension (headless-gl itself has none and answers
   * `RENDERER` with just `"ANGLE"`), so the string names the real renderer there too.
   */
  renderer: string;
}

/** @internal Bit patterns that break naive paths: all ones, a NaN payload, -0, a denormal, ±Infinity. */
export const trickyBits = new Uint32Array([0xffffffff, 0x7fc00001, 0x80000000, 0x00000001, 0x7f800000, 0xff800000, 0x12345678, 0]);

function sameBits(a: Uint32Array, b: Uint32Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function probeUpload(gpu: Gpu, path: UploadPath, drainReadError: boolean): boolean {
  const target = gpu.target(trickyBits.length, 1);
  try {
    uploadBits(gpu, path, target, trickyBits);
    clearErrors(gpu.gl);
    const back = readBits(gpu, target, trickyBits.length, drainReadError);
    clearErrors(gpu.gl);
    return sameBits(back, trickyBits);
  } catch {
    clearErrors(gpu.gl);
    return false;
  } finally {
    target.free();
  }
}

/**
 * Fenced pixel-pack readback is worth it where a fence can signal while the page keeps running:
 * a browser canvas context (WebGL 2 lets fences signal only between tasks of the event loop). In
 * headless-gl, Node has no such loop to give back to, so reads stay synchronous there. The canvas is
 * recognised by its built-in tag, not by `instanceof`: a canvas of another realm (a same-origin
 * iframe's document, used from the parent's script) is no instance of this window's class, and its
 * reads had been synchronous readPixels calls that made the app wait (test/iframe-canvas.test.ts).
 */
function supportsAsyncReadback(gl: WebGL2RenderingContext): boolean {
  const tag = Object.prototype.toString.call((gl as { canvas?: unknown }).canvas);
  const browserCanvas = tag === '[object HTMLCanvasElement]' || tag === '[object OffscreenCanvas]';
  return browserCanvas && typeof gl.fenceSync === 'function' && typeof gl.clientWaitSync === 'function' && typeof gl.getBufferSubData === 'function';
}

function probeReadPixelsError(gpu: Gpu): boolean {
  const gl = gpu.gl;
  const target = gpu.target(1, 1);
  try {
    clearErrors(gl);
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.clearBufferuiv(gl.COLOR, 0, new Uint32Array([7, 0, 0, 0]));
    const out = new Uint32Array(4);
    gl.readPixels(0, 0, 1, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, out);
    return clearErrors(gl).length > 0;
  } finally {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    target.free();
  }
}

function probeFloatRender(gpu: Gpu): boolean {
  const gl = gpu.gl;
  if (!gl.getExtension('EXT_color_buffer_float')) return false;
  const texture = gl.createTexture();
  const framebuffer = gl.createFramebuffer();
  try {
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32F, 1, 1);
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    return gl.checkFramebufferStatus(gl.FRAMEBUFFER) === gl.FRAMEBUFFER_COMPLETE;
  } finally {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.bindTexture(gl.TEXTURE_2D, null);
    gl.deleteFramebuffer(framebuffer);
    gl.deleteTexture(texture);
    clearErrors(gl);
  }
}

function probeTimerQuery(gpu: Gpu): boolean {
  const gl = gpu.gl;
  const ext = gl.getExtension('EXT_disjoint_timer_query_webgl2');
  if (!ext) return false;
  const query = gl.createQuery();
  try {
    gl.beginQuery(ext.TIME_ELAPSED_EXT, query!);
    gl.endQuery(ext.TIME_ELAPSED_EXT);
    return clearErrors(gl).length === 0;
  } catch {
    return false;
  } finally {
    gl.deleteQuery(query);
    clearErrors(gl);
  }
}

function rendererString(gl: WebGL2RenderingContext): string {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const unmasked = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : null;
  return String(unmasked ?? gl.getParameter(gl.RENDERER));
}

/**
 * Whether one pass writes `attachments` layers of a texture array, each with its own value (and,
 * with `companion`, an R32UI texture attached after them: a framebuffer of two formats).
 */
function drawsToLayers(gpu: Gpu, attachments: number, readPixelsRaisesError: boolean, companion = false): boolean {
  const gl = gpu.gl;
  let target: ReturnType<Gpu['target']> | undefined;
  const reader = gl.createFramebuffer();
  let program: Program | undefined;
  try {
    clearErrors(gl);
    target = gpu.target(1, 1, texelFormats.rgba32ui, attachments, companion ? texelFormats.r32ui : undefined);
    program = gpu.program({ name: 'probe-draw-buffers.frag', fragment: probeDrawBuffersFragment, defines: { ATTACHMENTS: attachments, COMPANION: companion } });
    gpu.pass(program, target, {});
    // Each layer is read through a framebuffer of its own (readBuffer has headless-gl's quirk too).
    const texel = new Uint32Array(4);
    for (let layer = 0; layer < attachments; layer++) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, reader);
      gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, target.texture, 0, layer);
      texel.fill(0);
      gl.readPixels(0, 0, 1, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, texel);
      if (texel[0] !== layer + 1 || texel[1] !== 0xa5 || texel[2] !== layer * 3 || texel[3] !== 7) return false;
    }
    if (target.companion) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, reader);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target.companion, 0);
      texel.fill(0);
      gl.readPixels(0, 0, 1, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, texel);
      if (texel[0] !== 0xc0 + attachments) return false;
    }
    const errors = clearErrors(gl);
    return readPixelsRaisesError || errors.length === 0;
  } catch {
    return false;
  } finally {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(reader);
    // Used once: it must not take a place in the program cache.
    if (program) gpu.programs.drop(program);
    clearErrors(gl);
    target?.free();
  }
}

/**
 * 8 draw buffers where the context has them and a pass fills them all, else 4, else 1. Past 8 the
 * shaders grow and the lanes of a group outnumber what one fragment adds up cheaply.
 *
 * Quirk (headless-gl 9.0.0-rc.10, shown by test/headless-context.node.test.ts): its drawBuffers and
 * readBuffer pass every enum but DEPTH/STENCIL through a switch without a default case
 * (OverrideDrawBufferEnum in src/native/webgl.cc), which the compiled module turns into
 * COLOR_ATTACHMENT0: [ATTACHMENT0, ATTACHMENT1] reaches GL as [ATTACHMENT0, ATTACHMENT0] and fails
 * with INVALID_OPERATION, so only attachment 0 is ever written. Its WebGL2 context maps no WebGL
 * extension to EXT_draw_buffers either. The probe sees the layers stay empty and answers 1; the scans
 * then write their lanes four per group into one texture (scan/reduce-then-scan.ts; four-component
 * scans take the summing tree), and the compactions and the sort search per output instead of running
 * their select passes. bench/gpu's EGL shim fixes the call
 * on the GPU server (egl-angle-shim.c), which is how issue 23's H100 figures with 8 were measured.
 */
function probeDrawBuffers(gpu: Gpu, readPixelsRaisesError: boolean): 1 | 4 | 8 {
  const gl = gpu.gl;
  const most = Math.min(Number(gl.getParameter(gl.MAX_DRAW_BUFFERS)), Number(gl.getParameter(gl.MAX_COLOR_ATTACHMENTS)));
  if (most >= 8 && drawsToLayers(gpu, 8, readPixelsRaisesError)) return 8;
  if (most >= 4 && drawsToLayers(gpu, 4, readPixelsRaisesError)) return 4;
  return 1;
}

/**
 * Render targets of every format the engine uses must be complete. Checked here, once, so that no
 * call asks again (checkFramebufferStatus is a sync point in a browser; pool targets of new sizes
 * appear in steady state). A format that cannot be rendered into is an error at createEngine.
 */
function probeRenderTargets(gpu: Gpu): void {
  const gl = gpu.gl;
  for (const format of renderedFormats) {
    const target = gpu.target(1, 1, format);
    try {
      gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
      const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
      if (status !== gl.FRAMEBUFFER_COMPLETE && !gl.isContextLost()) {
        throw new Error(`this WebGL2 context cannot render into ${format.name} textures (framebuffer status 0x${status.toString(16)}); glcompact keeps its data in them`);
      }
    } finally {
      target.free();
    }
  }
}

/**
 * @internal Runs the probes on a new engine's context. The texture limits were read and checked
 * before the engine made any GL object (engine.ts); they are reported here with the rest.
 */
export function probeCapabilities(gpu: Gpu, limits: { maxTextureSize: number; contextMaxTextureSize: number }): Capabilities {
  const gl = gpu.gl;
  clearErrors(gl);
  probeRenderTargets(gpu);
  const readPixelsRaisesError = probeReadPixelsError(gpu);
  const integerUpload = probeUpload(gpu, 'integer', readPixelsRaisesError);
  const floatBits = !integerUpload && probeUpload(gpu, 'float-bits', readPixelsRaisesError);
  const drawBuffers = probeDrawBuffers(gpu, readPixelsRaisesError);
  gpu.drawBuffers = drawBuffers;
  // The sort's select target (4 pair layers and the planes' R32UI texture) exists only with 8.
  const mixedFormatAttachments = drawBuffers === 8 && drawsToLayers(gpu, 4, readPixelsRaisesError, true);
  gpu.mixedFormatAttachments = mixedFormatAttachments;
  if (!integerUpload && !floatBits) {
    throw new Error(
      'this WebGL2 context cannot store 32-bit data exactly: neither integer uploads nor float-bit ' +
        'uploads round-trip (tested with NaN payloads, -0, denormals and 0xFFFFFFFF)',
    );
  }
  return {
    maxTextureSize: limits.maxTextureSize,
    contextMaxTextureSize: limits.contextMaxTextureSize,
    uploadPath: integerUpload ? 'integer' : 'float-bits',
    integerUpload,
    readPixelsRaisesError,
    transformFeedback: probeTransformFeedback(gl),
    drawBuffers,
    mixedFormatAttachments,
    floatRender: probeFloatRender(gpu),
    timerQuery: probeTimerQuery(gpu),
    asyncReadback: supportsAsyncReadback(gl),
    parallelShaderCompile: gpu.programs.completionStatus !== undefined,
    renderer: rendererString(gl),
  };
}

const MAX_3D_TEXTURE_SIZE = 0x8073;

/** @internal Whether `gl` is a usable WebGL2 context, by a WebGL2-only query (not by version strings). */
export function isWebGL2(gl: unknown): gl is WebGL2RenderingContext {
  if (
    typeof gl !== 'object' || gl === null ||
    typeof (gl as WebGL2RenderingContext).texStorage2D !== 'function' ||
    typeof (gl as WebGL2RenderingContext).createVertexArray !== 'function' ||
    typeof (gl as WebGL2RenderingContext).beginTransformFeedback !== 'function' ||
    typeof (gl as WebGL2RenderingContext).getParameter !== 'function' ||
    typeof (gl as WebGL2RenderingContext).isContextLost !== 'function'
  ) {
    return false;
  }
  // The methods are not enough: headless-gl's WebGL1 context has every WebGL2 method on its
  // prototype (and its WebGL2 context reports "WebGL 1.0"). A WebGL2-only query tells them apart:
  // a WebGL1 context answers null and raises INVALID_ENUM (cleared here). A lost context answers
  // null too; the Engine constructor reports that case by name.
  const context = gl as WebGL2RenderingContext;
  if (context.isContextLost()) return true;
  if (typeof context.getParameter(MAX_3D_TEXTURE_SIZE) === 'number') return true;
  context.getError();
  return false;
}
