// Drawing a stream with no readback (issue 10, item 3): a tiny app program built on `streamGlsl`
// draws a stream's whole capacity as points (one per gl_VertexID, or one instance each), reads the
// length from `stream.lengthTexture`, and culls every index ≥ length by moving it outside clip space.
// Each drawn point writes its element into texel i of an app render target, so the target shows
// exactly what the GPU-resident count and values let through; the test reads that target (after
// drawing; no count is read in between) and compares it with the CPU. Also: the length texture of
// streams whose length the CPU knows, of scans, of compactions, and that it is freed with its stream.
import { describe, expect, it } from 'vitest';
import { streamGlsl, type Engine, type Stream } from '../src/index.js';
import { testContext } from './support/engine.js';
import { compileProgram } from '../examples/demo/src/shared/gl-program.js';
import { countGlObjects, nonZero } from './support/gl-objects.js';
import { random } from './support/reference.js';

/** The clear value of the app's target: a word the test data never holds, so written texels show. */
const UNWRITTEN = 0xffffffff;

/** The app's vertex shader: element `index` to texel `index` of the target, culled past the length. */
const drawVertex = (indexFrom: 'gl_VertexID' | 'gl_InstanceID') => `#version 300 es
precision highp float;
precision highp int;
${streamGlsl}
uniform highp usampler2D u_elements;
uniform highp usampler2D u_length;
uniform int u_targetWidthLog2;
uniform ivec2 u_targetSize;
flat out highp uvec4 v_element;
void main() {
  uint i = uint(${indexFrom});
  if (i >= glcompactLength(u_length)) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // outside clip space: nothing is drawn
    gl_PointSize = 1.0;
    return;
  }
  v_element = glcompactElement(u_elements, i);
  ivec2 texel = ivec2(int(i) & ((1 << u_targetWidthLog2) - 1), int(i) >> u_targetWidthLog2);
  gl_Position = vec4((vec2(texel) + 0.5) / vec2(u_targetSize) * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}`;

const drawFragment = `#version 300 es
precision highp float;
precision highp int;
flat in highp uvec4 v_element;
out highp uvec4 color;
void main() { color = v_element; }`;

/** Reads the length texture into a 1×1 target, to show its value. */
const lengthVertex = `#version 300 es
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0; }`;
const lengthFragment = `#version 300 es
precision highp float;
precision highp int;
${streamGlsl}
uniform highp usampler2D u_length;
out highp uvec4 color;
void main() { color = uvec4(glcompactLength(u_length), 7u, 7u, 7u); }`;


/** The app's own RGBA32UI render target. */
interface AppTarget { texture: WebGLTexture; framebuffer: WebGLFramebuffer; width: number; height: number }

function appTarget(gl: WebGL2RenderingContext, width: number, height: number): AppTarget {
  const texture = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32UI, width, height);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.bindTexture(gl.TEXTURE_2D, null);
  const framebuffer = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  // headless-gl draws into a texStorage2D framebuffer only once its status was checked.
  expect(gl.checkFramebufferStatus(gl.FRAMEBUFFER)).toBe(gl.FRAMEBUFFER_COMPLETE);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  return { texture, framebuffer, width, height };
}

function deleteTarget(gl: WebGL2RenderingContext, target: AppTarget): void {
  gl.deleteFramebuffer(target.framebuffer);
  gl.deleteTexture(target.texture);
}

function readTarget(gl: WebGL2RenderingContext, target: AppTarget): Uint32Array {
  const out = new Uint32Array(target.width * target.height * 4);
  gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
  gl.readPixels(0, 0, target.width, target.height, gl.RGBA_INTEGER, gl.UNSIGNED_INT, out);
  gl.getError(); // headless-gl raises INVALID_ENUM here while returning the data (src/adapter.ts)
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  return out;
}

function bindTexture(gl: WebGL2RenderingContext, program: WebGLProgram, unit: number, name: string, texture: WebGLTexture): void {
  gl.activeTexture(gl.TEXTURE0 + unit);
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.uniform1i(gl.getUniformLocation(program, name), unit);
}

const vertexArrays = new WeakMap<WebGL2RenderingContext, WebGLVertexArrayObject>();

/**
 * The app's draw: `stream.layout.capacity` points (or instances), no count on the CPU. Returns the
 * target's texels: element words where a point landed, UNWRITTEN elsewhere.
 */
function drawStream(gl: WebGL2RenderingContext, stream: Stream, mode: 'vertices' | 'instances'): Uint32Array {
  const { width, height, widthLog2, capacity } = stream.layout;
  const program = compileProgram(gl, drawVertex(mode === 'vertices' ? 'gl_VertexID' : 'gl_InstanceID'), drawFragment, 'app');
  const target = appTarget(gl, width, height);
  if (!vertexArrays.has(gl)) vertexArrays.set(gl, gl.createVertexArray()!);
  gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
  gl.viewport(0, 0, width, height);
  gl.clearBufferuiv(gl.COLOR, 0, new Uint32Array([UNWRITTEN, UNWRITTEN, UNWRITTEN, UNWRITTEN]));
  gl.useProgram(program);
  bindTexture(gl, program, 0, 'u_elements', stream.texture);
  bindTexture(gl, program, 1, 'u_length', stream.lengthTexture);
  gl.uniform1i(gl.getUniformLocation(program, 'u_targetWidthLog2'), widthLog2);
  gl.uniform2i(gl.getUniformLocation(program, 'u_targetSize'), width, height);
  gl.bindVertexArray(vertexArrays.get(gl)!);
  if (mode === 'vertices') gl.drawArrays(gl.POINTS, 0, capacity);
  else gl.drawArraysInstanced(gl.POINTS, 0, 1, capacity);
  gl.bindVertexArray(null);
  gl.useProgram(null);
  const texels = readTarget(gl, target);
  gl.deleteProgram(program);
  deleteTarget(gl, target);
  expect(gl.getError()).toBe(gl.NO_ERROR);
  return texels;
}

/** The length the shader reads from `stream.lengthTexture`. */
function lengthOnGpu(gl: WebGL2RenderingContext, stream: Stream): number {
  const program = compileProgram(gl, lengthVertex, lengthFragment, 'app');
  const target = appTarget(gl, 1, 1);
  gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
  gl.viewport(0, 0, 1, 1);
  gl.clearBufferuiv(gl.COLOR, 0, new Uint32Array([UNWRITTEN, 0, 0, 0]));
  gl.useProgram(program);
  bindTexture(gl, program, 0, 'u_length', stream.lengthTexture);
  if (!vertexArrays.has(gl)) vertexArrays.set(gl, gl.createVertexArray()!);
  gl.bindVertexArray(vertexArrays.get(gl)!);
  gl.drawArrays(gl.POINTS, 0, 1);
  gl.bindVertexArray(null);
  gl.useProgram(null);
  const texel = readTarget(gl, target);
  gl.deleteProgram(program);
  deleteTarget(gl, target);
  expect(Array.from(texel.slice(1))).toEqual([7, 7, 7]);
  return texel[0];
}

/** Element words of `data` (components per element), avoiding the UNWRITTEN word. */
function elementsOf(words: Uint32Array, components: number): Uint32Array[] {
  const out: Uint32Array[] = [];
  for (let i = 0; i < words.length / components; i++) {
    const element = new Uint32Array(4);
    element.set(words.subarray(i * components, (i + 1) * components));
    out.push(element);
  }
  return out;
}

/**
 * Checks the drawn target: its first `expected.length` texels hold the expected elements (in order,
 * or as a multiset for the unordered algorithms) and every other texel is untouched.
 */
function expectDrawn(texels: Uint32Array, expected: Uint32Array[], components: number, ordered: boolean, what: string): void {
  const capacity = texels.length / 4;
  const written: string[] = [];
  let lastWritten = -1;
  for (let t = 0; t < capacity; t++) {
    const texel = texels.subarray(4 * t, 4 * t + 4);
    if (texel[0] === UNWRITTEN) continue;
    lastWritten = t;
    // R32UI streams come back as (r, 0, 0, 1) from texelFetch: compare the stream's own components.
    written.push(Array.from(texel.subarray(0, components)).join(','));
  }
  expect(written.length, `${what}: texels written (= the GPU-resident count)`).toBe(expected.length);
  expect(lastWritten, `${what}: the written texels are the first count ones`).toBe(expected.length - 1);
  const want = expected.map((element) => Array.from(element.subarray(0, components)).join(','));
  if (ordered) expect(written, `${what}: values in input order`).toEqual(want);
  else expect([...written].sort(), `${what}: values as a multiset`).toEqual([...want].sort());
}

interface Case {
  name: string;
  type: 'float32' | 'uint32';
  components: 1 | 4;
  n: number;
  /** Fraction of elements kept. */
  density: number;
  algorithm: 'horn' | 'jumping-jack' | 'auto' | 'histopyramid' | 'bitmask';
}

const cases: Case[] = [
  { name: 'float32 vec4, 50 % kept, horn', type: 'float32', components: 4, n: 5000, density: 0.5, algorithm: 'horn' },
  { name: 'float32 vec4, 10 % kept, jumping-jack', type: 'float32', components: 4, n: 70_001, density: 0.1, algorithm: 'jumping-jack' },
  { name: 'uint32, 90 % kept, auto', type: 'uint32', components: 1, n: 9000, density: 0.9, algorithm: 'auto' },
  { name: 'uint32, nothing kept', type: 'uint32', components: 1, n: 3000, density: 0, algorithm: 'horn' },
  { name: 'uint32, everything kept, a full row and one more', type: 'uint32', components: 1, n: 2049, density: 1, algorithm: 'horn' },
  { name: 'float32 vec4, 30 % kept, histopyramid', type: 'float32', components: 4, n: 20_001, density: 0.3, algorithm: 'histopyramid' },
  { name: 'uint32, everything kept, a full row and one more, histopyramid', type: 'uint32', components: 1, n: 2049, density: 1, algorithm: 'histopyramid' },
  { name: 'float32 vec4, 30 % kept, bitmask', type: 'float32', components: 4, n: 20_001, density: 0.3, algorithm: 'bitmask' },
  { name: 'uint32, everything kept, a full row and one more, bitmask', type: 'uint32', components: 1, n: 2049, density: 1, algorithm: 'bitmask' },
  { name: 'uint32, 50 % of 33 elements (a partial second word), bitmask', type: 'uint32', components: 1, n: 33, density: 0.5, algorithm: 'bitmask' },
];

/** Data whose element k is kept iff its first component is > 0 (float32) or > 2^30 (uint32). */
function caseData(c: Case): { data: Float32Array | Uint32Array; words: Uint32Array; kept: boolean[] } {
  const next = random(c.n * 7 + c.components);
  const kept = Array.from({ length: c.n }, () => next() < c.density);
  const words = new Uint32Array(c.n * c.components);
  for (let k = 0; k < c.n; k++) {
    if (c.type === 'uint32') {
      words[k] = (kept[k] ? 2 ** 30 + 1 : 0) + Math.floor(next() * 2 ** 30);
    } else {
      const floats = new Float32Array(words.buffer, k * 16, 4);
      floats[0] = kept[k] ? 1 + Math.floor(next() * 1000) : -1 - Math.floor(next() * 1000);
      floats[1] = next() * 100 - 50;
      floats[2] = -0; // sign bit only: must come through bit-exactly
      floats[3] = next();
    }
  }
  const data = c.type === 'uint32' ? words : new Float32Array(words.buffer);
  return { data, words, kept };
}

const keepFor = (c: Case) => (c.type === 'uint32' ? { greaterThan: 2 ** 30 } : { glsl: 'return value.x > 0.0;' });

async function engineAndGl(): Promise<{ engine: Engine; gl: WebGL2RenderingContext }> {
  const { engine, gl } = await testContext();
  return { engine, gl };
}

describe('drawing a compacted stream from the GPU-resident count (streamGlsl + stream.lengthTexture)', () => {
  it('the snippet is plain GLSL ES 3.00 to paste after #version: no directives, no loader trailer', () => {
    expect(streamGlsl).not.toMatch(/^\s*#/m);
    expect(streamGlsl).not.toContain('@sources');
    for (const fn of ['highp uint glcompactLength(highp usampler2D lengthTexture)', 'highp uvec4 glcompactElement(highp usampler2D values, highp uint i)',
      'highp vec4 glcompactFloatElement(highp usampler2D values, highp uint i)', 'highp ivec2 glcompactTexel(highp usampler2D values, highp uint i)']) {
      expect(streamGlsl).toContain(fn);
    }
  });

  it.each(cases)('$name: points drawn per vertex and per instance show exactly the CPU filter', async (c) => {
    const { engine, gl } = await engineAndGl();
    const { data, words, kept } = caseData(c);
    const expected = elementsOf(words, c.components).filter((_, k) => kept[k]);
    const stream = engine.stream(data, { components: c.components });
    const result = engine.compact(stream, { keep: keepFor(c), algorithm: c.algorithm });
    const ordered = c.algorithm === 'horn' || c.algorithm === 'histopyramid' || c.algorithm === 'bitmask';
    // No count readback before the draws: the vertex shader reads it from the length texture.
    expectDrawn(drawStream(gl, result.stream, 'vertices'), expected, c.components, ordered, `${c.name}, gl_VertexID`);
    expectDrawn(drawStream(gl, result.stream, 'instances'), expected, c.components, ordered, `${c.name}, gl_InstanceID`);
    expect(lengthOnGpu(gl, result.stream)).toBe(expected.length);
    // ... and the CPU agrees once it does read the count.
    expect(await result.count()).toBe(expected.length);
    // The stream whose length the CPU knows draws whole, through its own (lazily made) length texture.
    expectDrawn(drawStream(gl, stream, 'instances'), elementsOf(words, c.components), c.components, true, `${c.name}, input stream`);
    result.dispose();
    stream.dispose();
  });

  it('chained on the GPU: a compaction of a compaction, and a scan of it, keep their length texture right', async () => {
    const { engine, gl } = await engineAndGl();
    const n = 20_000;
    const data = Uint32Array.from({ length: n }, (_, k) => k);
    const stream = engine.stream(data);
    const above = engine.compact(stream, { keep: { greaterThan: 5000 }, algorithm: 'horn' });
    const below = engine.compact(above.stream, { keep: { lessEqual: 12_345 }, algorithm: 'horn' });
    const sums = engine.scan(below.stream); // its length is still only on the GPU: copied
    const kept = data.filter((k) => k > 5000 && k <= 12_345);
    expect(lengthOnGpu(gl, above.stream)).toBe(n - 5001);
    expect(lengthOnGpu(gl, below.stream)).toBe(kept.length);
    expect(lengthOnGpu(gl, sums)).toBe(kept.length);
    expectDrawn(drawStream(gl, below.stream, 'vertices'), elementsOf(kept, 1), 1, true, 'compaction of a compaction');
    let sum = 0;
    const prefix = Uint32Array.from(kept, (k) => (sum = (sum + k) >>> 0));
    expectDrawn(drawStream(gl, sums, 'vertices'), elementsOf(prefix, 1), 1, true, 'scan of it');
    for (const s of [sums, below.stream, above.stream, stream]) s.dispose();
  });

  it('chained on the GPU through the new paths: a bitmask compaction of a compaction, reduce-then-scan scans of it', async () => {
    const { engine, gl } = await engineAndGl();
    const n = 20_000;
    const data = Uint32Array.from({ length: n }, (_, k) => k);
    const stream = engine.stream(data);
    for (const first of ['horn', 'jumping-jack', 'bitmask'] as const) {
      const above = engine.compact(stream, { keep: { greaterThan: 5000 }, algorithm: first });
      const below = engine.compact(above.stream, { keep: { lessEqual: 12_345 }, algorithm: 'bitmask' });
      const sums = engine.scan(below.stream, { algorithm: 'reduce-then-scan' }); // its length still only on the GPU
      const segmented = engine.scan(below.stream, { algorithm: 'reduce-then-scan', blockSize: 64, exclusive: true });
      // Jumping Jack's output is in any order, and the bitmask keeps it: compare with its own read
      const order = first === 'jumping-jack' ? Array.from(await above.read()) : Array.from(data);
      const kept = Uint32Array.from(order.filter((k) => k > 5000 && k <= 12_345));
      expect(lengthOnGpu(gl, below.stream), `${first}: bitmask`).toBe(kept.length);
      expect(lengthOnGpu(gl, sums), `${first}: scan`).toBe(kept.length);
      expect(lengthOnGpu(gl, segmented), `${first}: segmented scan`).toBe(kept.length);
      expectDrawn(drawStream(gl, below.stream, 'vertices'), elementsOf(kept, 1), 1, true, `${first}, then bitmask`);
      let sum = 0;
      expectDrawn(drawStream(gl, sums, 'vertices'), elementsOf(Uint32Array.from(kept, (k) => (sum = (sum + k) >>> 0)), 1), 1, true, `${first}, bitmask, reduce-then-scan`);
      const exclusive = Uint32Array.from(kept, (k, i) => (i % 64 === 0 && (sum = 0), (sum = (sum + k) >>> 0) - k));
      expectDrawn(drawStream(gl, segmented, 'instances'), elementsOf(exclusive, 1), 1, true, `${first}, bitmask, segmented exclusive reduce-then-scan`);
      for (const s of [segmented, sums, below.stream, above.stream]) s.dispose();
    }
    stream.dispose();
  });

  it('the length texture of streams whose length the CPU knows: uploads, scans, empty streams', async () => {
    const { engine, gl } = await engineAndGl();
    for (const n of [0, 1, 2047, 2048, 70_001]) {
      const stream = engine.stream(new Float32Array(n).fill(1.5));
      expect(lengthOnGpu(gl, stream), `engine.stream of ${n}`).toBe(n);
      const scanned = engine.scan(stream, { exclusive: true });
      expect(lengthOnGpu(gl, scanned), `scan of ${n}`).toBe(n);
      const tree = engine.scan(stream, { algorithm: 'reduce-then-scan' });
      expect(lengthOnGpu(gl, tree), `reduce-then-scan of ${n}`).toBe(n);
      tree.dispose();
      const vec4s = engine.stream(new Int32Array(n * 4).fill(-3), { components: 4 });
      expect(lengthOnGpu(gl, vec4s), `int32 vec4 stream of ${n}`).toBe(n);
      for (const s of [stream, scanned, vec4s]) s.dispose();
    }
  });

  it('is made once, owned by the stream, freed with it; making it leaves the app\'s bindings alone', async () => {
    const { engine, gl } = await engineAndGl();
    engine.trim();
    const before = engine.resources.textures;
    const stream = engine.stream(new Uint32Array([5, 6, 7]));
    const appTexture = gl.createTexture()!;
    gl.activeTexture(gl.TEXTURE3);
    gl.bindTexture(gl.TEXTURE_2D, appTexture);
    const lengthTexture = stream.lengthTexture;
    expect(gl.getParameter(gl.ACTIVE_TEXTURE)).toBe(gl.TEXTURE3);
    expect(gl.getParameter(gl.TEXTURE_BINDING_2D)).toBe(appTexture);
    gl.bindTexture(gl.TEXTURE_2D, null);
    gl.activeTexture(gl.TEXTURE0);
    gl.deleteTexture(appTexture);
    expect(stream.lengthTexture).toBe(lengthTexture); // the same texture every time
    expect(lengthTexture).not.toBe(stream.texture);
    expect(engine.resources.textures).toBe(before + 2); // the stream's texture and its length texture
    stream.dispose();
    expect(() => stream.lengthTexture).toThrow(/stream\.lengthTexture: this stream was disposed/);
    engine.trim();
    expect(engine.resources.textures).toBe(before);

    // An independent count on the context: an engine whose streams made length textures leaves nothing.
    const counter = countGlObjects(gl);
    try {
      const { createEngine } = await import('../src/index.js');
      const own = createEngine(gl);
      const a = own.stream(new Float32Array([1, 2, 3]));
      const b = own.compact(a, { keep: 'nonzero' });
      void a.lengthTexture;
      void b.stream.lengthTexture;
      own.dispose();
    } finally {
      counter.restore();
    }
    expect(nonZero(counter.live)).toEqual({});
  });
});
