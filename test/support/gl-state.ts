// Test support for the GL state contract (issue 10), written independently of src/gl-state.ts so it
// can catch its mistakes:
// - snapshotState(gl): the FULL relevant context state as a plain, comparable object;
// - appStates: distinctive "leftover state" items an app (three.js, twgl) may leave on the context;
// - createAppObjects / deleteAppObjects: the app's GL objects those items bind;
// - resetState(gl): every item above back to the WebGL2 defaults, between cases.
//
// GL objects in a snapshot are labelled `object #k` (k is stable for the life of the test file), so
// two snapshots compare with toEqual. headless-gl 9.0.0-rc.10 answers most WebGL2 object bindings
// (VERTEX_ARRAY_BINDING, SAMPLER_BINDING, TEXTURE_BINDING_2D_ARRAY, ...) with the GL name, a number:
// those are labelled `name N`, and 0 is shown as null like the browsers' null.

type Gl = WebGL2RenderingContext;
export type Platform = 'headless-gl' | 'browser';

const labels = new WeakMap<object, number>();
let nextLabel = 1;

function label(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') {
    if (ArrayBuffer.isView(value) || Array.isArray(value)) return Array.from(value as ArrayLike<unknown>);
    let k = labels.get(value);
    if (k === undefined) labels.set(value, (k = nextLabel++));
    return `object #${k}`;
  }
  return value;
}

/** A binding: the object's label, `name N` for headless-gl's numbers, null for none. */
function binding(value: unknown): unknown {
  if (value === 0 || value === null || value === undefined) return null;
  if (typeof value === 'number') return `name ${value}`;
  return label(value);
}

const capabilities = [
  'BLEND', 'CULL_FACE', 'DEPTH_TEST', 'DITHER', 'POLYGON_OFFSET_FILL', 'RASTERIZER_DISCARD',
  'SAMPLE_ALPHA_TO_COVERAGE', 'SAMPLE_COVERAGE', 'SCISSOR_TEST', 'STENCIL_TEST',
] as const;

const values = [
  'ACTIVE_TEXTURE', 'BLEND_COLOR', 'BLEND_DST_ALPHA', 'BLEND_DST_RGB', 'BLEND_EQUATION_ALPHA', 'BLEND_EQUATION_RGB',
  'BLEND_SRC_ALPHA', 'BLEND_SRC_RGB', 'COLOR_CLEAR_VALUE', 'COLOR_WRITEMASK', 'CULL_FACE_MODE', 'DEPTH_CLEAR_VALUE',
  'DEPTH_FUNC', 'DEPTH_RANGE', 'DEPTH_WRITEMASK', 'FRONT_FACE', 'GENERATE_MIPMAP_HINT', 'FRAGMENT_SHADER_DERIVATIVE_HINT',
  'LINE_WIDTH', 'POLYGON_OFFSET_FACTOR', 'POLYGON_OFFSET_UNITS', 'SAMPLE_COVERAGE_INVERT', 'SAMPLE_COVERAGE_VALUE',
  'SCISSOR_BOX', 'STENCIL_BACK_FAIL', 'STENCIL_BACK_FUNC', 'STENCIL_BACK_PASS_DEPTH_FAIL', 'STENCIL_BACK_PASS_DEPTH_PASS',
  'STENCIL_BACK_REF', 'STENCIL_BACK_VALUE_MASK', 'STENCIL_BACK_WRITEMASK', 'STENCIL_CLEAR_VALUE', 'STENCIL_FAIL',
  'STENCIL_FUNC', 'STENCIL_PASS_DEPTH_FAIL', 'STENCIL_PASS_DEPTH_PASS', 'STENCIL_REF', 'STENCIL_VALUE_MASK',
  'STENCIL_WRITEMASK', 'VIEWPORT',
  // Pixel store.
  'PACK_ALIGNMENT', 'PACK_ROW_LENGTH', 'PACK_SKIP_PIXELS', 'PACK_SKIP_ROWS', 'UNPACK_ALIGNMENT', 'UNPACK_ROW_LENGTH',
  'UNPACK_IMAGE_HEIGHT', 'UNPACK_SKIP_PIXELS', 'UNPACK_SKIP_ROWS', 'UNPACK_SKIP_IMAGES', 'UNPACK_FLIP_Y_WEBGL',
  'UNPACK_PREMULTIPLY_ALPHA_WEBGL', 'UNPACK_COLORSPACE_CONVERSION_WEBGL',
  // Of the bound framebuffers (the app's, or the default one).
  'READ_BUFFER', 'DRAW_BUFFER0', 'DRAW_BUFFER1',
] as const;

const bindings = [
  'ARRAY_BUFFER_BINDING', 'ELEMENT_ARRAY_BUFFER_BINDING', 'COPY_READ_BUFFER_BINDING', 'COPY_WRITE_BUFFER_BINDING',
  'CURRENT_PROGRAM', 'DRAW_FRAMEBUFFER_BINDING', 'READ_FRAMEBUFFER_BINDING', 'PIXEL_PACK_BUFFER_BINDING',
  'PIXEL_UNPACK_BUFFER_BINDING', 'RENDERBUFFER_BINDING', 'TRANSFORM_FEEDBACK_BINDING', 'TRANSFORM_FEEDBACK_BUFFER_BINDING',
  'UNIFORM_BUFFER_BINDING', 'VERTEX_ARRAY_BINDING',
] as const;

const unitBindings = ['TEXTURE_BINDING_2D', 'TEXTURE_BINDING_2D_ARRAY', 'TEXTURE_BINDING_3D', 'TEXTURE_BINDING_CUBE_MAP', 'SAMPLER_BINDING'] as const;

export const snapshotUnits = 8;

export type StateSnapshot = Record<string, unknown>;

/**
 * Everything an app could notice, as a plain object. Walks texture units 0–7 (and puts ACTIVE_TEXTURE
 * back), and reads the bound vertex array's attributes 0–1 and the bound transform feedback's buffer
 * 0, so a change INSIDE an app's object shows too. Makes no GL error on either platform.
 */
export function snapshotState(gl: Gl): StateSnapshot {
  const g = gl as unknown as Record<string, number>;
  const out: StateSnapshot = {};
  for (const name of capabilities) out[name] = !!gl.isEnabled(g[name]);
  for (const name of values) {
    const v = gl.getParameter(g[name]);
    out[name] = typeof v === 'boolean' ? v : label(v);
  }
  for (const name of bindings) out[name] = binding(gl.getParameter(g[name]));
  const active = gl.getParameter(gl.ACTIVE_TEXTURE) as number;
  for (let unit = 0; unit < snapshotUnits; unit++) {
    gl.activeTexture(gl.TEXTURE0 + unit);
    for (const name of unitBindings) out[`unit ${unit} ${name}`] = binding(gl.getParameter(g[name]));
  }
  gl.activeTexture(active);
  for (let index = 0; index < 2; index++) {
    out[`attrib ${index} enabled`] = gl.getVertexAttrib(index, gl.VERTEX_ATTRIB_ARRAY_ENABLED);
    out[`attrib ${index} buffer`] = binding(gl.getVertexAttrib(index, gl.VERTEX_ATTRIB_ARRAY_BUFFER_BINDING));
  }
  out['TRANSFORM_FEEDBACK_BUFFER_BINDING[0]'] = binding(gl.getIndexedParameter(gl.TRANSFORM_FEEDBACK_BUFFER_BINDING, 0));
  return out;
}

/** The app's GL objects the items bind; made once per test file. */
export interface AppObjects {
  /** Framebuffers with an RGBA8 4×4 colour texture each: one for DRAW_FRAMEBUFFER, one for READ. */
  drawFramebuffer: WebGLFramebuffer;
  readFramebuffer: WebGLFramebuffer;
  /** A vertex array with attribute 0 enabled on `vertexBuffer` and `elementBuffer` bound inside. */
  vertexArray: WebGLVertexArrayObject;
  vertexBuffer: WebGLBuffer;
  elementBuffer: WebGLBuffer;
  program: WebGLProgram;
  /** A buffer for each other binding point (each buffer keeps to one target, as WebGL requires). */
  arrayBuffer: WebGLBuffer;
  packBuffer: WebGLBuffer;
  unpackBuffer: WebGLBuffer;
  uniformBuffer: WebGLBuffer;
  copyReadBuffer: WebGLBuffer;
  copyWriteBuffer: WebGLBuffer;
  feedbackBuffer: WebGLBuffer;
  transformFeedback: WebGLTransformFeedback;
  renderbuffer: WebGLRenderbuffer;
  /** Per unit 0–7: a texture for each target, and a sampler with LINEAR filters. */
  textures2D: WebGLTexture[];
  textures2DArray: WebGLTexture[];
  textures3D: WebGLTexture[];
  texturesCube: WebGLTexture[];
  samplers: WebGLSampler[];
  /** Everything made, for deleteAppObjects. */
  all: Array<[string, unknown]>;
}

const appVertex = `#version 300 es
in vec4 a_position;
void main() { gl_Position = a_position; }`;
const appFragment = `#version 300 es
precision mediump float;
out vec4 color;
void main() { color = vec4(1.0, 0.0, 1.0, 1.0); }`;

/** Creates the app's objects. Leaves the context's bindings at their defaults. */
export function createAppObjects(gl: Gl): AppObjects {
  const all: Array<[string, unknown]> = [];
  const keep = <T>(kind: string, object: T): T => {
    all.push([kind, object]);
    return object;
  };
  const framebuffer = () => {
    const texture = keep('Texture', gl.createTexture()!);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, 4, 4);
    gl.bindTexture(gl.TEXTURE_2D, null);
    const fb = keep('Framebuffer', gl.createFramebuffer()!);
    gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return fb;
  };
  const buffer = () => keep('Buffer', gl.createBuffer()!);
  const drawFramebuffer = framebuffer();
  const readFramebuffer = framebuffer();

  const vertexBuffer = buffer();
  const elementBuffer = buffer();
  const vertexArray = keep('VertexArray', gl.createVertexArray()!);
  gl.bindVertexArray(vertexArray);
  gl.bindBuffer(gl.ARRAY_BUFFER, vertexBuffer);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, elementBuffer);
  gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint16Array([0, 1, 2]), gl.STATIC_DRAW);
  gl.bindVertexArray(null);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);

  const shaders = [
    [gl.VERTEX_SHADER, appVertex],
    [gl.FRAGMENT_SHADER, appFragment],
  ].map(([type, source]) => {
    const shader = gl.createShader(type as number)!;
    gl.shaderSource(shader, source as string);
    gl.compileShader(shader);
    return shader;
  });
  const program = keep('Program', gl.createProgram()!);
  for (const shader of shaders) gl.attachShader(program, shader);
  gl.bindAttribLocation(program, 0, 'a_position');
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`app program: ${gl.getProgramInfoLog(program)}`);
  for (const shader of shaders) gl.deleteShader(shader);

  const textures = (kind: string) => Array.from({ length: snapshotUnits }, () => keep(`Texture (${kind})`, gl.createTexture()!));
  const samplers = Array.from({ length: snapshotUnits }, () => {
    const sampler = keep('Sampler', gl.createSampler()!);
    // LINEAR makes an integer or 32-bit float texture incomplete: texelFetch then returns 0.
    gl.samplerParameteri(sampler, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.samplerParameteri(sampler, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    return sampler;
  });
  const transformFeedback = keep('TransformFeedback', gl.createTransformFeedback()!);
  const feedbackBuffer = buffer();
  // Buffer 0 of the app's feedback object, so a snapshot shows an engine bindBufferBase landing in it.
  // (On headless-gl this needs glcompact/node's patch, which createHeadlessContext applies.)
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, transformFeedback);
  gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, feedbackBuffer);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
  if (binding(gl.getParameter(gl.TRANSFORM_FEEDBACK_BUFFER_BINDING)) !== null) gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
  const objects: AppObjects = {
    drawFramebuffer,
    readFramebuffer,
    vertexArray,
    vertexBuffer,
    elementBuffer,
    program,
    arrayBuffer: buffer(),
    packBuffer: buffer(),
    unpackBuffer: buffer(),
    uniformBuffer: buffer(),
    copyReadBuffer: buffer(),
    copyWriteBuffer: buffer(),
    feedbackBuffer,
    transformFeedback,
    renderbuffer: keep('Renderbuffer', gl.createRenderbuffer()!),
    textures2D: textures('2D'),
    textures2DArray: textures('2D_ARRAY'),
    textures3D: textures('3D'),
    texturesCube: textures('CUBE_MAP'),
    samplers,
    all,
  };
  return objects;
}

export function deleteAppObjects(gl: Gl, objects: AppObjects): void {
  for (const [kind, object] of objects.all) {
    const name = kind.split(' ')[0];
    (gl as unknown as Record<string, (o: unknown) => void>)[`delete${name}`](object);
  }
}

export interface AppStateItem {
  name: string;
  apply(gl: Gl, objects: AppObjects): void;
  /**
   * Platforms where an app cannot leave this state through the WebGL API, with the evidence: the
   * test checks that apply() there raises exactly `error` and changes nothing.
   */
  unavailable?: Partial<Record<Platform, { error: 'INVALID_ENUM'; why: string }>>;
}

/** Runs `body` on each of units 0–7 with that unit active, then puts the active unit back. */
function eachUnit(gl: Gl, body: (unit: number) => void): void {
  const active = gl.getParameter(gl.ACTIVE_TEXTURE) as number;
  for (let unit = 0; unit < snapshotUnits; unit++) {
    gl.activeTexture(gl.TEXTURE0 + unit);
    body(unit);
  }
  gl.activeTexture(active);
}

const headlessBindBuffer = {
  error: 'INVALID_ENUM',
  why: "headless-gl 9.0.0-rc.10's bindBuffer accepts only ARRAY_BUFFER and ELEMENT_ARRAY_BUFFER",
} as const;

export const appStates: readonly AppStateItem[] = [
  { name: 'scissor test on, 1×1 box', apply: (gl) => (gl.enable(gl.SCISSOR_TEST), gl.scissor(0, 0, 1, 1)) },
  { name: 'cull FRONT_AND_BACK', apply: (gl) => (gl.enable(gl.CULL_FACE), gl.cullFace(gl.FRONT_AND_BACK)) },
  { name: 'frontFace CW + cull BACK (three.js BackSide)', apply: (gl) => (gl.enable(gl.CULL_FACE), gl.frontFace(gl.CW), gl.cullFace(gl.BACK)) },
  { name: 'colorMask red off', apply: (gl) => gl.colorMask(false, true, true, false) },
  { name: 'RASTERIZER_DISCARD on', apply: (gl) => gl.enable(gl.RASTERIZER_DISCARD) },
  { name: 'depth test, depthFunc NEVER, depthMask false', apply: (gl) => (gl.enable(gl.DEPTH_TEST), gl.depthFunc(gl.NEVER), gl.depthMask(false)) },
  {
    name: 'stencil test, func NEVER, ops and masks',
    apply: (gl) => (gl.enable(gl.STENCIL_TEST), gl.stencilFunc(gl.NEVER, 3, 0x0f), gl.stencilOp(gl.ZERO, gl.INCR, gl.INVERT), gl.stencilMask(0x5a)),
  },
  {
    name: 'blend on, ZERO factors, REVERSE_SUBTRACT, blend colour',
    apply: (gl) => (gl.enable(gl.BLEND), gl.blendFunc(gl.ZERO, gl.ZERO), gl.blendEquation(gl.FUNC_REVERSE_SUBTRACT), gl.blendColor(0.25, 0.5, 0.75, 1)),
  },
  { name: 'polygon offset fill (5, 7)', apply: (gl) => (gl.enable(gl.POLYGON_OFFSET_FILL), gl.polygonOffset(5, 7)) },
  { name: 'sample coverage on, value 0 inverted', apply: (gl) => (gl.enable(gl.SAMPLE_COVERAGE), gl.sampleCoverage(0, true)) },
  { name: 'sample alpha to coverage on', apply: (gl) => gl.enable(gl.SAMPLE_ALPHA_TO_COVERAGE) },
  { name: 'dither off', apply: (gl) => gl.disable(gl.DITHER) },
  // Drawn wide where ALIASED_LINE_WIDTH_RANGE allows (llvmpipe under headless-gl: up to 255); Chromium's
  // range is [1, 1], but LINE_WIDTH still reads back 7.
  { name: 'lineWidth 7', apply: (gl) => gl.lineWidth(7) },
  { name: 'viewport (3, 5, 7, 11)', apply: (gl) => gl.viewport(3, 5, 7, 11) },
  { name: 'clear colour, depth, stencil values', apply: (gl) => (gl.clearColor(0.1, 0.2, 0.3, 0.4), gl.clearDepth(0.5), gl.clearStencil(9)) },
  { name: 'depthRange (0.25, 0.75)', apply: (gl) => gl.depthRange(0.25, 0.75) },
  { name: 'app framebuffer bound for DRAW', apply: (gl, o) => gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, o.drawFramebuffer) },
  { name: 'app framebuffer bound for READ', apply: (gl, o) => gl.bindFramebuffer(gl.READ_FRAMEBUFFER, o.readFramebuffer) },
  { name: 'app VAO bound (attribute 0 and an element buffer inside)', apply: (gl, o) => gl.bindVertexArray(o.vertexArray) },
  { name: 'app program in use', apply: (gl, o) => gl.useProgram(o.program) },
  { name: 'ARRAY_BUFFER bound', apply: (gl, o) => gl.bindBuffer(gl.ARRAY_BUFFER, o.arrayBuffer) },
  { name: 'renderbuffer bound', apply: (gl, o) => gl.bindRenderbuffer(gl.RENDERBUFFER, o.renderbuffer) },
  { name: 'TEXTURE_2D bound on units 0–7', apply: (gl, o) => eachUnit(gl, (u) => gl.bindTexture(gl.TEXTURE_2D, o.textures2D[u])) },
  {
    name: 'TEXTURE_2D_ARRAY, TEXTURE_3D, TEXTURE_CUBE_MAP bound on units 0–7',
    apply: (gl, o) =>
      eachUnit(gl, (u) => {
        gl.bindTexture(gl.TEXTURE_2D_ARRAY, o.textures2DArray[u]);
        gl.bindTexture(gl.TEXTURE_3D, o.textures3D[u]);
        gl.bindTexture(gl.TEXTURE_CUBE_MAP, o.texturesCube[u]);
      }),
  },
  { name: 'LINEAR sampler objects bound on units 0–7', apply: (gl, o) => o.samplers.forEach((s, u) => gl.bindSampler(u, s)) },
  { name: 'active texture unit 5', apply: (gl) => gl.activeTexture(gl.TEXTURE5) },
  { name: 'PACK_ALIGNMENT 1', apply: (gl) => gl.pixelStorei(gl.PACK_ALIGNMENT, 1) },
  { name: 'PACK_ROW_LENGTH 9', apply: (gl) => gl.pixelStorei(gl.PACK_ROW_LENGTH, 9) },
  { name: 'PACK_SKIP_PIXELS 2', apply: (gl) => gl.pixelStorei(gl.PACK_SKIP_PIXELS, 2) },
  { name: 'PACK_SKIP_ROWS 3', apply: (gl) => gl.pixelStorei(gl.PACK_SKIP_ROWS, 3) },
  { name: 'UNPACK_ALIGNMENT 1', apply: (gl) => gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1) },
  { name: 'UNPACK_ROW_LENGTH 11', apply: (gl) => gl.pixelStorei(gl.UNPACK_ROW_LENGTH, 11) },
  { name: 'UNPACK_IMAGE_HEIGHT 6', apply: (gl) => gl.pixelStorei(gl.UNPACK_IMAGE_HEIGHT, 6) },
  { name: 'UNPACK_SKIP_PIXELS 2', apply: (gl) => gl.pixelStorei(gl.UNPACK_SKIP_PIXELS, 2) },
  { name: 'UNPACK_SKIP_ROWS 3', apply: (gl) => gl.pixelStorei(gl.UNPACK_SKIP_ROWS, 3) },
  { name: 'UNPACK_SKIP_IMAGES 1', apply: (gl) => gl.pixelStorei(gl.UNPACK_SKIP_IMAGES, 1) },
  { name: 'UNPACK_FLIP_Y_WEBGL true (three.js after a canvas texture)', apply: (gl) => gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, true) },
  { name: 'UNPACK_PREMULTIPLY_ALPHA_WEBGL true', apply: (gl) => gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true) },
  { name: 'UNPACK_COLORSPACE_CONVERSION_WEBGL NONE', apply: (gl) => gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE) },
  { name: 'PIXEL_PACK_BUFFER bound', apply: (gl, o) => gl.bindBuffer(gl.PIXEL_PACK_BUFFER, o.packBuffer), unavailable: { 'headless-gl': headlessBindBuffer } },
  { name: 'PIXEL_UNPACK_BUFFER bound', apply: (gl, o) => gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, o.unpackBuffer), unavailable: { 'headless-gl': headlessBindBuffer } },
  { name: 'UNIFORM_BUFFER bound', apply: (gl, o) => gl.bindBuffer(gl.UNIFORM_BUFFER, o.uniformBuffer), unavailable: { 'headless-gl': headlessBindBuffer } },
  {
    name: 'COPY_READ_BUFFER and COPY_WRITE_BUFFER bound',
    apply: (gl, o) => (gl.bindBuffer(gl.COPY_READ_BUFFER, o.copyReadBuffer), gl.bindBuffer(gl.COPY_WRITE_BUFFER, o.copyWriteBuffer)),
    unavailable: { 'headless-gl': headlessBindBuffer },
  },
  {
    // Available on headless-gl too: glcompact/node's patchHeadlessContext accepts this target.
    name: 'generic TRANSFORM_FEEDBACK_BUFFER bound',
    apply: (gl, o) => gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, o.feedbackBuffer),
  },
  { name: 'app transform feedback object bound', apply: (gl, o) => gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, o.transformFeedback) },
];

/** The items an app can leave on this platform. */
export function appStatesFor(platform: Platform): AppStateItem[] {
  return appStates.filter((item) => !item.unavailable?.[platform]);
}

/** Puts every piece of state that snapshotState reads (and appStates touch) back to the WebGL2 default. */
export function resetState(gl: Gl): void {
  for (const cap of ['BLEND', 'CULL_FACE', 'DEPTH_TEST', 'POLYGON_OFFSET_FILL', 'RASTERIZER_DISCARD', 'SAMPLE_ALPHA_TO_COVERAGE', 'SAMPLE_COVERAGE', 'SCISSOR_TEST', 'STENCIL_TEST'] as const) {
    gl.disable(gl[cap]);
  }
  gl.enable(gl.DITHER);
  gl.blendColor(0, 0, 0, 0);
  gl.blendEquation(gl.FUNC_ADD);
  gl.blendFunc(gl.ONE, gl.ZERO);
  gl.clearColor(0, 0, 0, 0);
  gl.clearDepth(1);
  gl.clearStencil(0);
  gl.colorMask(true, true, true, true);
  gl.cullFace(gl.BACK);
  gl.frontFace(gl.CCW);
  gl.depthFunc(gl.LESS);
  gl.depthMask(true);
  gl.depthRange(0, 1);
  gl.lineWidth(1);
  gl.polygonOffset(0, 0);
  gl.sampleCoverage(1, false);
  gl.scissor(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
  gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
  gl.stencilFunc(gl.ALWAYS, 0, 0xffffffff);
  gl.stencilOp(gl.KEEP, gl.KEEP, gl.KEEP);
  gl.stencilMask(0xffffffff);
  for (const [name, value] of [
    ['PACK_ALIGNMENT', 4], ['PACK_ROW_LENGTH', 0], ['PACK_SKIP_PIXELS', 0], ['PACK_SKIP_ROWS', 0],
    ['UNPACK_ALIGNMENT', 4], ['UNPACK_ROW_LENGTH', 0], ['UNPACK_IMAGE_HEIGHT', 0], ['UNPACK_SKIP_PIXELS', 0],
    ['UNPACK_SKIP_ROWS', 0], ['UNPACK_SKIP_IMAGES', 0], ['UNPACK_FLIP_Y_WEBGL', 0], ['UNPACK_PREMULTIPLY_ALPHA_WEBGL', 0],
    ['UNPACK_COLORSPACE_CONVERSION_WEBGL', gl.BROWSER_DEFAULT_WEBGL],
  ] as const) {
    gl.pixelStorei(gl[name], value);
  }
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.bindVertexArray(null);
  gl.useProgram(null);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  gl.bindRenderbuffer(gl.RENDERBUFFER, null);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
  // Only bind what is bound: headless-gl raises INVALID_ENUM for these targets even with null.
  for (const [target, name] of [
    ['PIXEL_PACK_BUFFER', 'PIXEL_PACK_BUFFER_BINDING'], ['PIXEL_UNPACK_BUFFER', 'PIXEL_UNPACK_BUFFER_BINDING'],
    ['UNIFORM_BUFFER', 'UNIFORM_BUFFER_BINDING'], ['COPY_READ_BUFFER', 'COPY_READ_BUFFER_BINDING'],
    ['COPY_WRITE_BUFFER', 'COPY_WRITE_BUFFER_BINDING'], ['TRANSFORM_FEEDBACK_BUFFER', 'TRANSFORM_FEEDBACK_BUFFER_BINDING'],
  ] as const) {
    if (binding(gl.getParameter(gl[name])) !== null) gl.bindBuffer(gl[target], null);
  }
  for (let unit = 0; unit < snapshotUnits; unit++) {
    gl.activeTexture(gl.TEXTURE0 + unit);
    for (const target of ['TEXTURE_2D', 'TEXTURE_2D_ARRAY', 'TEXTURE_3D', 'TEXTURE_CUBE_MAP'] as const) gl.bindTexture(gl[target], null);
    gl.bindSampler(unit, null);
  }
  gl.activeTexture(gl.TEXTURE0);
}

/** The state the engine depends on, as snapshotState shows it once the engine has set it (inside a call). */
export const required: StateSnapshot = {
  SCISSOR_TEST: false,
  CULL_FACE: false,
  DEPTH_TEST: false,
  STENCIL_TEST: false,
  BLEND: false,
  RASTERIZER_DISCARD: false,
  POLYGON_OFFSET_FILL: false,
  SAMPLE_COVERAGE: false,
  SAMPLE_ALPHA_TO_COVERAGE: false,
  COLOR_WRITEMASK: [true, true, true, true],
  LINE_WIDTH: 1,
  PACK_ALIGNMENT: 4,
  PACK_ROW_LENGTH: 0,
  PACK_SKIP_PIXELS: 0,
  PACK_SKIP_ROWS: 0,
  UNPACK_ALIGNMENT: 4,
  UNPACK_ROW_LENGTH: 0,
  UNPACK_IMAGE_HEIGHT: 0,
  UNPACK_SKIP_PIXELS: 0,
  UNPACK_SKIP_ROWS: 0,
  UNPACK_SKIP_IMAGES: 0,
  UNPACK_FLIP_Y_WEBGL: false,
  UNPACK_PREMULTIPLY_ALPHA_WEBGL: false,
  PIXEL_PACK_BUFFER_BINDING: null,
  PIXEL_UNPACK_BUFFER_BINDING: null,
  TRANSFORM_FEEDBACK_BINDING: null,
};
