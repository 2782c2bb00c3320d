// "Hi-Z occlusion culling": 200,000 instances behind four big walls, drawn by three.js. Every frame
// the page builds a Hi-Z pyramid of the walls' depth with its own GL passes, and ONE glcompact call
// keeps the instances whose bounding sphere is in the frustum and not hidden behind the walls; two
// gathers then select their positions and their colours, and three.js draws them from the
// GPU-resident count. Nothing is read back in the loop, and nothing waits on the GPU.
//
// Per frame (?cull=gpu, the default), all on three.js's context:
//   1. our depth pass draws the walls into an R32F texture (view depth w, nearest wall wins), a
//      dilation pass writes each texel's 3×3 maximum into level 0 of the pyramid (see `HizPyramid`
//      for why), and 8 passes write each level as the maximum of the 2×2 texels under it (an R32F
//      mip chain, NEAREST, read with texelFetch: exact). Then renderer.resetState() hands the
//      context back to three.js (our passes changed state three.js caches);
//   2. visible = engine.compact(spheres, { keep: { glsl: keepGlsl, uniforms: { viewProj },
//      textures: { hiz } }, output: 'indices' }): the indices of the kept instances, in input order;
//   3. engine.gather(spheres, visible.stream) and engine.gather(colors, visible.stream): the kept
//      instances' positions + radii (vec4 float) and colours (uint RGBA8), two streams selected by
//      the one predicate, with the kept count still on the GPU;
//   4. three.js draws all 200,000 slots (one indexed draw, or ?draw=instanced an InstancedMesh: see
//      `drawKind`); the vertex shader (streamGlsl) fetches its instance from the gathered textures
//      and moves every instance at or past the count it reads from the length texture out of clip
//      space (the textures reach three.js as THREE.ExternalTexture: no copy).
//
// ?cull=cpu is the reference: the same pyramid passes, then the levels are read back (readPixels)
// and the same test runs in JS (shared/hiz-scene.ts: exact in both, see there why), and the kept
// instances are uploaded; ?cull=none draws all 200,000 with no culling (three.js's depth test
// hides what is behind the walls). The page times its frames in each mode; *Compare* (or
// ?compare=1; ?compareFrames=N frames each, default 30) runs each mode in turn and fills the table.
// ?frames=F stops after frame F, ?size= sets the canvas size, ?capture=1 (the page's test) reads
// each frame's pixels and count after the frame was drawn, outside it. Two counters show what the
// frames themselves do: readbacks (readPixels, getBufferSubData) and blocking queries (getParameter,
// getError, ...: shared/readback-counter.ts); a GPU-culled frame makes none of either once the first
// frame has compiled the programs.
import { createEngine, streamGlsl, type CompactResult, type Stream } from 'glcompact';
import * as THREE from 'three';
import { compileProgram } from './shared/gl-program.js';
import {
  baseColors, baseSpheres, cameraAt, cullOnCpu, EMPTY_DEPTH, FAR, HIZ_LEVELS, HIZ_SIZE, INSTANCE_COUNT, isMaxPyramid, keepGlsl, NEAR, projectionMatrix,
  viewProjection, wallTriangles, WALLS, type Pyramid,
} from './shared/hiz-scene.js';
import { element, showError } from './shared/page.js';
import { numberParam } from './shared/random.js';
import { blockingQueries, countCalls, countReadbacks } from './shared/readback-counter.js';

type Mode = 'gpu' | 'cpu' | 'none';
const modes: Mode[] = ['gpu', 'cpu', 'none'];

/** Per mode: how long its frames took, over the frames run in that mode (medians; ms). */
interface ModeTiming {
  frames: number;
  /** ms between the starts of consecutive frames of this mode (what the frame rate is). */
  frameMs: number | undefined;
  /** ms of main thread inside the frame: our passes, the culling, three.js's render call. */
  mainThreadMs: number | undefined;
  /** GPU ms per phase from EXT_disjoint_timer_query_webgl2 (medians; undefined without it or where the mode has no such phase). */
  gpuMs: Record<'pyramid' | 'cull' | 'draw', number | undefined>;
  /** Instances drawn in its last frame (GPU: read after the frame, outside it). */
  drawn: number | undefined;
}

interface DemoState {
  mode: Mode;
  draw: 'batched' | 'instanced';
  frame: number;
  done: boolean;
  instances: number;
  readbacksPerFrame: number[];
  readbacksOutsideFrames: number;
  /** Blocking queries per frame (the first frames compile programs, which asks for their status). */
  blockingPerFrame: number[];
  /** With ?capture=1, per frame: the kept count, the pixels (base64 RGBA) and, in cpu mode, the CPU's checks. */
  counts: number[];
  pixels: string[];
  inFrustum: number[];
  inexact: number[];
  maxPyramid: boolean[];
  timings: Record<Mode, ModeTiming>;
  /** ?compare=1: true once every mode has run its frames. */
  compared: boolean;
  glError?: number;
  renderer: string;
}

const exposed = window as unknown as { demoState?: DemoState };
const params = new URLSearchParams(location.search);
const requested = params.get('cull');
const startMode: Mode = requested === 'cpu' || requested === 'none' ? requested : 'gpu';
const stopAfter = numberParam(params, 'frames', Infinity);
const capture = params.get('capture') === '1';
const size = Math.max(64, Math.round(numberParam(params, 'size', 512)));
/** Frames each mode runs in a comparison (the first one of each is not timed: it follows a mode switch). */
const compareFrames = Math.max(3, Math.round(numberParam(params, 'compareFrames', 30)));

const canvas = element<HTMLCanvasElement>('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, alpha: false, powerPreference: 'high-performance' });
renderer.setPixelRatio(1);
renderer.setSize(size, size, false);
renderer.setClearColor(0x05070d, 1);
const gl = renderer.getContext() as WebGL2RenderingContext;
const readbacks = countReadbacks(gl);
/** State and status queries (getParameter, getError, ...): each would make the frame wait for the GPU. */
const blocking = countCalls(gl, blockingQueries);
const engine = createEngine(gl);

// --- the scene: walls and the instanced mesh ---

const scene = new THREE.Scene();
// No rotation, a 90° square view: the culling's exact arithmetic depends on it (shared/hiz-scene.ts).
const camera = new THREE.PerspectiveCamera(90, 1, NEAR, FAR);
camera.projectionMatrix.fromArray(projectionMatrix());
camera.projectionMatrixInverse.copy(camera.projectionMatrix).invert();

const lighting = /* glsl */ `
float lightOf(vec3 n) { return 0.55 + 0.45 * max(dot(n, normalize(vec3(0.4, 0.8, 0.6))), 0.0); }`;

for (const wall of WALLS) {
  const [x0, y0, z0] = wall.min;
  const [x1, y1, z1] = wall.max;
  const mesh = new THREE.Mesh(new THREE.BoxGeometry(x1 - x0, y1 - y0, z1 - z0), new THREE.ShaderMaterial({
    uniforms: { color: { value: new THREE.Color(wall.color) } },
    vertexShader: /* glsl */ `
${lighting}
uniform vec3 color;
varying vec3 vColor;
void main() {
  vColor = color * lightOf(normal);
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}`,
    fragmentShader: /* glsl */ `
varying vec3 vColor;
void main() { gl_FragColor = vec4(vColor, 1.0); }`,
  }));
  mesh.position.set((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2);
  scene.add(mesh);
}

/**
 * The instances' shape: an octahedron of radius 1 (inside its bounding sphere) whose 6 corners its
 * 8 faces share (indexed; facets lit from screen-space derivatives): an instance past the count
 * still runs the vertex shader's first lines per vertex, and 6 shared corners run it less often
 * than three.js's OctahedronGeometry, which repeats each corner per face (24 vertices).
 */
const CORNERS = [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1];
const FACES = [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5];

/**
 * How three.js draws them (?draw=):
 * - 'batched' (default): one indexed draw of 200,000 × 24 indices; the vertex shader takes the
 *   instance from gl_VertexID / 6 and the corner from gl_VertexID % 6. SwiftShader drew the same
 *   frames 3–5× faster this way (it seems to set up an instanced draw once per instance); llvmpipe
 *   (Firefox, WebKit) took about the same time either way;
 * - 'instanced': a THREE.InstancedMesh of 200,000 instances (instance gl_InstanceID), the
 *   three.js culling page's recipe (README "Recipe: three.js"). The same pixels.
 * Either way the draw covers all 200,000 and the vertex shader moves every instance at or past the
 * count it reads from the length texture out of clip space: the CPU never needs the count.
 */
const drawKind: 'batched' | 'instanced' = params.get('draw') === 'instanced' ? 'instanced' : 'batched';

/** What three.js binds as is: a gathered stream's texture, the reference's DataTexture, or the whole streams. */
const sphereTexture = new THREE.ExternalTexture(null);
const colorTexture = new THREE.ExternalTexture(null);
const countTexture = new THREE.ExternalTexture(null);
const material = new THREE.ShaderMaterial({
  glslVersion: THREE.GLSL3,
  defines: drawKind === 'instanced' ? { INSTANCED: '' } : {},
  uniforms: { spheres: { value: sphereTexture }, colors: { value: colorTexture }, instanceCount: { value: countTexture } },
  vertexShader: /* glsl */ `
${streamGlsl}
uniform highp usampler2D spheres;        // x, y, z, radius of each drawn instance
uniform highp usampler2D colors;         // its colour, RGBA8 in one uint
uniform highp usampler2D instanceCount;  // how many there are: read here, never on the CPU
out vec3 vColor;
out vec3 vView;
void main() {
#ifdef INSTANCED
  uint i = uint(gl_InstanceID);
  vec3 corner = position;
#else
  uint i = uint(gl_VertexID) / 6u;
  const vec3 corners[6] = vec3[6](${Array.from({ length: 6 }, (_, k) => `vec3(${CORNERS.slice(3 * k, 3 * k + 3).map((c) => c.toFixed(1)).join(', ')})`).join(', ')});
  vec3 corner = corners[uint(gl_VertexID) % 6u];
#endif
  if (i >= glcompactLength(instanceCount)) {  // culled: outside clip space, nothing is drawn
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    vColor = vec3(0.0);
    vView = vec3(0.0);
    return;
  }
  vec4 sphere = glcompactFloatElement(spheres, i);
  uint rgba = glcompactElement(colors, i).r;
  vColor = vec3(uvec3(rgba, rgba >> 8, rgba >> 16) & 255u) / 255.0;
  vec4 view = modelViewMatrix * vec4(sphere.xyz + corner * sphere.w, 1.0);
  vView = view.xyz;
  gl_Position = projectionMatrix * view;
}`,
  fragmentShader: /* glsl */ `
${lighting}
in vec3 vColor;
in vec3 vView;
out highp vec4 fragColor;
void main() {
  vec3 n = normalize(cross(dFdx(vView), dFdy(vView)));  // the facet's normal: flat shading with shared corners
  float fog = clamp((-vView.z - 90.0) / 420.0, 0.0, 1.0);
  fragColor = vec4(mix(vColor * lightOf(n), vec3(0.02, 0.027, 0.05), 0.8 * fog), 1.0);
}`,
});

function instancesMesh(): { mesh: THREE.Mesh; setDrawn(count: number): void } {
  if (drawKind === 'instanced') {
    const octahedron = new THREE.BufferGeometry();
    octahedron.setAttribute('position', new THREE.Float32BufferAttribute(CORNERS, 3));
    octahedron.setIndex(FACES);
    const mesh = new THREE.InstancedMesh(octahedron, material, INSTANCE_COUNT);
    return { mesh, setDrawn: (count) => (mesh.count = count) };
  }
  // Instance i's faces index its corners 6i..6i+5 (no vertex attributes: the shader knows the corners).
  const index = new Uint32Array(INSTANCE_COUNT * FACES.length);
  for (let i = 0; i < INSTANCE_COUNT; i++) for (let k = 0; k < FACES.length; k++) index[FACES.length * i + k] = 6 * i + FACES[k];
  const geometry = new THREE.BufferGeometry();
  geometry.setIndex(new THREE.BufferAttribute(index, 1));
  return { mesh: new THREE.Mesh(geometry, material), setDrawn: (count) => geometry.setDrawRange(0, count * FACES.length) };
}
const { mesh, setDrawn } = instancesMesh();
mesh.frustumCulled = false; // three's bounds know nothing of the streams
scene.add(mesh);

// --- the Hi-Z pyramid: the page's own GL passes ---

const fullscreenVertex = /* glsl */ `#version 300 es
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}`;

/**
 * The walls' depth and its MAX pyramid, on three.js's context. Depths are view depths w (the clip
 * w of the nearest wall; EMPTY_DEPTH where there is none), what the keep snippet compares with the
 * nearest point of each sphere.
 *
 * Level 0 is not the depth rendered but its 3×3 maximum. A rendered texel holds the depth at its
 * centre only: a wall that covers the centre may leave a sliver of the texel open, and an instance
 * seen through that sliver would be culled although visible. With the 3×3 maximum a texel is
 * "behind a wall" only where the wall covers its neighbours' centres too, and so (walls are convex
 * on screen) the whole texel; and the maximum of those depths bounds the wall's depth all over it.
 * So the culling is conservative: ?cull=none draws the same pixels (the page test checks that).
 *
 * The levels are one R32F texture's mip chain. A pass that writes level k samples level k − 1 of
 * the same texture, which WebGL allows when the texture's BASE_LEVEL..MAX_LEVEL range (what can be
 * sampled) excludes level k: each pass sets both to k − 1, and the build ends with 0..LEVELS − 1.
 */
class HizPyramid {
  readonly texture: WebGLTexture;
  private readonly depth: WebGLTexture;
  private readonly depthBuffer: WebGLRenderbuffer;
  private readonly depthFramebuffer: WebGLFramebuffer;
  private readonly levelFramebuffers: WebGLFramebuffer[] = [];
  private readonly wallsProgram: WebGLProgram;
  private readonly dilateProgram: WebGLProgram;
  private readonly reduceProgram: WebGLProgram;
  private readonly wallsVertexArray: WebGLVertexArrayObject;
  private readonly emptyVertexArray: WebGLVertexArrayObject;
  private readonly wallVertices: number;
  private readonly viewProjLocation: WebGLUniformLocation;
  private readonly readBuffer = new Float32Array(HIZ_SIZE * HIZ_SIZE * 4);

  constructor(private readonly gl: WebGL2RenderingContext) {
    if (!gl.getExtension('EXT_color_buffer_float')) throw new Error('This context cannot render into R32F textures (no EXT_color_buffer_float): the Hi-Z pyramid needs it.');
    this.depth = this.floatTexture(1);
    this.texture = this.floatTexture(HIZ_LEVELS);
    this.depthBuffer = gl.createRenderbuffer()!;
    gl.bindRenderbuffer(gl.RENDERBUFFER, this.depthBuffer);
    gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, HIZ_SIZE, HIZ_SIZE);
    gl.bindRenderbuffer(gl.RENDERBUFFER, null);
    this.depthFramebuffer = gl.createFramebuffer()!;
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.depthFramebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, this.depth, 0);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, this.depthBuffer);
    this.checkFramebuffer('the depth pass');
    for (let level = 0; level < HIZ_LEVELS; level++) {
      const framebuffer = gl.createFramebuffer()!;
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, this.texture, level);
      this.checkFramebuffer(`pyramid level ${level}`);
      this.levelFramebuffers.push(framebuffer);
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);

    this.wallsProgram = compileProgram(gl, /* glsl */ `#version 300 es
uniform highp mat4 u_viewProj;
in vec3 a_position;
out highp float v_depth;
void main() {
  gl_Position = u_viewProj * vec4(a_position, 1.0);
  v_depth = gl_Position.w;  // view depth: what the keep snippet compares
}`, /* glsl */ `#version 300 es
precision highp float;
in highp float v_depth;
out vec4 depth;
void main() { depth = vec4(v_depth, 0.0, 0.0, 1.0); }`, 'Hi-Z walls depth');
    this.dilateProgram = compileProgram(gl, fullscreenVertex, /* glsl */ `#version 300 es
precision highp float;
uniform highp sampler2D u_depth;
out vec4 depth;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  ivec2 last = textureSize(u_depth, 0) - 1;
  float farthest = 0.0;
  for (int dy = -1; dy <= 1; dy++) {
    for (int dx = -1; dx <= 1; dx++) farthest = max(farthest, texelFetch(u_depth, clamp(p + ivec2(dx, dy), ivec2(0), last), 0).r);
  }
  depth = vec4(farthest, 0.0, 0.0, 1.0);
}`, 'Hi-Z level 0 (3x3 maximum)');
    this.reduceProgram = compileProgram(gl, fullscreenVertex, /* glsl */ `#version 300 es
precision highp float;
uniform highp sampler2D u_finer;  // level k - 1 (its only sampleable level during this pass)
out vec4 depth;
void main() {
  ivec2 p = 2 * ivec2(gl_FragCoord.xy);
  float farthest = max(max(texelFetch(u_finer, p, 0).r, texelFetch(u_finer, p + ivec2(1, 0), 0).r),
                       max(texelFetch(u_finer, p + ivec2(0, 1), 0).r, texelFetch(u_finer, p + ivec2(1, 1), 0).r));
  depth = vec4(farthest, 0.0, 0.0, 1.0);
}`, 'Hi-Z level k (2x2 maximum)');
    this.viewProjLocation = gl.getUniformLocation(this.wallsProgram, 'u_viewProj')!;
    gl.useProgram(this.dilateProgram);
    gl.uniform1i(gl.getUniformLocation(this.dilateProgram, 'u_depth'), 0);
    gl.useProgram(this.reduceProgram);
    gl.uniform1i(gl.getUniformLocation(this.reduceProgram, 'u_finer'), 0);
    gl.useProgram(null);

    const triangles = wallTriangles();
    this.wallVertices = triangles.length / 3;
    this.wallsVertexArray = gl.createVertexArray()!;
    gl.bindVertexArray(this.wallsVertexArray);
    const buffer = gl.createBuffer()!;
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, triangles, gl.STATIC_DRAW);
    const position = gl.getAttribLocation(this.wallsProgram, 'a_position');
    gl.enableVertexAttribArray(position);
    gl.vertexAttribPointer(position, 3, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    this.emptyVertexArray = gl.createVertexArray()!;
  }

  private floatTexture(levels: number): WebGLTexture {
    const { gl } = this;
    const texture = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, levels, gl.R32F, HIZ_SIZE, HIZ_SIZE);
    // R32F is not filterable: NEAREST, and the mip variant so that texelFetch may read every level
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, levels > 1 ? gl.NEAREST_MIPMAP_NEAREST : gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.bindTexture(gl.TEXTURE_2D, null);
    return texture;
  }

  private checkFramebuffer(what: string): void {
    const status = this.gl.checkFramebufferStatus(this.gl.FRAMEBUFFER);
    if (status !== this.gl.FRAMEBUFFER_COMPLETE) throw new Error(`cannot render into ${what} (framebuffer status 0x${status.toString(16)})`);
  }

  /** Draws the walls' depth for `viewProj` and builds the pyramid. Leaves GL state changed: call renderer.resetState() after. */
  build(viewProj: Float32Array): void {
    const { gl } = this;
    // What three.js may have left on and our passes must not have: face culling, blending, scissor, stencil, masks.
    for (const cap of [gl.CULL_FACE, gl.BLEND, gl.SCISSOR_TEST, gl.STENCIL_TEST, gl.POLYGON_OFFSET_FILL, gl.SAMPLE_ALPHA_TO_COVERAGE]) gl.disable(cap);
    gl.colorMask(true, true, true, true);
    // 1. the walls' depth: nearest wall wins (depth test), its view depth written as a float
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.depthFramebuffer);
    gl.viewport(0, 0, HIZ_SIZE, HIZ_SIZE);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LESS);
    gl.depthMask(true);
    gl.clearBufferfv(gl.COLOR, 0, [EMPTY_DEPTH, 0, 0, 1]);
    gl.clearBufferfv(gl.DEPTH, 0, [1]);
    gl.useProgram(this.wallsProgram);
    gl.uniformMatrix4fv(this.viewProjLocation, false, viewProj);
    gl.bindVertexArray(this.wallsVertexArray);
    gl.drawArrays(gl.TRIANGLES, 0, this.wallVertices);
    gl.disable(gl.DEPTH_TEST);
    // 2. level 0: the 3×3 maximum of that depth
    gl.bindVertexArray(this.emptyVertexArray);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.depth);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.levelFramebuffers[0]);
    gl.useProgram(this.dilateProgram);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    // 3. level k: the 2×2 maximum of level k - 1
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.useProgram(this.reduceProgram);
    for (let level = 1; level < HIZ_LEVELS; level++) {
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_BASE_LEVEL, level - 1);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, level - 1);
      gl.bindFramebuffer(gl.FRAMEBUFFER, this.levelFramebuffers[level]);
      gl.viewport(0, 0, HIZ_SIZE >> level, HIZ_SIZE >> level);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    }
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_BASE_LEVEL, 0);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, HIZ_LEVELS - 1);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  /** Reads every level back (the CPU reference's input; blocking readPixels). Leaves the read framebuffer changed. */
  read(): Pyramid {
    const { gl } = this;
    const levels: Pyramid = [];
    for (let level = 0; level < HIZ_LEVELS; level++) {
      const width = HIZ_SIZE >> level;
      gl.bindFramebuffer(gl.FRAMEBUFFER, this.levelFramebuffers[level]);
      // RGBA + FLOAT is the read every float colour buffer allows; the depth is the red word
      gl.readPixels(0, 0, width, width, gl.RGBA, gl.FLOAT, this.readBuffer);
      const texels = new Float32Array(width * width);
      for (let k = 0; k < texels.length; k++) texels[k] = this.readBuffer[4 * k];
      levels.push(texels);
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return levels;
  }
}

const pyramid = new HizPyramid(gl);
const hiz = { texture: pyramid.texture, type: 'float' as const };

// --- the instance streams (for gpu and none) and the reference's textures (cpu) ---

const sphereData = baseSpheres();
const colorData = baseColors();
const spheres = engine.stream(sphereData, { components: 4 });
const colors = engine.stream(colorData);

const referenceWidth = 2048;
const referenceHeight = Math.ceil(INSTANCE_COUNT / referenceWidth);
function uintTexture(components: 1 | 4, width: number, height: number): THREE.DataTexture {
  const texture = new THREE.DataTexture(new Uint32Array(width * height * components), width, height,
    components === 4 ? THREE.RGBAIntegerFormat : THREE.RedIntegerFormat, THREE.UnsignedIntType);
  texture.internalFormat = components === 4 ? 'RGBA32UI' : 'R32UI';
  return texture;
}
const referenceSpheres = uintTexture(4, referenceWidth, referenceHeight);
const referenceColors = uintTexture(1, referenceWidth, referenceHeight);
const referenceCount = uintTexture(1, 1, 1);
const sphereBits = new Uint32Array(sphereData.buffer);

// --- GPU time per phase, where the context has a timer query (Chromium here) ---

type Phase = 'pyramid' | 'cull' | 'draw';
const phases: Phase[] = ['pyramid', 'cull', 'draw'];
const timer = gl.getExtension('EXT_disjoint_timer_query_webgl2');
/** Frames whose queries are still in flight (results come a few frames later: nothing waits for them). */
const pendingFrames: { mode: Mode; queries: Partial<Record<Phase, WebGLQuery>> }[] = [];
let frameQueries: Partial<Record<Phase, WebGLQuery>> | undefined;

/** Runs `submit` inside a TIME_ELAPSED query of this frame's `phase` (if a timer exists and few frames are in flight). */
function timed<T>(phase: Phase, submit: () => T): T {
  if (!frameQueries) return submit();
  const query = gl.createQuery()!;
  gl.beginQuery(timer!.TIME_ELAPSED_EXT, query);
  try {
    return submit();
  } finally {
    gl.endQuery(timer!.TIME_ELAPSED_EXT);
    frameQueries[phase] = query;
  }
}

/** Collects the results that are ready (a query's result becomes available only after the frame's task). */
function pollTimers(): void {
  while (pendingFrames.length > 0) {
    const { mode: frameMode, queries } = pendingFrames[0];
    const list = Object.values(queries);
    if (!list.every((query) => gl.getQueryParameter(query, gl.QUERY_RESULT_AVAILABLE))) break;
    const disjoint = gl.getParameter(timer!.GPU_DISJOINT_EXT) as boolean; // the GPU's clock jumped: drop the frame
    for (const phase of phases) {
      const query = queries[phase];
      if (!query) continue;
      if (!disjoint) push(samples[frameMode].gpuMs[phase], (gl.getQueryParameter(query, gl.QUERY_RESULT) as number) / 1e6);
      gl.deleteQuery(query);
    }
    pendingFrames.shift();
  }
}

// --- one frame per mode ---

/** The last GPU frame's gathered streams (drawn this frame, freed at the next one). */
let drawnSpheres: Stream<Float32Array> | undefined;
let drawnColors: Stream<Uint32Array> | undefined;
/** What the last frame drew, known on the CPU (cpu: its count; none: all). GPU: undefined (on the GPU). */
let drawnCount: number | undefined;
/** The frame the canvas shows. */
let drawnFrame = 0;
/** The last cpu frame's checks. */
let lastCpu: { inFrustum: number; inexact: number; maxPyramid: boolean } | undefined;

function placeCamera(frame: number): Float32Array {
  const at = cameraAt(frame);
  camera.position.set(at[0], at[1], at[2]);
  camera.updateMatrixWorld();
  return viewProjection(at);
}

function gpuFrame(frame: number): void {
  const viewProj = placeCamera(frame);
  timed('pyramid', () => pyramid.build(viewProj));
  renderer.resetState(); // our passes changed state three.js caches; the engine needs nothing of this
  const [nextSpheres, nextColors] = timed('cull', () => {
    // The one predicate: frustum + Hi-Z, as indices; then every attribute the draw needs, gathered by them.
    const visible: CompactResult<Uint32Array> = engine.compact(spheres, { keep: { glsl: keepGlsl, uniforms: { viewProj }, textures: { hiz } }, output: 'indices' });
    const gathered = [engine.gather(spheres, visible.stream), engine.gather(colors, visible.stream)] as const;
    visible.dispose(); // the gathered streams carry the kept count themselves
    return gathered;
  });
  sphereTexture.sourceTexture = nextSpheres.texture;
  colorTexture.sourceTexture = nextColors.texture;
  countTexture.sourceTexture = nextSpheres.lengthTexture;
  material.uniforms.spheres.value = sphereTexture;
  material.uniforms.colors.value = colorTexture;
  material.uniforms.instanceCount.value = countTexture;
  setDrawn(INSTANCE_COUNT); // enough for any count: the vertex shader culls past the GPU's
  timed('draw', () => renderer.render(scene, camera));
  drawnSpheres?.dispose();
  drawnColors?.dispose();
  drawnSpheres = nextSpheres;
  drawnColors = nextColors;
  drawnCount = undefined;
}

function cpuFrame(frame: number): void {
  const viewProj = placeCamera(frame);
  timed('pyramid', () => pyramid.build(viewProj));
  const levels = pyramid.read(); // the reference reads the very pyramid the GPU path samples
  renderer.resetState();
  const culled = cullOnCpu(sphereData, viewProj, levels);
  const sphereOut = referenceSpheres.image.data as Uint32Array;
  const colorOut = referenceColors.image.data as Uint32Array;
  sphereOut.fill(0);
  colorOut.fill(0);
  for (let k = 0; k < culled.count; k++) {
    const i = culled.indices[k];
    sphereOut.set(sphereBits.subarray(4 * i, 4 * i + 4), 4 * k);
    colorOut[k] = colorData[i];
  }
  (referenceCount.image.data as Uint32Array)[0] = culled.count;
  for (const texture of [referenceSpheres, referenceColors, referenceCount]) texture.needsUpdate = true;
  material.uniforms.spheres.value = referenceSpheres;
  material.uniforms.colors.value = referenceColors;
  material.uniforms.instanceCount.value = referenceCount;
  setDrawn(culled.count); // the classic way: draw only the CPU's visible instances
  timed('draw', () => renderer.render(scene, camera)); // with the uploads
  drawnCount = culled.count;
  lastCpu = { inFrustum: culled.inFrustum, inexact: culled.inexact, maxPyramid: capture ? isMaxPyramid(levels) : true };
}

function noneFrame(frame: number): void {
  placeCamera(frame);
  sphereTexture.sourceTexture = spheres.texture;
  colorTexture.sourceTexture = colors.texture;
  countTexture.sourceTexture = spheres.lengthTexture;
  material.uniforms.spheres.value = sphereTexture;
  material.uniforms.colors.value = colorTexture;
  material.uniforms.instanceCount.value = countTexture;
  setDrawn(INSTANCE_COUNT);
  timed('draw', () => renderer.render(scene, camera));
  drawnCount = INSTANCE_COUNT;
}

const frameOf: Record<Mode, (frame: number) => void> = { gpu: gpuFrame, cpu: cpuFrame, none: noneFrame };

// --- timing, per mode ---

const samples = Object.fromEntries(modes.map((m) => [m, { frameMs: [] as number[], mainThreadMs: [] as number[], gpuMs: { pyramid: [], cull: [], draw: [] } as Record<Phase, number[]>, drawn: undefined as number | undefined }]));
/** Samples kept per mode (a sliding window while the page runs). */
const WINDOW = 60;
let lastFrameStart: { mode: Mode; at: number } | undefined;

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1];
}

function timings(): Record<Mode, ModeTiming> {
  const out = {} as Record<Mode, ModeTiming>;
  for (const m of modes) {
    const gpuMs = Object.fromEntries(phases.map((phase) => [phase, median(samples[m].gpuMs[phase])])) as Record<Phase, number | undefined>;
    out[m] = { frames: samples[m].mainThreadMs.length, frameMs: median(samples[m].frameMs), mainThreadMs: median(samples[m].mainThreadMs), gpuMs, drawn: samples[m].drawn };
  }
  return out;
}

const push = (list: number[], value: number) => {
  list.push(value);
  if (list.length > WINDOW) list.shift();
};

// --- the loop ---

let mode: Mode = startMode;
const counts: number[] = [];
const pixels: string[] = [];
const inFrustum: number[] = [];
const inexact: number[] = [];
const maxPyramid: boolean[] = [];
let frame = 0;
let paused = false;
let done = false;
/** The comparison in progress: the modes still to run and the frames left in the current one. */
let comparison: { queue: Mode[]; left: number; then: Mode } | undefined;
let compared = false;

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let k = 0; k < bytes.length; k += 0x8000) text += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return btoa(text);
}

const format = (ms: number | undefined) => (ms === undefined ? '–' : ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

function show(): void {
  element('frame').textContent = String(frame);
  element('current-mode').textContent = mode;
  const current = samples[mode];
  element('frame-ms').textContent = format(median(current.frameMs));
  element('main-ms').textContent = format(median(current.mainThreadMs));
  const last = readbacks.perFrame.at(-1);
  element('readbacks').textContent = last === undefined ? '–' : String(last);
  element('blocking').textContent = String(blocking.perFrame.at(-1) ?? '–');
  const table = timings();
  for (const m of modes) {
    const row = element(`timing-${m}`);
    const cells = row.querySelectorAll('td');
    cells[1].textContent = String(table[m].frames);
    cells[2].textContent = format(table[m].frameMs);
    cells[3].textContent = format(table[m].mainThreadMs);
    cells[4].textContent = timer ? phases.map((phase) => format(table[m].gpuMs[phase])).join(' / ') : 'no timer query';
    cells[5].textContent = table[m].drawn === undefined ? (m === 'gpu' ? 'on the GPU' : '–') : table[m].drawn.toLocaleString('en-US');
    row.classList.toggle('current', m === mode);
  }
  exposed.demoState = {
    mode, draw: drawKind, frame, done, instances: INSTANCE_COUNT, readbacksPerFrame: [...readbacks.perFrame], readbacksOutsideFrames: readbacks.outside,
    blockingPerFrame: [...blocking.perFrame], counts: [...counts], pixels, inFrustum: [...inFrustum], inexact: [...inexact], maxPyramid: [...maxPyramid], timings: table, compared,
    glError: exposed.demoState?.glError, renderer: engine.caps.renderer,
  };
}

function setMode(next: Mode): void {
  mode = next;
  lastFrameStart = undefined; // the first frame after a switch is not an interval of this mode
  for (const m of modes) element(`mode-${m}`).classList.toggle('primary', m === mode);
  element('mode-text').textContent = {
    gpu: 'GPU culling: one glcompact call (frustum + Hi-Z) gives the visible indices, two gathers their positions and colours; three.js draws them from the GPU-resident count. No readback.',
    cpu: 'Reference (?cull=cpu): the pyramid is read back and the same test runs in JS; the kept instances are uploaded and three.js draws the CPU\'s count.',
    none: 'No culling (?cull=none): all 200,000 instances are drawn; the depth test hides those behind the walls.',
  }[mode];
}

async function loop(): Promise<void> {
  try {
    if (!paused && !done) {
      const started = performance.now();
      if (lastFrameStart?.mode === mode) push(samples[mode].frameMs, started - lastFrameStart.at);
      lastFrameStart = { mode, at: started };
      frameQueries = timer && pendingFrames.length < 4 ? {} : undefined;
      readbacks.frame(() => blocking.frame(() => frameOf[mode](frame)));
      if (frameQueries) pendingFrames.push({ mode, queries: frameQueries });
      frameQueries = undefined;
      pollTimers();
      drawnFrame = frame;
      push(samples[mode].mainThreadMs, performance.now() - started);
      samples[mode].drawn = drawnCount ?? samples[mode].drawn;
      if (capture) {
        // The test's reads, after the frame was drawn and before anything awaits (the canvas is cleared once presented).
        const rgba = new Uint8Array(size * size * 4);
        gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
        pixels.push(base64(rgba));
        const count = mode === 'gpu' ? await drawnSpheres!.readLength() : drawnCount!;
        counts.push(count);
        if (mode === 'gpu') samples.gpu.drawn = count;
        if (mode === 'cpu') {
          inFrustum.push(lastCpu!.inFrustum);
          inexact.push(lastCpu!.inexact);
          maxPyramid.push(lastCpu!.maxPyramid);
        }
      }
      if (comparison && --comparison.left === 0) {
        const next = comparison.queue.shift();
        if (next) {
          comparison.left = compareFrames;
          setMode(next);
        } else {
          setMode(comparison.then);
          comparison = undefined;
          compared = true;
          element('compare').removeAttribute('disabled');
        }
      }
      if (frame >= stopAfter) {
        done = true;
        if (capture) exposed.demoState = { ...exposed.demoState!, glError: gl.getError() };
      } else {
        frame += 1;
      }
      show();
      if (done) return;
    }
    requestAnimationFrame(() => void loop());
  } catch (error) {
    showError(error);
  }
}

function compare(): void {
  for (const m of modes) {
    samples[m].frameMs.length = 0;
    samples[m].mainThreadMs.length = 0;
    for (const phase of phases) samples[m].gpuMs[phase].length = 0;
  }
  element('compare').setAttribute('disabled', '');
  comparison = { queue: modes.slice(1), left: compareFrames, then: mode };
  setMode(modes[0]);
}

/** Pause: read this frame's count (GPU mode) and the pyramid, and run the CPU's culling of the same frame on it. */
async function check(): Promise<void> {
  const viewProj = viewProjection(cameraAt(drawnFrame));
  pyramid.build(viewProj); // the same pyramid again (none mode builds none)
  const levels = pyramid.read();
  renderer.resetState();
  const cpu = cullOnCpu(sphereData, viewProj, levels);
  const box = element('check');
  if (mode === 'none') {
    box.className = 'muted';
    box.textContent = `frame ${drawnFrame}: all ${INSTANCE_COUNT.toLocaleString('en-US')} drawn; culling would keep ${cpu.count.toLocaleString('en-US')} (${cpu.inFrustum.toLocaleString('en-US')} in the frustum).`;
    return;
  }
  const count = mode === 'gpu' ? await drawnSpheres!.readLength() : drawnCount!;
  const ok = count === cpu.count && cpu.inexact === 0;
  box.className = ok ? 'ok' : 'bad';
  box.textContent = `${ok ? '✓' : '✗'} frame ${drawnFrame}: ${count.toLocaleString('en-US')} of ${INSTANCE_COUNT.toLocaleString('en-US')} instances kept ` +
    `(${cpu.inFrustum.toLocaleString('en-US')} in the frustum, ${(cpu.inFrustum - cpu.count).toLocaleString('en-US')} of them hidden by the walls); ` +
    `the CPU's test on the same pyramid keeps ${cpu.count.toLocaleString('en-US')}` +
    (cpu.inexact === 0 ? ', every value it compared exact in float32.' : `, but ${cpu.inexact} instances had values float32 may round.`);
}

element('pause').addEventListener('click', async () => {
  paused = !paused;
  element('pause').textContent = paused ? 'Resume' : 'Pause';
  if (paused) await check().catch(showError); // the loop keeps running (idle) while paused
});
for (const m of modes) element(`mode-${m}`).addEventListener('click', () => setMode(m));
element('compare').addEventListener('click', compare);
element('renderer').textContent = `renderer: ${engine.caps.renderer}`;

setMode(startMode);
if (params.get('compare') === '1') compare();
requestAnimationFrame(() => void loop());
