// Capability probe: does transform feedback really capture data on this context? Found by doing
// it, never by reading version strings (headless-gl reports "WebGL 1.0" for its WebGL2 contexts):
// capture ONE uvec4 varying of known bit patterns, then draw the captured buffer as points into an
// RGBA32UI target and compare every word. Reading the buffer back is no proof anywhere:
// headless-gl's getBufferSubData does nothing. Raw WebGL2 calls only, so it can run on any context
// before an engine exists.
import captureFragment from '../glsl/probe-transform-feedback-capture.frag';
import captureVertex from '../glsl/probe-transform-feedback-capture.vert';
import drawFragment from '../glsl/probe-transform-feedback-draw.frag';
import drawVertex from '../glsl/probe-transform-feedback-draw.vert';

/** Points captured and drawn; the width of the target (WIDTH in probe-transform-feedback-draw.vert). */
const VERTICES = 8;
/** `patterns` in probe-transform-feedback-capture.vert. */
const PATTERNS = [0xffffffff, 0x7fc00001, 0x80000000, 0x00000001, 0x7f800000, 0xff800000, 16777217, 0x12345678];
/** What the target holds where nothing was drawn. */
const UNWRITTEN = 0xdeadbeef;
const BYTES_PER_VERTEX = 16;

/** The words the capture shader computes: per vertex i, uvec4(i, p, ~p, p ^ i * 0x01010101). */
export function expectedProbeWords(): Uint32Array {
  const words = new Uint32Array(VERTICES * 4);
  for (let i = 0; i < VERTICES; i++) {
    const bits = PATTERNS[i];
    words.set([i, bits, ~bits >>> 0, (bits ^ Math.imul(i, 0x01010101)) >>> 0], i * 4);
  }
  return words;
}

/** Everything the probe creates, so that it can delete all of it whatever happens. */
interface Made {
  programs: WebGLProgram[];
  buffer?: WebGLBuffer | null;
  feedback?: WebGLTransformFeedback | null;
  vertexArray?: WebGLVertexArrayObject | null;
  texture?: WebGLTexture | null;
  framebuffer?: WebGLFramebuffer | null;
}

/** The state the probe changes, as it found it. */
interface Saved {
  drawFramebuffer: WebGLFramebuffer | null;
  readFramebuffer: WebGLFramebuffer | null;
  program: WebGLProgram | null;
  vertexArray: WebGLVertexArrayObject | null;
  arrayBuffer: WebGLBuffer | null;
  feedback: WebGLTransformFeedback | null;
  texture2D: WebGLTexture | null;
  viewport: Int32Array;
  rasterizerDiscard: boolean;
  scissorTest: boolean;
  colorMask: boolean[];
  packBuffer: WebGLBuffer | null;
  pack: [number, number][];
}

function drainErrors(gl: WebGL2RenderingContext): void {
  for (let i = 0; i < 32 && gl.getError() !== gl.NO_ERROR; i++);
}

/** A binding as an object or null; undefined when it cannot be passed back (a bare GL id). */
function restorable<T>(value: unknown): T | null | undefined {
  if (value === null || value === 0 || value === undefined) return null;
  return typeof value === 'object' ? (value as T) : undefined;
}

/** Reads what the probe will change; null if some binding could not be put back afterwards. */
function save(gl: WebGL2RenderingContext): Saved | null {
  const objects = {
    drawFramebuffer: restorable<WebGLFramebuffer>(gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING)),
    readFramebuffer: restorable<WebGLFramebuffer>(gl.getParameter(gl.READ_FRAMEBUFFER_BINDING)),
    program: restorable<WebGLProgram>(gl.getParameter(gl.CURRENT_PROGRAM)),
    // Unpatched headless-gl answers with a bare id here, which bindVertexArray refuses.
    vertexArray: restorable<WebGLVertexArrayObject>(gl.getParameter(gl.VERTEX_ARRAY_BINDING)),
    arrayBuffer: restorable<WebGLBuffer>(gl.getParameter(gl.ARRAY_BUFFER_BINDING)),
    texture2D: restorable<WebGLTexture>(gl.getParameter(gl.TEXTURE_BINDING_2D)),
    packBuffer: restorable<WebGLBuffer>(gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING)),
  };
  if (Object.values(objects).some((value) => value === undefined)) return null;
  return {
    ...(objects as { [K in keyof typeof objects]: NonNullable<(typeof objects)[K]> | null }),
    // headless-gl's transform feedback objects are bare ids, and so is its answer here: both
    // bindTransformFeedback accepts, so this one goes back as it came.
    feedback: (gl.getParameter(gl.TRANSFORM_FEEDBACK_BINDING) as WebGLTransformFeedback | null) || null,
    viewport: new Int32Array(gl.getParameter(gl.VIEWPORT) as Int32Array),
    rasterizerDiscard: gl.isEnabled(gl.RASTERIZER_DISCARD),
    scissorTest: gl.isEnabled(gl.SCISSOR_TEST),
    colorMask: Array.from(gl.getParameter(gl.COLOR_WRITEMASK) as boolean[]),
    pack: [gl.PACK_ROW_LENGTH, gl.PACK_SKIP_PIXELS, gl.PACK_SKIP_ROWS].map((name) => [name, (gl.getParameter(name) as number) | 0]),
  };
}

/** Puts back what save() read; each step on its own, so one failure does not stop the rest. */
function restore(gl: WebGL2RenderingContext, saved: Saved): void {
  const steps = [
    () => gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, saved.drawFramebuffer),
    () => gl.bindFramebuffer(gl.READ_FRAMEBUFFER, saved.readFramebuffer),
    () => gl.useProgram(saved.program),
    () => gl.bindVertexArray(saved.vertexArray),
    () => gl.bindBuffer(gl.ARRAY_BUFFER, saved.arrayBuffer),
    () => gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, saved.feedback),
    () => gl.bindTexture(gl.TEXTURE_2D, saved.texture2D),
    () => gl.viewport(saved.viewport[0], saved.viewport[1], saved.viewport[2], saved.viewport[3]),
    () => (saved.rasterizerDiscard ? gl.enable(gl.RASTERIZER_DISCARD) : gl.disable(gl.RASTERIZER_DISCARD)),
    () => saved.scissorTest && gl.enable(gl.SCISSOR_TEST),
    () => saved.colorMask.some((on) => !on) && gl.colorMask(saved.colorMask[0], saved.colorMask[1], saved.colorMask[2], saved.colorMask[3]),
    () => saved.packBuffer && gl.bindBuffer(gl.PIXEL_PACK_BUFFER, saved.packBuffer),
    ...saved.pack.map(([name, value]) => () => value !== 0 && gl.pixelStorei(name, value)),
  ];
  for (const step of steps) {
    try {
      step();
    } catch {
      // keep restoring the rest
    }
  }
}

function release(gl: WebGL2RenderingContext, made: Made): void {
  const steps = [
    ...made.programs.map((program) => () => gl.deleteProgram(program)),
    () => made.buffer && gl.deleteBuffer(made.buffer),
    () => made.feedback && gl.deleteTransformFeedback(made.feedback),
    () => made.vertexArray && gl.deleteVertexArray(made.vertexArray),
    () => made.framebuffer && gl.deleteFramebuffer(made.framebuffer),
    () => made.texture && gl.deleteTexture(made.texture),
  ];
  for (const step of steps) {
    try {
      step();
    } catch {
      // keep deleting the rest
    }
  }
}

/** A linked program, or null. Its shaders are flagged for deletion and go with it. */
function buildProgram(gl: WebGL2RenderingContext, made: Made, vertex: string, fragment: string, varying?: string): WebGLProgram | null {
  const program = gl.createProgram();
  if (!program) return null;
  made.programs.push(program);
  for (const [type, source] of [[gl.VERTEX_SHADER, vertex], [gl.FRAGMENT_SHADER, fragment]] as const) {
    const shader = gl.createShader(type);
    if (!shader) return null;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
    gl.deleteShader(shader);
  }
  if (varying) gl.transformFeedbackVaryings(program, [varying], gl.SEPARATE_ATTRIBS);
  gl.linkProgram(program);
  return gl.getProgramParameter(program, gl.LINK_STATUS) ? program : null;
}

/** Both passes; true if every captured word came back through the draw exactly. */
function captureAndDraw(gl: WebGL2RenderingContext, made: Made): boolean {
  const capture = buildProgram(gl, made, captureVertex, captureFragment, 'v_captured');
  const draw = buildProgram(gl, made, drawVertex, drawFragment);
  made.buffer = gl.createBuffer();
  made.feedback = gl.createTransformFeedback();
  made.vertexArray = gl.createVertexArray();
  made.texture = gl.createTexture();
  made.framebuffer = gl.createFramebuffer();
  if (!capture || !draw || !made.buffer || !made.feedback || !made.vertexArray || !made.texture || !made.framebuffer) return false;

  // The target: VERTICES×1 RGBA32UI, filled with a value no captured word has at its place.
  gl.bindTexture(gl.TEXTURE_2D, made.texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32UI, VERTICES, 1);
  gl.bindFramebuffer(gl.FRAMEBUFFER, made.framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, made.texture, 0);
  if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) return false;
  gl.disable(gl.SCISSOR_TEST);
  gl.colorMask(true, true, true, true);
  gl.clearBufferuiv(gl.COLOR, 0, new Uint32Array([UNWRITTEN, UNWRITTEN, UNWRITTEN, UNWRITTEN]));

  // Pass 1: capture one uvec4 per point into the buffer, rasterizer off, no vertex inputs.
  gl.bindVertexArray(made.vertexArray);
  gl.useProgram(capture);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, made.feedback);
  gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, made.buffer);
  gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, VERTICES * BYTES_PER_VERTEX, gl.STREAM_COPY);
  gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
  gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, made.buffer);
  gl.enable(gl.RASTERIZER_DISCARD);
  gl.beginTransformFeedback(gl.POINTS);
  gl.drawArrays(gl.POINTS, 0, VERTICES);
  gl.endTransformFeedback();
  gl.disable(gl.RASTERIZER_DISCARD);
  gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);

  // Pass 2: the captured buffer as vertex input, each point drawn where its captured index says.
  gl.bindBuffer(gl.ARRAY_BUFFER, made.buffer);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribIPointer(0, 4, gl.UNSIGNED_INT, BYTES_PER_VERTEX, 0);
  gl.useProgram(draw);
  gl.viewport(0, 0, VERTICES, 1);
  gl.drawArrays(gl.POINTS, 0, VERTICES);

  const pixels = new Uint32Array(VERTICES * 4);
  // headless-gl may return the right data here and also raise INVALID_ENUM (seen on some
  // renderers); the caller drains it, and only the words decide.
  gl.readPixels(0, 0, VERTICES, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, pixels);
  const expected = expectedProbeWords();
  return pixels.every((word, i) => word === expected[i]);
}

/**
 * True if WebGL2 transform feedback captures a varying on this context: one `uvec4` varying per
 * point (vertex index, all ones, a NaN payload, -0, a denormal, ±Infinity, 2^24 + 1 …) is captured
 * into a buffer, the buffer is drawn as points into an RGBA32UI target at positions taken from the
 * captured data, and every word must read back exactly (readPixels; the buffer itself is never
 * read back, since headless-gl's getBufferSubData does nothing). On headless-gl this is true only
 * once the context is patched (glcompact/node's patchHeadlessContext; createHeadlessContext does it).
 *
 * Uses raw WebGL2 calls only. Deletes every object it creates; puts back the framebuffer (draw and
 * read), program, vertex array, ARRAY_BUFFER, transform feedback, TEXTURE_2D on the active unit
 * (which it does not change), viewport, RASTERIZER_DISCARD, scissor test, color mask and pixel-pack
 * settings it found. GL errors pending when it starts and those it causes are drained (WebGL cannot
 * tell them apart). Returns false, never throws, on any failure; also false without touching
 * anything when transform feedback is active or a binding could not be put back (unpatched
 * headless-gl reports the bound vertex array as a bare id).
 */
export function probeTransformFeedback(gl: WebGL2RenderingContext): boolean {
  let saved: Saved | null = null;
  const made: Made = { programs: [] };
  try {
    if (gl.isContextLost()) return false;
    drainErrors(gl);
    if (gl.getParameter(gl.TRANSFORM_FEEDBACK_ACTIVE)) return false;
    saved = save(gl);
    if (!saved) return false;
    // Pixel-pack state left by an app breaks readPixels (headless-gl: heap corruption).
    if (saved.packBuffer) gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    for (const [name, value] of saved.pack) if (value !== 0) gl.pixelStorei(name, 0);
    return captureAndDraw(gl, made);
  } catch {
    return false;
  } finally {
    try {
      if (saved) restore(gl, saved);
      release(gl, made);
      drainErrors(gl);
    } catch {
      // never throw from the probe
    }
  }
}
