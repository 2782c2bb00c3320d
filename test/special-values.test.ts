// Exact at the edges of float32: NaN payloads (quiet, signalling, negative), ±Infinity, −0 and
// denormals pass through compaction bit-exactly, in float and integer streams, 1 and 4 components,
// every algorithm and concatenation path, and through a chained second compaction (whose length
// is on the GPU). The elements are kept by index ({ glsl } on `index`), so the payloads
// themselves are what must survive. Predicates that look at a NaN behave as the GLSL expression
// says. Every compaction path: the paper's, the HistoPyramid and the bitmask. (Exactness past 2^24
// elements is test/scale.node.test.ts.)
import { describe, expect, it, type TestContext } from 'vitest';
import type { Engine } from '../src/index.js';
import { expectSameBits, testEngine } from './support/engine.js';
import { applicableCompactOptions } from './support/options.js';

/** 32-bit patterns that a float path would mangle. */
const specialBits = new Uint32Array([
  0x7fc00000, // quiet NaN, canonical
  0x7fc00001, // quiet NaN, payload 1
  0x7fffffff, // quiet NaN, all payload bits
  0xffc00000, // negative quiet NaN
  0xfff12345, // negative NaN with payload
  0x7f800001, // signalling NaN, smallest payload
  0x7fa5a5a5, // signalling NaN, pattern payload
  0x7f800000, // +Infinity
  0xff800000, // -Infinity
  0x80000000, // -0
  0x00000000, // +0
  0x00000001, // smallest denormal
  0x80000001, // smallest negative denormal
  0x007fffff, // largest denormal
  0x807fffff, // largest negative denormal
  0x00800000, // smallest normal
  0x7f7fffff, // largest finite
  0xffffffff, // negative NaN, all bits (uint32 max, int32 -1)
]);

const isNaNBits = (b: number) => (b & 0x7f800000) === 0x7f800000 && (b & 0x007fffff) !== 0;
const floatOf = (b: number) => new Float32Array(Uint32Array.of(b).buffer)[0];
const isDenormalBits = (b: number) => (b & 0x7f800000) === 0 && (b & 0x007fffff) !== 0;

/** n elements (× components) cycling through the special patterns, shifted per component so vec4s mix them. */
function specialStream(n: number, components: 1 | 4): Uint32Array {
  return Uint32Array.from({ length: n * components }, (_, k) => specialBits[(Math.floor(k / components) * 7 + (k % components) * 5) % specialBits.length]);
}

function view(bits: Uint32Array, type: 'float32' | 'uint32' | 'int32') {
  const copy = bits.slice();
  return type === 'float32' ? new Float32Array(copy.buffer) : type === 'int32' ? new Int32Array(copy.buffer) : copy;
}

/** Expected bits: the elements whose index passes `kept`, all their components. */
function keptBits(bits: Uint32Array, components: number, kept: (i: number) => boolean): Uint32Array {
  const out: number[] = [];
  for (let i = 0; i < bits.length / components; i++) if (kept(i)) for (let c = 0; c < components; c++) out.push(bits[i * components + c]);
  return Uint32Array.from(out);
}

const bitsOf = (data: ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number; length: number }) => new Uint32Array(data.buffer, data.byteOffset, data.length);

/** Order-free comparison for Jumping Jack / hybrid: sort elements (as tuples of words). */
function sortedElements(bits: Uint32Array, components: number): Uint32Array {
  const elements: number[][] = [];
  for (let i = 0; i < bits.length; i += components) elements.push(Array.from(bits.subarray(i, i + components)));
  elements.sort((a, b) => {
    for (let c = 0; c < components; c++) if (a[c] !== b[c]) return a[c] - b[c];
    return 0;
  });
  return Uint32Array.from(elements.flat());
}

const paths = [
  { algorithm: 'horn', global: false },
  { algorithm: 'horn', global: true },
  { algorithm: 'jumping-jack', global: false },
  { algorithm: 'auto', global: false },
  { algorithm: 'histopyramid', global: false },
  { algorithm: 'bitmask', global: false },
] as const;

/** The paths that keep input order (compared exactly; the others as multisets). */
const keepsOrder = (algorithm: string) => algorithm === 'horn' || algorithm === 'histopyramid' || algorithm === 'bitmask';
/** The paths without blocks have no concatenation. */
const noBlocks = (path: (typeof paths)[number]) => path.global || path.algorithm === 'histopyramid' || path.algorithm === 'bitmask';

function concatModes(engine: Engine) {
  return engine.caps.transformFeedback ? (['vertex-fetch', 'transform-feedback'] as const) : (['vertex-fetch'] as const);
}

describe('special float bit patterns pass through compaction bit-exactly', () => {
  const n = 5000; // several blocks of 256, the last one partial
  it.each([
    ['float32', 1],
    ['float32', 4],
    ['uint32', 1],
    ['int32', 4],
  ] as const)('%s, %i component(s): kept by index, every path', async (type, components) => {
    const engine = await testEngine();
    const bits = specialStream(n, components);
    const stream = engine.stream(view(bits, type), { components });
    const keep = { glsl: 'return index % 3u != 1u;' };
    const expected = keptBits(bits, components, (i) => i % 3 !== 1);
    for (const path of paths) {
      // the paths without blocks have no concatenation: run them once
      for (const concat of noBlocks(path) ? (['vertex-fetch'] as const) : concatModes(engine)) {
        const label = `${type}×${components} ${path.algorithm}${path.global ? ' global' : ''} ${concat}`;
        const result = engine.compact(stream, applicableCompactOptions({ keep, algorithm: path.algorithm, global: path.global, concat, blockSize: 256 }));
        try {
          expect(await result.count(), label).toBe(expected.length / components);
          const got = await result.read();
          expect(got.constructor, label).toBe(stream.type === 'float32' ? Float32Array : stream.type === 'int32' ? Int32Array : Uint32Array);
          const gotBits = bitsOf(got);
          if (keepsOrder(path.algorithm)) expectSameBits(gotBits, expected, label);
          else expectSameBits(sortedElements(gotBits, components), sortedElements(expected, components), label);
          // chained: the output (length still on the GPU for a fresh result) compacted again keeps every bit
          const again = engine.compact(result.stream, { keep: { glsl: 'return true;' }, algorithm: 'horn' });
          expectSameBits(bitsOf(await again.read()), gotBits, `${label}, compacted again`);
          again.dispose();
        } finally {
          result.dispose();
        }
      }
    }
    stream.dispose();
  });

  it('a stream of nothing but NaNs with distinct payloads, kept by index (2^16 + 3 elements, blocks of 2048)', async () => {
    const engine = await testEngine();
    const count = 2 ** 16 + 3;
    // every element a different NaN: sign, quiet/signalling bit and payload vary
    const bits = Uint32Array.from({ length: count }, (_, i) => ((i & 1 ? 0xff800000 : 0x7f800000) | (((i * 2654435761) >>> 9) & 0x7fffff) | 1) >>> 0);
    expect(bits.every(isNaNBits)).toBe(true);
    const stream = engine.stream(new Float32Array(bits.buffer.slice(0)));
    for (const algorithm of ['horn', 'jumping-jack', 'histopyramid', 'bitmask'] as const) {
      const result = engine.compact(stream, applicableCompactOptions({ keep: { glsl: 'return (index & 4u) == 0u;' }, algorithm, blockSize: 2048 }));
      const expected = keptBits(bits, 1, (i) => (i & 4) === 0);
      const got = bitsOf(await result.read());
      if (algorithm !== 'jumping-jack') expectSameBits(got, expected, algorithm);
      else expectSameBits(got.slice().sort(), expected.slice().sort(), algorithm);
      result.dispose();
    }
    stream.dispose();
  });
});

describe('predicates on NaN behave as the GLSL expression says', () => {
  const n = 3000;
  const allBits = specialStream(n, 1);
  // keep.test.ts covers the threshold semantics on a few values; here every NaN payload, every path
  const cases = [
    ['{ glsl: value.x != value.x } keeps exactly the NaNs', { glsl: 'return value.x != value.x;' }, (b: number) => isNaNBits(b)],
    ['{ glsl: isnan(value.x) } keeps exactly the NaNs', { glsl: 'return isnan(value.x);' }, (b: number) => isNaNBits(b)],
    ['{ glsl: value.x == value.x } drops exactly the NaNs', { glsl: 'return value.x == value.x;' }, (b: number) => !isNaNBits(b)],
    ['{ lessEqual: 1e30 } drops the NaNs', { lessEqual: 1e30 }, (b: number) => !isNaNBits(b) && floatOf(b) <= Math.fround(1e30)],
    ['{ greaterThan: -1e30 } drops the NaNs', { greaterThan: -1e30 }, (b: number) => !isNaNBits(b) && floatOf(b) > Math.fround(-1e30)],
    // denormals are left out here: whether they count as zero depends on flush-to-zero (next test)
    ["'nonzero' keeps the NaNs and infinities, drops ±0 (normals only)", 'nonzero', (b: number) => (b & 0x7f800000) !== 0],
  ] as const;

  it.each(cases)('%s', async (_, keep, kept) => {
    const engine = await testEngine();
    // filtered as bits: a NaN read into a JS number may lose its payload
    const bits = keep === 'nonzero' ? allBits.filter((b) => !isDenormalBits(b)) : allBits;
    const stream = engine.stream(new Float32Array(bits.buffer));
    for (const path of paths) {
      const label = `${path.algorithm}${path.global ? ' global' : ''}`;
      const result = engine.compact(stream, applicableCompactOptions({ keep, algorithm: path.algorithm, global: path.global, blockSize: 256 }));
      const expected = keptBits(bits, 1, (i) => kept(bits[i]));
      expect(await result.count(), label).toBe(expected.length);
      const got = bitsOf(await result.read());
      if (keepsOrder(path.algorithm)) expectSameBits(got, expected, label);
      else expectSameBits(got.slice().sort(), expected.slice().sort(), label);
      result.dispose();
    }
    stream.dispose();
  });

  it("denormals under 'nonzero': all kept or all dropped (GLSL ES allows flush-to-zero; which one is reported, not asserted)", async (context: TestContext) => {
    const engine = await testEngine();
    const denormals = new Float32Array(new Uint32Array([0x00000001, 0x80000001, 0x007fffff, 0x807fffff]).buffer);
    const stream = engine.stream(denormals);
    const nonzero = engine.compact(stream, { keep: 'nonzero', algorithm: 'horn' });
    const kept = await nonzero.count();
    nonzero.dispose();
    stream.dispose();
    // either all four are non-zero (denormals kept) or none (flushed to zero): never a mix
    expect([0, 4]).toContain(kept);
    context.annotate(`'nonzero' keeps ${kept} of 4 denormals on ${engine.caps.renderer} (${kept === 4 ? 'denormals preserved' : 'flushed to zero'})`);
  });
});

describe('denormals in float thresholds', () => {
  // GLSL ES 3.00 lets a GPU flush denormals to zero in arithmetic and comparisons. docs/how-it-works.md "Numbers" says
  // what the renderers we test do; this test measures it, and holds each renderer to one model for
  // every value and threshold: either IEEE comparisons, or denormal values and thresholds alike
  // compared as ±0 (never a mix, e.g. values flushed but thresholds not).
  const valueBits = [0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00000000, 0x80000000, 0x00800000, 0x80800000, 0x3f800000];
  const thresholds = [0, -0, floatOf(0x00000001), floatOf(0x80000001), floatOf(0x00400000), floatOf(0x00800000), floatOf(0x80800000)];
  const flush = (x: number) => (Math.abs(x) < 2 ** -126 ? 0 : x);
  const models = {
    ieee: (v: number, t: number) => v <= t,
    'flush-to-zero': (v: number, t: number) => flush(v) <= flush(t),
  };

  it('lessEqual / greaterThan and a { glsl } threshold uniform follow one model per renderer (which one is reported)', async (context: TestContext) => {
    const engine = await testEngine();
    const values = new Float32Array(Uint32Array.from(valueBits).buffer);
    const stream = engine.stream(values);
    const ways = {
      lessEqual: (t: number) => ({ keep: { lessEqual: t }, le: true }),
      greaterThan: (t: number) => ({ keep: { greaterThan: t }, le: false }),
      'glsl <=': (t: number) => ({ keep: { glsl: 'return value.x <= limit;', uniforms: { limit: t } }, le: true }),
      'glsl >': (t: number) => ({ keep: { glsl: 'return value.x > limit;', uniforms: { limit: t } }, le: false }),
    };
    const matches = { ieee: true, 'flush-to-zero': true };
    try {
      for (const [way, make] of Object.entries(ways)) {
        for (const t of thresholds) {
          const { keep, le } = make(t);
          const result = engine.compact(stream, { keep: keep as never, algorithm: 'horn', output: 'indices' });
          const got = Array.from(await result.read());
          result.dispose();
          for (const [name, model] of Object.entries(models) as [keyof typeof models, (v: number, t: number) => boolean][]) {
            const expected = Array.from(values.keys()).filter((i) => model(values[i], t) === le);
            if (got.join() !== expected.join()) matches[name] = false;
          }
          expect(matches.ieee || matches['flush-to-zero'], `${way} ${t}: kept indices ${got.join()} fit neither model`).toBe(true);
        }
      }
    } finally {
      stream.dispose();
    }
    const model = matches.ieee ? 'IEEE (denormals compared as their values)' : 'flush-to-zero (denormal values and thresholds compared as 0)';
    context.annotate(`float thresholds on ${engine.caps.renderer}: ${model}`);
  });
});
