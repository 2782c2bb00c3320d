// Counts and scans stay exact past 2^24 elements and past 2^24 kept elements, where float32
// counting (the paper's float textures) would already be wrong; every result is compared whole
// (Jumping Jack's, which does not keep order, sorted). Node-only to keep the Chromium (SwiftShader) run
// short; the code path is the same.
//
// Past 2^24 elements a stream needs textures wider than 4096, the engine's default limit (README
// "Device limits"): the engine here opts in with createEngine(gl, { maxTextureSize: 8192 }), which
// the context must allow. Under the phone profile (4096) no stream past 2^24 fits: skipped.
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { expectSameBits, testContext } from './support/engine.js';

const contextMaxTextureSize = async () => {
  const { gl } = await testContext();
  return gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
};
const fits = (await contextMaxTextureSize()) >= 8192;

let large: Engine | undefined;
/** One engine for the file, opted in to 8192-texel textures (an 8192 × 2176 stream here). */
async function testEngine(): Promise<Engine> {
  large ??= createEngine((await testContext()).gl, { maxTextureSize: 8192 });
  return large;
}
afterAll(() => large?.dispose());

describe.skipIf(!fits)('exact past 2^24 (needs MAX_TEXTURE_SIZE >= 8192: skipped under the phone profile)', () => {
  const n = 2 ** 24 + 2 ** 20 + 3; // 17.8 M elements
  it('counts more than 2^24 kept elements exactly, every algorithm', async () => {
    const engine = await testEngine();
    expect(engine.caps.maxTextureSize).toBe(8192);
    // every 64th element dropped: 17,580,811 kept
    const data = Uint32Array.from({ length: n }, (_, i) => (i % 64 === 5 ? 0 : i + 1));
    const expectedCount = n - Math.floor((n - 6) / 64) - 1;
    expect(expectedCount).toBeGreaterThan(2 ** 24);
    const stream = engine.stream(data);
    const expected = new Uint32Array(expectedCount);
    for (let i = 0, k = 0; i < n; i++) if (data[i] !== 0) expected[k++] = i;
    for (const algorithm of ['jumping-jack', 'horn', 'histopyramid', 'bitmask'] as const) {
      const result = engine.compact(stream, { keep: 'nonzero', algorithm, output: 'indices' });
      expect(await result.count(), algorithm).toBe(expectedCount);
      // every index, against the CPU: counts, scans and searches all past 2^24 (float indices would
      // have collapsed there)
      const indices = (await result.read()) as Uint32Array;
      expectSameBits(algorithm === 'jumping-jack' ? indices.sort() : indices, expected, algorithm);
      result.dispose();
    }
    stream.dispose();
  });

  it('a global scan of 2^24 + 2^20 + 3 ones ends at exactly n', async () => {
    const engine = await testEngine();
    const stream = engine.stream(new Uint32Array(n).fill(1));
    for (const algorithm of ['recursive-doubling', 'blelloch', 'reduce-then-scan'] as const) {
      const scanned = engine.scan(stream, { algorithm });
      const got = (await scanned.read()) as Uint32Array;
      expect(got.length, algorithm).toBe(n);
      // every element (block sums and their prefixes pass 2^24 on the way)
      let wrong = 0;
      while (wrong < n && got[wrong] === wrong + 1) wrong++;
      expect(wrong === n ? 'all n right' : `first wrong at ${wrong}: ${got[wrong]}`, algorithm).toBe('all n right');
      scanned.dispose();
    }
    stream.dispose();
  });
  it('reduce and sort past 2^24: a sum of n ones is n, the max index n - 1; a stable sort moves every index to its place', async () => {
    const engine = await testEngine();
    const ones = engine.stream(new Uint32Array(n).fill(1));
    expect(Array.from(await engine.reduce(ones, { op: 'sum' }).read())).toEqual([n]);
    ones.dispose();
    const positions = engine.stream(Uint32Array.from({ length: n }, (_, i) => i));
    expect(Array.from(await engine.reduce(positions, { op: 'max' }).read())).toEqual([n - 1]);
    // 4-bit keys (2 digits keep the run short on llvmpipe); positions past 2^24 in every bucket
    const keys = Uint32Array.from({ length: n }, (_, i) => Math.imul(i, 2654435761) >>> 28);
    const keyStream = engine.stream(keys);
    const sorted = engine.sort(keyStream, { values: positions, bits: 4 });
    const starts = new Uint32Array(17);
    for (const k of keys) starts[k + 1]!++;
    for (let d = 1; d <= 16; d++) starts[d]! += starts[d - 1]!;
    const expected = new Uint32Array(n);
    for (let i = 0; i < n; i++) expected[starts[keys[i]!]!++] = i;
    expectSameBits((await sorted.values!.read()) as Uint32Array, expected, 'sorted positions');
    expectSameBits((await sorted.keys.read()) as Uint32Array, Uint32Array.from(expected, (i) => keys[i]!), 'sorted keys');
    sorted.dispose();
    keyStream.dispose();
    positions.dispose();
  });
});
