// Device limits at full size (README "Device limits"; the small cases run in both projects, in
// test/device-limits.test.ts). Node-only: streams of 4–17 M elements are too slow for SwiftShader,
// and the code paths are the same.
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { expectEveryPathExact, limitTestData, recordTextureSizes } from './support/device-limits.js';
import { expectSameBits, testContext } from './support/engine.js';
import { referenceScan } from './support/reference.js';

/** Runs `body` on a new engine (disposed after), with every texture allocation recorded. */
async function withEngine(options: Parameters<typeof createEngine>[1], body: (engine: Engine, sides: { largest(): number; widest(): number }) => Promise<void>): Promise<void> {
  const { gl } = await testContext();
  const sizes = recordTextureSizes(gl);
  const engine = createEngine(gl, { texturePoolBytes: 256 * 2 ** 20, ...options });
  try {
    await body(engine, { largest: sizes.largest, widest: () => sizes.allocations.reduce((most, { sides }) => Math.max(most, sides[0]), 0) });
  } finally {
    engine.dispose();
    sizes.restore();
  }
}

const { gl } = await testContext();
const contextLimit = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;

describe('the default limit at full size', () => {
  it('a stream of exactly 4096² elements: a 4096 × 4096 layout, every path exact, no texture side above 4096', async () => {
    await withEngine(undefined, async (engine, sides) => {
      expect(engine.caps.maxTextureSize).toBe(4096);
      const n = 4096 * 4096;
      const probe = engine.stream(new Uint32Array(n));
      expect(probe.layout).toMatchObject({ width: 4096, height: 4096, capacity: n });
      probe.dispose();
      await expectEveryPathExact(engine, limitTestData(n), '4096² elements', 'few');
      expect(sides.largest()).toBe(4096);
    });
  });
});

describe.skipIf(contextLimit < 8192)(`maxTextureSize 8192 (needs the context's MAX_TEXTURE_SIZE >= 8192; here ${contextLimit}: skipped under the phone profile)`, () => {
  it('a stream of 4096² + 1 elements is 8192 wide; compaction and scan exact', async () => {
    await withEngine({ maxTextureSize: 8192 }, async (engine, sides) => {
      const n = 4096 * 4096 + 1;
      const data = limitTestData(n);
      const stream = engine.stream(data);
      expect(stream.layout).toMatchObject({ width: 8192, height: 2049 });
      const kept = engine.compact(stream, { keep: { lessEqual: 499 }, output: 'indices' });
      const expected: number[] = [];
      for (let i = 0; i < n; i++) if (data[i] <= 499) expected.push(i);
      expect(await kept.count()).toBe(expected.length);
      expectSameBits((await kept.read()) as Uint32Array, Uint32Array.from(expected), 'kept indices');
      kept.dispose();
      const sums = engine.scan(stream);
      expectSameBits((await sums.read()) as Uint32Array, referenceScan(data), 'scan');
      sums.dispose();
      stream.dispose();
      expect(sides.widest()).toBe(8192);
      expect(sides.largest()).toBeLessThanOrEqual(8192);
    });
  });
});

describe('a limit that is not a power of two, at full height', () => {
  it('maxTextureSize 3000: 2048 × 2049 + 5 elements take 2050 rows of 2048; every path exact, no side above 3000', async () => {
    await withEngine({ maxTextureSize: 3000 }, async (engine, sides) => {
      const n = 2048 * 2049 + 5;
      const probe = engine.stream(new Uint32Array(n));
      expect(probe.layout).toMatchObject({ width: 2048, height: 2050 });
      probe.dispose();
      await expectEveryPathExact(engine, limitTestData(n), 'limit 3000', 'few');
      expect(sides.largest()).toBeLessThanOrEqual(3000);
      expect(sides.largest()).toBeGreaterThan(2048);
    });
  });
});
