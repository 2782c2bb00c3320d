// The float32 scan's summation order and accuracy, as docs/how-it-works.md "Numbers" documents them: the result is the
// engine's tree of float32 additions bit for bit (test/support/float-scan.ts replays it on the CPU),
// which is not a sequential float32 sum, and its error against the exact sum stays within
// gamma(depth) * sum |x_j| with depth <= 2 * ceil(log2 capacity) + 1 roundings. Reduce-then-scan
// (its tree's shape still being tuned) is held to the bound of its tree and to determinism.
import { describe, expect, it, type TestContext } from 'vitest';
import { layoutFor } from '../src/layout.js';
import { LANES_SHAPE, levelShape } from '../src/scan/reduce-then-scan.js';
import { TREE_SHAPE } from '../src/scan/summing-tree.js';
import { expectSameBits, testEngine } from './support/engine.js';
import { floatScanInEngineOrder, gamma, type FloatScanOrder } from './support/float-scan.js';
import { random, referenceScan } from './support/reference.js';

/** Random floats of mixed sign and magnitude (2^-8..2^8), no denormals: every addition rounds. */
function floats(n: number, seed: number): Float32Array {
  const next = random(seed);
  return Float32Array.from({ length: n }, () => (next() - 0.5) * 2 ** Math.floor(next() * 17 - 8));
}

const cases: Array<[string, number, FloatScanOrder & { blockSize?: number; components?: 1 | 4 }]> = [
  ['one block, inclusive', 1500, { algorithm: 'blelloch' }],
  ['one block, exclusive', 1500, { algorithm: 'blelloch', exclusive: true }],
  ['two levels, inclusive', 2 ** 17 + 123, { algorithm: 'blelloch' }],
  ['two levels, exclusive', 2 ** 17 + 123, { algorithm: 'blelloch', exclusive: true }],
  ['three levels (the totals\' totals scanned again), inclusive', 2 ** 22 + 5000, { algorithm: 'blelloch' }],
  ['4 components', 20_000, { algorithm: 'blelloch', components: 4 }],
  ['segmented, block 256', 30_000, { algorithm: 'blelloch', blockSize: 256 }],
  ['recursive doubling, radix 4', 2 ** 17 + 123, { algorithm: 'recursive-doubling', radix: 4 }],
  ['recursive doubling, radix 2, exclusive', 30_000, { algorithm: 'recursive-doubling', radix: 2, exclusive: true }],
];

describe('float32 scans add in the engine\'s documented order', () => {
  it.for(cases)('%s: bit-equal to the CPU replay of the tree, within the documented bound of the exact sum', async ([name, n, order], context: TestContext) => {
    const engine = await testEngine();
    const components = order.components ?? 1;
    const data = floats(n * components, n + components);
    const stream = engine.stream(data, { components });
    const scanned = engine.scan(stream, { algorithm: order.algorithm, radix: order.radix, exclusive: order.exclusive ?? false, blockSize: order.blockSize });
    const got = (await scanned.read()) as Float32Array;
    scanned.dispose();
    stream.dispose();

    const { maxTextureSize } = engine.caps;
    const expected = floatScanInEngineOrder(data, { ...order, components, maxTextureSize });
    expectSameBits(got, expected.values, name);

    // The error bound, checked element by element against the exact (float64) sums.
    const capacity = order.blockSize ?? layoutFor(n, maxTextureSize).capacity;
    const depthBound = 2 * Math.ceil(Math.log2(capacity)) + 1;
    const sequential = referenceScan(data, { exclusive: order.exclusive, blockSize: order.blockSize, components });
    let worstTree = 0;
    let worstSequential = 0;
    let differing = 0;
    let deepest = 0;
    for (let c = 0; c < components; c++) {
      let exact = 0;
      let magnitude = 0;
      for (let i = 0; i < n; i++) {
        const at = i * components + c;
        if (order.blockSize && i % order.blockSize === 0) exact = magnitude = 0;
        if (!order.exclusive) (exact += data[at]), (magnitude += Math.abs(data[at]));
        const depth = expected.depths[at];
        deepest = Math.max(deepest, depth);
        const error = Math.abs(got[at] - exact);
        if (error > gamma(depth) * magnitude) throw new Error(`${name}: element ${i}: error ${error} over the bound gamma(${depth}) * ${magnitude}`);
        if (magnitude > 0) {
          worstTree = Math.max(worstTree, error / magnitude);
          worstSequential = Math.max(worstSequential, Math.abs(sequential[at] - exact) / magnitude);
        }
        if (!Object.is(got[at], sequential[at])) differing++;
        if (order.exclusive) (exact += data[at]), (magnitude += Math.abs(data[at]));
      }
    }
    context.annotate(`${name}: differs from a sequential float32 sum at ${((100 * differing) / (n * components)).toFixed(1)} % of positions; ` +
      `max |error| / sum|x|: ${worstTree.toExponential(2)} (sequential ${worstSequential.toExponential(2)}); max depth ${deepest} (bound ${depthBound})`);
    if (order.algorithm === 'blelloch') expect(deepest).toBeLessThanOrEqual(depthBound);
    if (n > 2 ** 16 && order.algorithm === 'blelloch' && !order.blockSize) expect(differing / n).toBeGreaterThan(0.5);
  });
});

// Reduce-then-scan with lanes adds each group's entries one after another inside a fragment going up
// (groups of `lanes` entries: 32 one-component or 8 four-component entries with 8 draw buffers, half
// that with 4, 4 one-component entries with one), then two additions per level going down (the groups
// before, the element's own running sum); below LANES_SHAPE.aboveTexels, and for four-component
// entries on one attachment, it is the summing tree (TREE_SHAPE).
// Its exact order depends on the context's draw buffers, so it is not replayed here; instead each
// result must stay within the error bound of that many roundings: for lanes
//   depth <= sum over levels of (lanes + 2), plus 1
// and |gpu - exact| <= gamma(depth) * sum |x_j| for every element. And it is deterministic: the
// same input gives the same bits run after run.
const treeCases: Array<[string, number, { exclusive?: boolean; blockSize?: number; components?: 1 | 4 }]> = [
  ['one row, inclusive', 1500, {}],
  ['one row, exclusive', 1500, { exclusive: true }],
  ['two levels, inclusive', 2 ** 17 + 123, {}],
  ['two levels, exclusive', 2 ** 17 + 123, { exclusive: true }],
  ['more levels, inclusive', 2 ** 21 + 5000, {}],
  ['4 components', 20_000, { components: 4 }],
  ['segmented, block 16', 30_000, { blockSize: 16 }],
  ['segmented, block 256', 30_000, { blockSize: 256 }],
  ['segmented, block 2048, exclusive', 30_000, { blockSize: 2048, exclusive: true }],
];

function treeDepthBound(entries: number, texels: number, drawBuffers: 1 | 4 | 8, components: 1 | 4): number {
  // The form reduce-then-scan.ts#reduceThenScan takes, by the whole texture's texels (a segmented scan
  // too): lanes above LANES_SHAPE.aboveTexels where every level's group holds two lanes or more (not
  // four-component entries on one attachment). `entries`: what one scan adds up (a segment).
  const lanesForm = texels > LANES_SHAPE.aboveTexels && drawBuffers >= LANES_SHAPE.minDrawBuffers && [0, 1].every((level) => levelShape(level, drawBuffers, components).lanes > 1);
  if (!lanesForm) {
    // The summing tree: bottomFanIn, then fanIn per level up, the top, as many down.
    const { bottomFanIn, fanIn, topEntries } = TREE_SHAPE;
    const levels = Math.max(0, Math.ceil(Math.log(entries / bottomFanIn) / Math.log(fanIn)));
    return 2 * (bottomFanIn + fanIn * levels) + topEntries;
  }
  // Lanes: each level adds up to its group's lanes going up and two terms going down.
  let depth = 1;
  for (let level = 0, count = entries; ; level++) {
    const { lanes } = levelShape(level, drawBuffers, components);
    depth += lanes + 2;
    if (count <= lanes) return depth;
    count = Math.ceil(count / lanes);
  }
}

describe('float32 reduce-then-scan: within the error bound of its tree, deterministic', () => {
  it.for(treeCases)('%s', async ([name, n, options], context: TestContext) => {
    const engine = await testEngine();
    const components = options.components ?? 1;
    const exclusive = options.exclusive ?? false;
    const data = floats(n * components, n + components + 1);
    const stream = engine.stream(data, { components });
    const scanOptions = { algorithm: 'reduce-then-scan', exclusive, blockSize: options.blockSize } as const;
    const first = engine.scan(stream, scanOptions);
    const got = (await first.read()) as Float32Array;
    first.dispose();
    const again = engine.scan(stream, scanOptions);
    expectSameBits((await again.read()) as Float32Array, got, `${name}: run to run`);
    again.dispose();
    stream.dispose();

    const texels = layoutFor(n, engine.caps.maxTextureSize).capacity;
    const depth = treeDepthBound(options.blockSize ?? texels, texels, engine.caps.drawBuffers, components);
    const sequential = referenceScan(data, { exclusive, blockSize: options.blockSize, components });
    let worst = 0;
    let worstSequential = 0;
    let differing = 0;
    for (let c = 0; c < components; c++) {
      let exact = 0;
      let magnitude = 0;
      for (let i = 0; i < n; i++) {
        const at = i * components + c;
        if (options.blockSize && i % options.blockSize === 0) exact = magnitude = 0;
        if (!exclusive) (exact += data[at]), (magnitude += Math.abs(data[at]));
        const error = Math.abs(got[at] - exact);
        if (!(error <= gamma(depth) * magnitude)) throw new Error(`${name}: element ${i}, component ${c}: got ${got[at]}, exact ${exact}: error ${error} over the bound gamma(${depth}) * ${magnitude}`);
        if (magnitude > 0) {
          worst = Math.max(worst, error / magnitude);
          worstSequential = Math.max(worstSequential, Math.abs(sequential[at] - exact) / magnitude);
        }
        if (!Object.is(got[at], sequential[at])) differing++;
        if (exclusive) (exact += data[at]), (magnitude += Math.abs(data[at]));
      }
    }
    context.annotate(`${name}: max |error| / sum|x| ${worst.toExponential(2)} (sequential float32 sum ${worstSequential.toExponential(2)}; bound gamma(${depth}) = ${gamma(depth).toExponential(2)}); ` +
      `differs from the sequential sum at ${((100 * differing) / (n * components)).toFixed(1)} % of positions`);
  });
});
