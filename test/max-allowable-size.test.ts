// MAS (paper Eq. 1) fused into the last pass of every block scan (the paper's two and
// reduce-then-scan, MAX_ALLOWABLE_SIZE in its last down pass): MAS[i] = b - pSumInvalid[i] per
// block, bit 31 set where the element is kept; MAS[b-1] is the block's kept count.
// Reduce-then-scan's tree changes shape with the block size (where a segment fits one group), so it
// runs every block size the compaction accepts.
import { describe, expect, it } from 'vitest';
import { readBits } from '../src/adapter.js';
import type { Engine } from '../src/index.js';
import { blellochBlockScan } from '../src/scan/blelloch.js';
import { COUNT_FORMAT, gpuOf } from '../src/internal.js';
import { hillisSteeleBlockScan } from '../src/scan/hillis-steele.js';
import { reduceThenScanBlockScan } from '../src/scan/reduce-then-scan.js';
import { expectSameBits, testEngine } from './support/engine.js';
import { referenceMaxAllowableSize } from './support/reference.js';
import { randomKept } from './support/streams.js';


const everyBlockSize = [16, 32, 64, 128, 256, 512, 1024, 2048];

describe.each([
  ['recursive-doubling', hillisSteeleBlockScan, [16, 256, 2048]],
  ['blelloch', blellochBlockScan, [16, 256, 2048]],
  ['reduce-then-scan', reduceThenScanBlockScan, everyBlockSize],
] as const)('%s MAS', (_name, blockScan, blockSizes) => {
  it.each(blockSizes)('block %i, including padding past the stream end', async (blockSize) => {
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
