// MAS (paper Eq. 1) fused into the last pass of both block scans: MAS[i] = b - pSumInvalid[i]
// per block, bit 31 set where the element is kept; MAS[b-1] is the block's kept count.
import { describe, expect, it } from 'vitest';
import { readBits } from '../src/adapter.js';
import type { Engine } from '../src/index.js';
import { blellochBlockScan } from '../src/scan/blelloch.js';
import { COUNT_FORMAT, gpuOf } from '../src/internal.js';
import { hillisSteeleBlockScan } from '../src/scan/hillis-steele.js';
import { expectSameBits, testEngine } from './support/engine.js';
import { referenceMaxAllowableSize } from './support/reference.js';
import { randomKept } from './support/streams.js';


describe.each([
  ['recursive-doubling', hillisSteeleBlockScan],
  ['blelloch', blellochBlockScan],
] as const)('%s MAS', (_name, blockScan) => {
  it.each([16, 256, 2048])('block %i, including padding past the stream end', async (blockSize) => {
    const engine: Engine = await testEngine();
    const gpu = gpuOf(engine);
    const n = 2048 * 5 + 123;
    const kept = randomKept(n, 0.37, blockSize);
    const invalidFlags = engine.stream(Uint32Array.from(kept, (k) => (k ? 0 : 1)));
    // padding texels must count as invalid: the keep-flags pass writes 1 there
    const { layout } = invalidFlags;
    const padded = new Uint32Array(layout.capacity).fill(1);
    padded.set(Uint32Array.from(kept, (k) => (k ? 0 : 1)));
    const flags = engine.stream(padded);
    const mas = blockScan(gpu, { texture: flags.texture, width: layout.width, height: layout.height, format: COUNT_FORMAT }, {
      blockLog2: Math.log2(blockSize),
      floatValues: false,
      exclusive: false,
      maxAllowableSize: true,
    });
    const got = readBits(gpu, mas, layout.capacity, engine.caps.readPixelsRaisesError);
    expectSameBits(got, referenceMaxAllowableSize(kept, blockSize, layout.capacity));
    // MAS[b-1] & ~bit31 = the block's kept count
    const firstBlockKept = kept.slice(0, blockSize).filter(Boolean).length;
    expect(got[blockSize - 1] & 0x7fffffff).toBe(firstBlockKept);
    mas.free();
    flags.dispose();
    invalidFlags.dispose();
  });
});
