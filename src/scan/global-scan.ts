// A scan over the whole stream, built from block scans (paper Fig. 4, segmented prefix sum):
// scan every block, gather each block's total into a smaller stream, scan that one the same way
// (recursively, until it fits in one block), then add each block's prefix to its elements.
import addBlockOffsets from '../../glsl/add-block-offsets.frag';
import blockTotals from '../../glsl/block-totals.frag';
import type { Gpu } from '../gpu.js';
import { compactLayoutFor, log2Exact, MAX_BLOCK_SIZE } from '../layout.js';
import type { RenderTarget } from '../render-target.js';
import type { BlockScan, BlockScanInput } from './block-scan.js';

export interface GlobalScanOptions {
  blockScan: BlockScan;
  floatValues: boolean;
  exclusive: boolean;
  maxTextureSize: number;
  /** Passed to the block scan (recursive doubling's radix). */
  radix?: number;
}

const maxBlockLog2 = log2Exact(MAX_BLOCK_SIZE);

/** Scans all width × height texels of `input` in row-major order; padding must hold zeros. */
export function globalScan(gpu: Gpu, input: BlockScanInput, options: GlobalScanOptions): RenderTarget {
  const widthLog2 = log2Exact(input.width);
  const blockLog2 = Math.min(widthLog2, maxBlockLog2);
  const { floatValues, exclusive, radix } = options;

  if (input.height === 1 && blockLog2 === widthLog2) {
    return options.blockScan(gpu, input, { blockLog2, floatValues, exclusive, radix });
  }

  return gpu.scope((scope) => {
    const blocks = scope.own(options.blockScan(gpu, input, { blockLog2, floatValues, exclusive: false, radix }));

    const blockCount = (input.width * input.height) >> blockLog2;
    const totalsLayout = compactLayoutFor(blockCount, options.maxTextureSize);
    const totals = scope.target(totalsLayout.width, totalsLayout.height, input.format);
    gpu.pass(gpu.program({ name: 'block-totals.frag', fragment: blockTotals }), totals, {
      u_blockScan: blocks.texture,
      u_blockLog2: blockLog2,
      u_inputWidthLog2: widthLog2,
      u_outputWidthLog2: totalsLayout.widthLog2,
      u_blockCount: blockCount,
    });

    const prefix = scope.own(globalScan(gpu, { ...input, texture: totals.texture, width: totals.width, height: totals.height }, {
      ...options,
      exclusive: true,
    }));

    const result = scope.target(input.width, input.height, input.format);
    const program = gpu.program({
      name: 'add-block-offsets.frag',
      fragment: addBlockOffsets,
      defines: { FLOAT_VALUES: floatValues, EXCLUSIVE: exclusive },
    });
    gpu.pass(program, result, {
      u_blockScan: blocks.texture,
      u_blockPrefix: prefix.texture,
      u_blockLog2: blockLog2,
      u_widthLog2: widthLog2,
      u_prefixWidthLog2: totalsLayout.widthLog2,
    });
    return scope.keep(result);
  });
}
