// Randomized differential testing: random streams, kept-patterns, predicates and options against
// the CPU reference. fast-check shrinks a failure to a minimal case and prints it (the
// "Counterexample" in the error, with the seed and path to replay it).
//
// Knobs (environment variables; they reach the Chromium project too, see vitest.config.ts):
//   GLCOMPACT_PROPERTY_RUNS   random compaction cases (default 150; scans get a third as many)
//   GLCOMPACT_PROPERTY_SEED   fast-check seed (default fixed, so CI runs are reproducible)
// Long mode, e.g.: GLCOMPACT_PROPERTY_RUNS=10000 GLCOMPACT_PROPERTY_SEED=7 npx vitest run test/property.test.ts
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompactOptions, Engine, Stream } from '../src/index.js';
import { envCount } from './support/env.js';
import { expectSameBits, testEngine } from './support/engine.js';
import { referenceScan, sortedTuples } from './support/reference.js';
import { applicableCompactOptions, applicableScanOptions } from './support/options.js';

const runs = envCount('GLCOMPACT_PROPERTY_RUNS', 150);
const seed = envCount('GLCOMPACT_PROPERTY_SEED', 20261121);

const layouts = ['uniform', 'runs', 'lone-per-block', 'alternating', 'all', 'none'] as const;
type KeptLayout = (typeof layouts)[number];

/** Which elements the data marks as kept (the predicate then decides from the values themselves). */
function keptPattern(layout: KeptLayout, n: number, density: number, blockSize: number, seed: number): Uint8Array {
  let a = seed >>> 0;
  const next = () => (a = (Math.imul(a, 1664525) + 1013904223) >>> 0) / 4294967296;
  const out = new Uint8Array(n);
  switch (layout) {
    case 'uniform':
      for (let i = 0; i < n; i++) out[i] = next() < density ? 1 : 0;
      break;
    case 'runs': // clustered: runs of 1..300 kept or dropped elements
      for (let i = 0; i < n; ) {
        const keep = next() < density ? 1 : 0;
        const run = 1 + Math.floor(next() * 300);
        for (let k = 0; k < run && i < n; k++, i++) out[i] = keep;
      }
      break;
    case 'lone-per-block': {
      const at = Math.floor(density * (blockSize - 1));
      for (let i = at; i < n; i += blockSize) out[i] = 1;
      break;
    }
    case 'alternating':
      for (let i = 0; i < n; i += 2) out[i] = 1;
      break;
    case 'all':
      out.fill(1);
      break;
    case 'none':
      break;
  }
  return out;
}

const predicates = ['nonzero', 'lessEqual', 'greaterThan', 'glsl', 'glsl-index'] as const;
type Predicate = (typeof predicates)[number];

function keepOption(predicate: Predicate, type: ElementTypeName): CompactOptions['keep'] {
  // keep() sees the value in the stream's own type: vec4, uvec4 or ivec4
  const nine = { float32: '9.0', uint32: '9u', int32: '9' }[type];
  switch (predicate) {
    case 'nonzero': return 'nonzero';
    case 'lessEqual': return { lessEqual: 9.5 };
    case 'greaterThan': return { greaterThan: 9.5 };
    case 'glsl': return { glsl: `return value.x > ${nine};` };
    case 'glsl-index': return { glsl: `return index % 7u < 2u || value.x > ${nine};` };
  }
}

const NAN_BITS = 0x7fc00001;
const MINUS_ZERO_BITS = 0x80000000;

/**
 * Element words (components per element). A marked element's first component is 10 + i (unique,
 * > 9.5); the others get 0, or for signed/float types -5 and (floats) -0 and a NaN payload, which
 * each predicate treats in its own way. Extra components are non-zero only on marked elements, so
 * `'nonzero'` sees them too.
 */
function makeBits(marked: Uint8Array, type: ElementTypeName, components: 1 | 4, seed: number): Uint32Array {
  const n = marked.length;
  const bits = new Uint32Array(n * components);
  const f = new Float32Array(1);
  const fb = new Uint32Array(f.buffer);
  const word = (v: number) => (type === 'float32' ? ((f[0] = v), fb[0]) : v >>> 0);
  for (let i = 0; i < n; i++) {
    let first: number;
    if (marked[i]) first = word(10 + i);
    else {
      const pick = type === 'uint32' ? 0 : (i * 2654435761 + seed) >>> 29; // 0..7
      first = pick < 4 ? 0 : pick < 6 ? word(-5) : type === 'float32' ? (pick === 6 ? MINUS_ZERO_BITS : NAN_BITS) : word(-5);
    }
    bits[i * components] = first;
    for (let c = 1; c < components; c++) bits[i * components + c] = marked[i] ? word(c * 1000 + (i & 1023)) : 0;
  }
  return bits;
}

type ElementTypeName = 'uint32' | 'int32' | 'float32';

const scratchFloat = new Float32Array(1);
const scratchWord = new Uint32Array(scratchFloat.buffer);

function decode(word: number, type: ElementTypeName): number {
  if (type === 'uint32') return word;
  if (type === 'int32') return word | 0;
  scratchWord[0] = word; // (one shared buffer: a new one per word made the large cases' reference take seconds)
  return scratchFloat[0];
}

/** The CPU's answer for each element: the same predicate, in the element's type (float32 compare). */
function keptByPredicate(bits: Uint32Array, components: number, type: ElementTypeName, predicate: Predicate): Uint32Array {
  const n = bits.length / components;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = decode(bits[i * components], type);
    let keep: boolean;
    switch (predicate) {
      case 'nonzero': {
        keep = false;
        for (let c = 0; c < components; c++) if (decode(bits[i * components + c], type) !== 0) keep = true; // NaN !== 0; -0 === 0
        break;
      }
      case 'lessEqual': keep = x <= 9.5; break;
      case 'greaterThan': keep = x > 9.5; break;
      case 'glsl': keep = x > 9; break;
      case 'glsl-index': keep = i % 7 < 2 || x > 9; break;
    }
    if (keep) out.push(i);
  }
  return Uint32Array.from(out);
}

function gather(bits: Uint32Array, components: number, indices: Uint32Array): Uint32Array {
  const out = new Uint32Array(indices.length * components);
  indices.forEach((index, k) => out.set(bits.subarray(index * components, index * components + components), k * components));
  return out;
}

const wordsOf = (data: Float32Array | Uint32Array | Int32Array) => new Uint32Array(data.buffer, data.byteOffset, data.length);

function compactionCase(engine: Engine) {
  const concats = engine.caps.transformFeedback ? (['vertex-fetch', 'transform-feedback', 'auto'] as const) : (['vertex-fetch', 'auto'] as const);
  return fc.record({
    // mostly small and medium streams (cheap, and where the edge cases are), up to 2^20
    n: fc.oneof(
      { weight: 5, arbitrary: fc.integer({ min: 0, max: 600 }) },
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 70_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 ** 20 }) },
      { weight: 1, arbitrary: fc.constantFrom(0, 1, 15, 16, 17, 2047, 2048, 2049, 4096 * 3 + 1, 2 ** 16, 2 ** 20) },
    ),
    layout: fc.constantFrom(...layouts),
    density: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer(),
    type: fc.constantFrom<ElementTypeName>('uint32', 'int32', 'float32'),
    components: fc.constantFrom<1 | 4>(1, 4),
    predicate: fc.constantFrom(...predicates),
    algorithm: fc.constantFrom('jumping-jack', 'horn', 'horn-global', 'histopyramid', 'bitmask', 'auto'),
    concat: fc.constantFrom(...concats),
    output: fc.constantFrom('values', 'indices'),
    blockSize: fc.constantFrom(16, 32, 64, 128, 256, 512, 1024, 2048),
    scan: fc.constantFrom('recursive-doubling', 'blelloch', 'reduce-then-scan'),
    radix: fc.constantFrom(2, 4, 8, 16),
    /** Compact the output of a first (keep-all) compaction: the input length then lives on the GPU. */
    chained: fc.boolean(),
  });
}

type CompactionCase = ReturnType<typeof compactionCase> extends fc.Arbitrary<infer T> ? T : never;

async function checkCompaction(engine: Engine, c: CompactionCase): Promise<void> {
  const marked = keptPattern(c.layout, c.n, c.density, c.blockSize, c.seed);
  const bits = makeBits(marked, c.type, c.components, c.seed);
  const data = c.type === 'uint32' ? bits : c.type === 'int32' ? new Int32Array(bits.buffer) : new Float32Array(bits.buffer);
  const expectedIndices = keptByPredicate(bits, c.components, c.type, c.predicate);

  const streams: Stream[] = [];
  const disposables: Array<{ dispose(): void }> = [];
  try {
    let input = engine.stream(data, { components: c.components });
    streams.push(input);
    if (c.chained) {
      const all = engine.compact(input, { keep: { glsl: 'return true;' }, algorithm: 'horn' });
      disposables.push(all);
      input = all.stream;
    }
    const global = c.algorithm === 'horn-global';
    const algorithm = global ? 'horn' : (c.algorithm as 'jumping-jack' | 'horn' | 'histopyramid' | 'bitmask' | 'auto');
    const blocks = !global && algorithm !== 'histopyramid' && algorithm !== 'bitmask';
    const result = engine.compact(input, applicableCompactOptions({
      keep: keepOption(c.predicate, c.type),
      algorithm,
      // 'auto' with block options is the per-block hybrid only where any order is allowed
      ...(algorithm === 'auto' ? { order: 'any' as const } : {}),
      global,
      // global Horn, the HistoPyramid and the bitmask have no concatenation: leave concat to its default there
      concat: blocks ? c.concat : undefined,
      output: c.output as 'values' | 'indices',
      blockSize: c.blockSize,
      scan: c.scan as 'recursive-doubling' | 'blelloch' | 'reduce-then-scan',
      radix: c.radix,
    }));
    disposables.push(result);
    expect(result.stats.algorithm).toBe(global ? 'horn-global' : algorithm === 'auto' ? 'hybrid' : algorithm);
    expect(result.stats.concat).toBe(!blocks ? 'none' : c.concat === 'auto' ? 'vertex-fetch' : c.concat);

    expect(await result.count(), 'count').toBe(expectedIndices.length);
    const got = await result.read();
    const ordered = algorithm === 'horn' || algorithm === 'histopyramid' || algorithm === 'bitmask';
    if (c.output === 'indices') {
      expect(got).toBeInstanceOf(Uint32Array);
      expectSameBits(ordered ? (got as Uint32Array) : (got as Uint32Array).slice().sort(), expectedIndices, 'indices');
    } else {
      expect(got).toBeInstanceOf(data.constructor);
      const expectedWords = gather(bits, c.components, expectedIndices);
      const gotWords = wordsOf(got);
      expectSameBits(ordered ? gotWords : sortedTuples(gotWords, c.components), ordered ? expectedWords : sortedTuples(expectedWords, c.components), 'values');
    }
  } finally {
    for (const d of disposables.reverse()) d.dispose();
    for (const s of streams) s.dispose();
  }
}

const scanCase = fc.record({
  n: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 0, max: 600 }) },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 70_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 ** 20 }) },
  ),
  seed: fc.integer(),
  type: fc.constantFrom<ElementTypeName>('uint32', 'int32', 'float32'),
  components: fc.constantFrom<1 | 4>(1, 4),
  algorithm: fc.constantFrom('recursive-doubling', 'blelloch', 'reduce-then-scan'),
  exclusive: fc.boolean(),
  blockSize: fc.constantFrom(undefined, 16, 32, 64, 256, 1024, 2048),
  radix: fc.constantFrom(2, 4, 8, 16),
  /** uint32/int32: values up to 2^32 (sums wrap); floats: small integers, so every sum is exact in float32 whatever the order. */
  wide: fc.boolean(),
});

async function checkScan(engine: Engine, c: typeof scanCase extends fc.Arbitrary<infer T> ? T : never): Promise<void> {
  let a = c.seed >>> 0;
  const next = () => (a = (Math.imul(a, 1664525) + 1013904223) >>> 0);
  const length = c.n * c.components;
  const data =
    c.type === 'float32' ? Float32Array.from({ length }, () => next() % 16)
      : c.type === 'int32' ? Int32Array.from({ length }, () => (c.wide ? next() | 0 : (next() % 201) - 100))
        : Uint32Array.from({ length }, () => (c.wide ? next() : next() % 1000));
  const stream = engine.stream(data, { components: c.components });
  const scanned = engine.scan(stream, applicableScanOptions({ algorithm: c.algorithm as 'recursive-doubling' | 'blelloch' | 'reduce-then-scan', exclusive: c.exclusive, blockSize: c.blockSize, radix: c.radix }));
  try {
    const expected = referenceScan(data, { exclusive: c.exclusive, blockSize: c.blockSize, components: c.components });
    expectSameBits(await scanned.read(), expected, 'scan');
  } finally {
    scanned.dispose();
    stream.dispose();
  }
}

/** Runs a property, logging how many cases ran and how long they took (the long-mode record). */
async function runProperty<T>(name: string, arbitrary: fc.Arbitrary<T>, check: (c: T) => Promise<void>, numRuns: number): Promise<void> {
  let cases = 0;
  const start = performance.now();
  await fc.assert(
    fc.asyncProperty(arbitrary, async (c) => {
      cases++;
      await check(c);
    }),
    { numRuns, seed, endOnFailure: false },
  );
  const seconds = (performance.now() - start) / 1000;
  console.log(`property ${name}: ${numRuns} cases passed (${cases} runs) in ${seconds.toFixed(1)} s, seed ${seed}`);
  expect(cases).toBeGreaterThanOrEqual(numRuns);
}

describe('random compactions agree with the CPU reference', () => {
  it(`${runs} random cases (seed ${seed})`, { timeout: Math.max(120_000, runs * 2_000) }, async () => {
    const engine = await testEngine();
    await runProperty('compact', compactionCase(engine), (c) => checkCompaction(engine, c), runs);
  });

  it(`${Math.ceil(runs / 3)} random scans (seed ${seed})`, { timeout: Math.max(120_000, runs * 2_000) }, async () => {
    const engine = await testEngine();
    await runProperty('scan', scanCase, (c) => checkScan(engine, c), Math.ceil(runs / 3));
  });

  // A few fixed large cases past the random range.
  it.each([
    { n: 2 ** 21 + 3, layout: 'uniform', density: 0.3, algorithm: 'jumping-jack', blockSize: 256, scan: 'blelloch', radix: 4, type: 'float32', components: 1, predicate: 'lessEqual', output: 'values' },
    { n: 2 ** 21 + 3, layout: 'runs', density: 0.6, algorithm: 'horn', blockSize: 2048, scan: 'recursive-doubling', radix: 16, type: 'uint32', components: 1, predicate: 'nonzero', output: 'indices' },
    { n: 3 * 2 ** 20 + 1, layout: 'lone-per-block', density: 0.5, algorithm: 'auto', blockSize: 64, scan: 'recursive-doubling', radix: 2, type: 'int32', components: 1, predicate: 'glsl-index', output: 'values' },
    { n: 2 ** 20 + 1, layout: 'uniform', density: 0.9, algorithm: 'horn-global', blockSize: 256, scan: 'blelloch', radix: 4, type: 'float32', components: 4, predicate: 'greaterThan', output: 'values' },
    { n: 2 ** 21 + 5, layout: 'runs', density: 0.4, algorithm: 'histopyramid', blockSize: 256, scan: 'blelloch', radix: 4, type: 'uint32', components: 1, predicate: 'nonzero', output: 'indices' },
    { n: 2 ** 21 + 7, layout: 'uniform', density: 0.45, algorithm: 'bitmask', blockSize: 256, scan: 'blelloch', radix: 4, type: 'int32', components: 1, predicate: 'glsl-index', output: 'values' },
    { n: 2 ** 20 + 33, layout: 'runs', density: 0.5, algorithm: 'bitmask', blockSize: 256, scan: 'blelloch', radix: 4, type: 'float32', components: 4, predicate: 'nonzero', output: 'indices' },
    { n: 2 ** 21 + 3, layout: 'lone-per-block', density: 0.2, algorithm: 'horn', blockSize: 1024, scan: 'reduce-then-scan', radix: 4, type: 'uint32', components: 1, predicate: 'greaterThan', output: 'values' },
    { n: 2 ** 21 + 9, layout: 'uniform', density: 0.7, algorithm: 'jumping-jack', blockSize: 32, scan: 'reduce-then-scan', radix: 4, type: 'float32', components: 1, predicate: 'glsl', output: 'indices' },
  ] as const)('large fixed case: $n elements, $layout, $algorithm', { timeout: 300_000 }, async (fixed) => {
    const engine = await testEngine();
    await checkCompaction(engine, { ...fixed, seed: 12345, concat: 'auto', chained: false });
  });

  // ... and for the scans: reduce-then-scan's tree over 2^21 elements and more (whole and segmented).
  it.each([
    { n: 2 ** 21 + 3, type: 'uint32', components: 1, algorithm: 'reduce-then-scan', exclusive: false, blockSize: undefined, wide: true },
    { n: 3 * 2 ** 20 + 5, type: 'int32', components: 1, algorithm: 'reduce-then-scan', exclusive: true, blockSize: undefined, wide: true },
    { n: 2 ** 20 + 7, type: 'float32', components: 4, algorithm: 'reduce-then-scan', exclusive: false, blockSize: undefined, wide: false },
    { n: 2 ** 21 + 1, type: 'uint32', components: 1, algorithm: 'reduce-then-scan', exclusive: true, blockSize: 1024, wide: true },
    // rows of 4096 (streams past 2^22 are wider than a block): segments of the widest block
    { n: 2 ** 22 + 5, type: 'uint32', components: 1, algorithm: 'reduce-then-scan', exclusive: true, blockSize: 2048, wide: true },
  ] as const)('large fixed scan: $n elements, $type×$components, $algorithm, block $blockSize', { timeout: 300_000 }, async (fixed) => {
    const engine = await testEngine();
    await checkScan(engine, { ...fixed, seed: 54321, radix: 4 });
  });
});
