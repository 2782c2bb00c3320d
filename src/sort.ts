// engine.sort(): a stable LSD radix sort on exact integer textures. Per 2-bit digit, from the
// lowest: each block of SORT_BLOCK elements counts its digits (glsl/radix-block-histogram.frag), one
// 4-component inclusive scan of those counts gives every block its end in each digit's bucket (and
// each bucket's total at the last block), a directory notes the block of every 2^SORT_DIRECTORY.shift-th
// output (glsl/radix-directory.frag: a binary search over the blocks each), each block lists its
// elements' offsets by digit (glsl/radix-block-order.frag), then every output position finds the
// element that moves there (glsl/radix-search.frag: a gallop from its directory entry to the block,
// then one fetch of its listing) and two gathers move the keys and the values. No float mipmaps, no blending: counts are uint32 scans.
// Scattering instead (one point per element, drawn at its new position) measured ~0.6 G points/s
// on an H100 whatever the shaders did (bench/scatter-probe.ts): 1.7 ms per digit and stream at 2^20.
import radixBlockHistogram from '../glsl/radix-block-histogram.frag';
import radixBlockOrder from '../glsl/radix-block-order.frag';
import radixDirectory from '../glsl/radix-directory.frag';
import radixSearch from '../glsl/radix-search.frag';
import { gather } from './gather.js';
import type { Gpu } from './gpu.js';
import { compactLayoutFor, type Layout } from './layout.js';
import type { RenderTarget } from './render-target.js';
import { defaultScan, scanAlgorithms, type ScanAlgorithmEntry } from './scan/algorithms.js';
import { globalScan } from './scan/global-scan.js';
import type { StreamView } from './stream.js';
import { COUNT_FORMAT, texelFormats } from './texel-format.js';

/** Bits per digit: 4 buckets, one RGBA32UI texel of counts per block, one scan per digit. */
export const SORT_DIGIT_BITS = 2;
/**
 * Elements per block (log2): the scan runs over 1/16 of the elements; the search walks one block's
 * 16 keys (cached fetches from one row) to find an element within it.
 */
export const SORT_BLOCK_LOG2 = 4;
/**
 * For streams of at least `fromElements` texels, one directory entry per 2^shift outputs (a binary
 * search over all blocks each) from which the search pass gallops, and each block's listing of its
 * offsets by digit (glsl/radix-block-order.frag); smaller ones search all blocks and read the block's
 * keys, two passes fewer per digit. H100 egl, uint32 keys + values
 * (bench/results/issue-22/sort-probe-h100-egl-*.json): the directory alone took 2^20 from 39.5 to 26.3
 * ms and 2^22 from 156 to 102 with shift 3 (4: 26.8 / 105, 5: 28.4 / 111), the listings then to 20.0
 * and 77; at 2^16 the extra passes cost more than they saved. Tunable (bench/sort-probe.ts --shifts).
 */
export const SORT_DIRECTORY = { shift: 3, fromElements: 2 ** 18 };

export interface SortPlan {
  descending: boolean;
  /** Low key bits compared (32, or fewer for uint32 keys known to fit). */
  bits: number;
}

/** The sorted keys and, when given, the values moved with them, in the keys' layout. */
export function radixSort(gpu: Gpu, keys: StreamView, values: StreamView | undefined, plan: SortPlan, maxTextureSize: number): { keys: RenderTarget; values: RenderTarget | undefined } {
  const { width, height, widthLog2, capacity } = keys.layout;
  const common = {
    FLOAT_VALUES: keys.type === 'float32',
    INT_VALUES: keys.type === 'int32',
    DESCENDING: plan.descending,
    LENGTH_FROM_TEXTURE: keys.length === undefined,
    SORT_BLOCK_LOG2,
  };
  const length = keys.length === undefined ? { u_lengthTexture: keys.lengthTarget!.texture } : { u_length: keys.length };
  const histogramProgram = gpu.program({ name: 'radix-block-histogram.frag', fragment: radixBlockHistogram, defines: common });
  // Large streams: a directory and each block's listing (SORT_DIRECTORY), both or neither.
  const large = capacity >= SORT_DIRECTORY.fromElements;
  const directoryShift = SORT_DIRECTORY.shift;
  const orderProgram = large ? gpu.program({ name: 'radix-block-order.frag', fragment: radixBlockOrder, defines: common }) : undefined;
  const directoryProgram = large ? gpu.program({ name: 'radix-directory.frag', fragment: radixDirectory, defines: { ...common, DIRECTORY_SHIFT: directoryShift } }) : undefined;
  const searchProgram = gpu.program({ name: 'radix-search.frag', fragment: radixSearch, defines: { ...common, DIRECTORY: large, BLOCK_ORDER: large, DIRECTORY_SHIFT: directoryShift } });
  const directory = compactLayoutFor(Math.ceil(capacity / 2 ** directoryShift), maxTextureSize);
  // One entry per block, in rows of up to 2048 (the scans' groups must lie within a row).
  const blocks = compactLayoutFor(capacity >> SORT_BLOCK_LOG2, maxTextureSize);
  const scanEntry = scanAlgorithms[defaultScan(undefined, blocks.capacity, gpu.drawBuffers)] as ScanAlgorithmEntry;
  const digits = Math.ceil(plan.bits / SORT_DIGIT_BITS);
  // Each digit's outputs outlive its scope (they are the next digit's input) and are freed once the
  // next digit has been moved; a failure frees whatever is held.
  let current: { keys: RenderTarget; values: RenderTarget | undefined } | undefined;
  const release = (held: typeof current) => {
    held?.keys.free();
    held?.values?.free();
  };
  try {
    for (let digit = 0; digit < digits; digit++) {
      const shift = digit * SORT_DIGIT_BITS;
      const keyView: StreamView = current ? { ...keys, target: current.keys } : keys;
      const valueView: StreamView | undefined = values && (current ? { ...values, target: current.values! } : values);
      const next = gpu.scope((scope) => {
        const ranks = scope.own(blockRanks(gpu, histogramProgram, scanEntry, keyView.target.texture, { blocks, widthLog2, shift, length, maxTextureSize }));
        // Where each output comes from (a position in the current order), then the moves.
        const rankUniforms = { u_blockRanks: ranks.texture, u_blocksWidthLog2: blocks.widthLog2, u_blocks: blocks.capacity, ...length };
        // Small streams: the search reads the block's keys itself.
        let findUniforms: Record<string, unknown> = { u_keys: keyView.target.texture, u_shift: shift };
        if (directoryProgram && orderProgram) {
          const entries = scope.target(directory.width, directory.height, COUNT_FORMAT);
          gpu.pass(directoryProgram, entries, { ...rankUniforms, u_directoryWidthLog2: directory.widthLog2 });
          const order = scope.target(blocks.width, blocks.height, texelFormats.rgba32ui);
          gpu.pass(orderProgram, order, { u_keys: keyView.target.texture, u_widthLog2: widthLog2, u_blocksWidthLog2: blocks.widthLog2, u_shift: shift, ...length });
          findUniforms = { u_directory: entries.texture, u_directoryWidthLog2: directory.widthLog2, u_blockOrder: order.texture };
        }
        const from = scope.target(width, height, COUNT_FORMAT);
        gpu.pass(searchProgram, from, {
          ...rankUniforms,
          ...findUniforms,
          u_widthLog2: widthLog2,
        });
        const indices: StreamView = { ...keys, target: from, type: 'uint32', format: COUNT_FORMAT };
        const movedKeys = scope.own(gather(gpu, keyView, indices));
        const movedValues = valueView ? scope.own(gather(gpu, valueView, indices)) : undefined;
        return { keys: scope.keep(movedKeys), values: movedValues ? scope.keep(movedValues) : undefined };
      });
      release(current);
      current = next;
    }
  } catch (error) {
    release(current);
    throw error;
  }
  return current!;
}

/** One digit's counts per block, scanned (inclusive): each block's end in every digit's bucket; totals at the last block. */
function blockRanks(
  gpu: Gpu,
  histogramProgram: ReturnType<Gpu['program']>,
  scanEntry: ScanAlgorithmEntry,
  keys: WebGLTexture,
  at: { blocks: Layout; widthLog2: number; shift: number; length: Record<string, unknown>; maxTextureSize: number },
): RenderTarget {
  return gpu.scope((scope) => {
    const counts = scope.target(at.blocks.width, at.blocks.height, texelFormats.rgba32ui);
    gpu.pass(histogramProgram, counts, { u_keys: keys, u_widthLog2: at.widthLog2, u_blocksWidthLog2: at.blocks.widthLog2, u_shift: at.shift, ...at.length });
    const input = { texture: counts.texture, width: at.blocks.width, height: at.blocks.height, format: texelFormats.rgba32ui };
    const options = { floatValues: false, exclusive: false, radix: 4 };
    return scanEntry.wholeStream
      ? scanEntry.wholeStream(gpu, input, options)
      : globalScan(gpu, input, { ...options, blockScan: scanEntry.blockScan, maxTextureSize: at.maxTextureSize });
  });
}
