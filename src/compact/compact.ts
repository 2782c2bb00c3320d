// One compaction, start to end (DESIGN.md "The pipeline"):
//   keep flags -> per-block scan with MAS -> per-block compaction (Jumping Jack or Horn)
//   -> block counts -> scan of counts -> concatenation lines -> output + count
// or, for Horn over the whole stream: keep flags -> global scan -> binary search -> output + count.
import blockTotals from '../../glsl/block-totals.frag';
import hornGlobalSearch from '../../glsl/horn-global-search.frag';
import keepFlags from '../../glsl/keep-flags.frag';
import type { Gpu } from '../gpu.js';
import type { RenderTarget, TexelFormat } from '../render-target.js';
import type { BlockScan } from '../scan/block-scan.js';
import { globalScan } from '../scan/global-scan.js';
import { hillisSteeleBlockScan } from '../scan/hillis-steele.js';
import type { Stream } from '../stream.js';
import { concatenateBlocks, type ConcatMode } from './concatenate.js';
import { describeUserCompileError, insertKeepFunction, type KeepFunction } from './keep-function.js';
import { ShaderCompileError, withDefines } from '../programs.js';
import { copyTexel } from '../copy-texel.js';

/**
 * The per-block search, or Horn over the whole stream. 'hybrid' picks per block: Jumping Jack in
 * blocks whose kept count lies in `jumpingJackKept`, Horn in the others.
 */
export type CompactionAlgorithm = 'jumping-jack' | 'horn' | 'hybrid' | 'horn-global';

export interface CompactionPlan {
  algorithm: CompactionAlgorithm;
  blockLog2: number;
  blockScan: BlockScan;
  concat: ConcatMode | 'none';
  outputIndices: boolean;
  keep: KeepFunction;
  maxTextureSize: number;
  /** For 'hybrid': blocks keeping from..to elements (inclusive) use Jumping Jack, the others Horn. */
  jumpingJackKept: { from: number; to: number };
  /** Recursive doubling's radix for every scan of the compaction. */
  radix: number;
}

export interface CompactionOutput {
  output: RenderTarget;
  /** 1×1 texture holding the kept count. */
  count: RenderTarget;
}

function streamDefines(stream: Stream) {
  return {
    COMPONENTS: stream.components,
    FLOAT_VALUES: stream.type === 'float32',
    INT_VALUES: stream.type === 'int32',
  };
}

/**
 * The discriminator program: 1 for elements that are not kept (and for padding), 0 for kept ones;
 * or the reverse (keptIsOne). Compiled before the compaction takes any target, so a user snippet
 * that fails to compile leaves nothing behind (not even an idle texture in the pool).
 */
function keepFlagsProgram(gpu: Gpu, stream: Stream, keep: KeepFunction, keptIsOne: boolean) {
  const defines = {
    ...streamDefines(stream),
    LENGTH_FROM_TEXTURE: stream.lengthIfKnown === undefined,
    KEPT_FLAGS: keptIsOne,
  };
  const fragment = insertKeepFunction(keepFlags, keep);
  try {
    return gpu.program({ name: 'keep-flags.frag', fragment, defines });
  } catch (error) {
    if (error instanceof ShaderCompileError && keep.userBody !== undefined) {
      throw new Error(describeUserCompileError(gpu.gl, withDefines(fragment, defines), keep.userBody) ?? error.message);
    }
    throw error;
  }
}

function keepFlagsPass(gpu: Gpu, stream: Stream, keep: KeepFunction, program: ReturnType<typeof keepFlagsProgram>, flags: RenderTarget): void {
  gpu.pass(program, flags, {
    ...keep.uniforms,
    u_values: stream.target.texture,
    u_widthLog2: stream.layout.widthLog2,
    u_length: stream.lengthIfKnown ?? 0,
    u_lengthTexture: stream.lengthTarget?.texture,
  });
}

export function compact(gpu: Gpu, stream: Stream, plan: CompactionPlan): CompactionOutput {
  const { layout } = stream;
  const owned: RenderTarget[] = [];
  const own = (target: RenderTarget) => (owned.push(target), target);
  const outputFormat: TexelFormat = plan.outputIndices ? 'r32ui' : stream.target.format;
  const outputDefines = { OUTPUT_INDICES: plan.outputIndices };
  const keepProgram = keepFlagsProgram(gpu, stream, plan.keep, plan.algorithm === 'horn-global');
  let output: RenderTarget | undefined;
  let count: RenderTarget | undefined;
  try {
    const flags = own(gpu.target(layout.width, layout.height));
    keepFlagsPass(gpu, stream, plan.keep, keepProgram, flags);

    if (plan.algorithm === 'horn-global') {
      // Horn 2005: binary search in the global inclusive scan of kept flags.
      const kept = flags;
      const keptPrefix = own(globalScan(gpu, { texture: kept.texture, width: layout.width, height: layout.height, format: 'r32ui' }, {
        blockScan: plan.blockScan,
        floatValues: false,
        exclusive: false,
        maxTextureSize: plan.maxTextureSize,
        radix: plan.radix,
      }));
      output = gpu.target(layout.width, layout.height, outputFormat);
      const searchSize = layout.capacity;
      gpu.pass(
        gpu.program({
          name: 'horn-global-search.frag',
          fragment: hornGlobalSearch,
          defines: { ...outputDefines, SEARCH_LOG2: Math.ceil(Math.log2(searchSize)) },
        }),
        output,
        { u_keptPrefix: keptPrefix.texture, u_searchSize: searchSize, u_values: stream.target.texture, u_widthLog2: layout.widthLog2 },
      );
      count = copyTexel(gpu, keptPrefix, layout.capacity - 1, layout.widthLog2);
      return { output, count };
    }

    const { blockLog2 } = plan;
    const masTarget = own(
      plan.blockScan(gpu, { texture: flags.texture, width: layout.width, height: layout.height, format: 'r32ui' }, {
        blockLog2,
        floatValues: false,
        exclusive: false,
        maxAllowableSize: true,
        radix: plan.radix,
      }),
    );

    const blockCount = layout.capacity >> blockLog2;
    const countsWidth = layout.width >> blockLog2;
    const blockCounts = own(gpu.target(countsWidth, layout.height));
    gpu.pass(gpu.program({ name: 'block-totals.frag', fragment: blockTotals, defines: { MASK_KEPT_BIT: true } }), blockCounts, {
      u_blockScan: masTarget.texture,
      u_blockLog2: blockLog2,
      u_inputWidthLog2: layout.widthLog2,
      u_outputWidthLog2: layout.widthLog2 - blockLog2,
      u_blockCount: blockCount,
    });
    // The counts are few (one per block), so passes, not fragments, dominate their scan: recursive
    // doubling with radix 4 needs the fewest (H200: faster than Blelloch below 2^20 elements).
    const blockKeptPrefix = own(
      globalScan(gpu, { texture: blockCounts.texture, width: countsWidth, height: layout.height, format: 'r32ui' }, {
        blockScan: hillisSteeleBlockScan,
        floatValues: false,
        exclusive: false,
        maxTextureSize: plan.maxTextureSize,
        radix: 4,
      }),
    );
    count = copyTexel(gpu, blockKeptPrefix, blockCount - 1, layout.widthLog2 - blockLog2);

    output = gpu.target(layout.width, layout.height, outputFormat);
    concatenateBlocks(gpu, plan.concat as ConcatMode, {
      blockCounts,
      blockKeptPrefix,
      blockLog2,
      blockCount,
      search: {
        defines: {
          ...outputDefines,
          BLOCK_SIZE: 2 ** blockLog2,
          BLOCK_LOG2: blockLog2,
          JUMPING_JACK: plan.algorithm === 'jumping-jack',
          HORN: plan.algorithm === 'horn',
        },
        uniforms: {
          u_maxAllowableSize: masTarget.texture,
          u_values: stream.target.texture,
          u_widthLog2: layout.widthLog2,
          u_jumpingJackFrom: plan.jumpingJackKept.from,
          u_jumpingJackTo: plan.jumpingJackKept.to,
        },
      },
    }, output);
    return { output, count };
  } catch (error) {
    output?.free();
    count?.free();
    throw error;
  } finally {
    for (const target of owned) target.free();
  }
}

