// Compaction in blocks (DESIGN.md "The pipeline"; paper Sec. 3-5):
//   keep flags -> per-block scan with MAS -> block counts -> scan of counts
//   -> concatenation lines, whose fragments run the per-block search -> output + count.
// The three block algorithms differ only in that search (glsl/block-search.glsl).
import blockTotals from '../../glsl/block-totals.frag';
import { copyTexel } from '../copy-texel.js';
import { globalScan } from '../scan/global-scan.js';
import { hillisSteeleBlockScan } from '../scan/hillis-steele.js';
import { COUNT_FORMAT } from '../texel-format.js';
import { concatenateBlocks } from './concatenate.js';
import { keepFlagsPass, keepFlagsProgram } from './keep-flags.js';
import type { CompactionDriver } from './plan.js';

/** The per-block search: Jumping Jack (any order), Horn (input order), or per block either ('hybrid'). */
export type BlockSearch = 'jumping-jack' | 'horn' | 'hybrid';

export function blockCompaction(search: BlockSearch): CompactionDriver {
  return (gpu, stream, plan) => {
    const keepProgram = keepFlagsProgram(gpu, stream, plan.keep, 'not-kept');
    return gpu.scope((scope) => {
      const { layout } = stream;
      const { blockLog2 } = plan;
      const invalid = scope.target(layout.width, layout.height);
      keepFlagsPass(gpu, stream, plan.keep, keepProgram, invalid);

      const flagsInput = { texture: invalid.texture, width: layout.width, height: layout.height, format: COUNT_FORMAT };
      const maxAllowableSize = scope.own(plan.blockScan(gpu, flagsInput, {
        blockLog2,
        floatValues: false,
        exclusive: false,
        maxAllowableSize: true,
        radix: plan.radix,
      }));

      const blockCount = layout.capacity >> blockLog2;
      const countsWidth = layout.width >> blockLog2;
      const blockCounts = scope.target(countsWidth, layout.height);
      gpu.pass(gpu.program({ name: 'block-totals.frag', fragment: blockTotals, defines: { MASK_KEPT_BIT: true } }), blockCounts, {
        u_blockScan: maxAllowableSize.texture,
        u_blockLog2: blockLog2,
        u_inputWidthLog2: layout.widthLog2,
        u_outputWidthLog2: layout.widthLog2 - blockLog2,
        u_blockCount: blockCount,
      });
      // The counts are few (one per block), so passes, not fragments, dominate their scan: recursive
      // doubling with radix 4 needs the fewest (H200: faster than Blelloch below 2^20 elements).
      const blockKeptPrefix = scope.own(globalScan(gpu, { texture: blockCounts.texture, width: countsWidth, height: layout.height, format: COUNT_FORMAT }, {
        blockScan: hillisSteeleBlockScan,
        floatValues: false,
        exclusive: false,
        maxTextureSize: plan.maxTextureSize,
        radix: 4,
      }));
      const count = scope.own(copyTexel(gpu, blockKeptPrefix, blockCount - 1, layout.widthLog2 - blockLog2));

      const output = scope.target(layout.width, layout.height, plan.outputIndices ? COUNT_FORMAT : stream.format);
      concatenateBlocks(gpu, plan.concat, {
        blockCounts,
        blockKeptPrefix,
        blockLog2,
        blockCount,
        search: {
          defines: {
            OUTPUT_INDICES: plan.outputIndices,
            BLOCK_SIZE: 2 ** blockLog2,
            BLOCK_LOG2: blockLog2,
            JUMPING_JACK: search === 'jumping-jack',
            HORN: search === 'horn',
          },
          uniforms: {
            u_maxAllowableSize: maxAllowableSize.texture,
            u_values: stream.target.texture,
            u_widthLog2: layout.widthLog2,
            ...(search === 'hybrid' ? { u_jumpingJackFrom: plan.jumpingJackKept.from, u_jumpingJackTo: plan.jumpingJackKept.to } : {}),
          },
        },
      }, output, count);
      return { output: scope.keep(output), count: scope.keep(count) };
    });
  };
}
