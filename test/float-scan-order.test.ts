// The float32 scan's summation order and accuracy, as the README documents them: the result is the
// engine's tree of float32 additions bit for bit (test/support/float-scan.ts replays it on the CPU),
// which is not a sequential float32 sum, and its error against the exact sum stays within
// gamma(depth) * sum |x_j| with depth <= 2 * ceil(log2 capacity) + 1 roundings.
import { describe, expect, it, type TestContext } from 'vitest';
import { layoutFor } from '../src/layout.js';
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
