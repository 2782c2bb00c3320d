// engine.sort(): a stable LSD radix sort on exact integer textures. Per 2-bit digit, from the
// lowest: each block of SORT_BLOCK elements counts its digits (glsl/radix-block-histogram.frag), one
// 4-component inclusive scan of those counts gives every block its start in each digit's bucket (and
// each bucket's total at the last block), and a scatter draws one point per element at its new
// position (glsl/radix-scatter.vert: its rank within its block is counted there), for the keys and
// again for the values. No float mipmaps, no blending: counts are uint32 scans.
import radixBlockHistogram from '../glsl/radix-block-histogram.frag';
import radixScatterFragment from '../glsl/radix-scatter.frag';
import radixScatterVertex from '../glsl/radix-scatter.vert';
import zeroFill from '../glsl/zero-fill.frag';
import type { Gpu } from './gpu.js';
import { compactLayoutFor, type Layout } from './layout.js';
import type { RenderTarget } from './render-target.js';
import { defaultScan, scanAlgorithms, type ScanAlgorithmEntry } from './scan/algorithms.js';
import { globalScan } from './scan/global-scan.js';
import type { StreamView } from './stream.js';
import { texelFormats } from './texel-format.js';

/** Bits per digit: 4 buckets, one RGBA32UI texel of counts per block, one scan per digit. */
export const SORT_DIGIT_BITS = 2;
/**
 * Elements per block (log2): the scan runs over 1/16 of the elements; each element's vertex counts
 * its block's 16 digits itself (cached fetches from one row).
 */
export const SORT_BLOCK_LOG2 = 4;

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
  // One entry per block, in rows of up to 2048 (the scans' groups must lie within a row).
  const blocks = compactLayoutFor(capacity >> SORT_BLOCK_LOG2, maxTextureSize);
  const scatter = gpu.lookUp({ name: 'radix-scatter.vert', vertex: radixScatterVertex, fragment: radixScatterFragment, defines: common });
  const zero = gpu.program({ name: 'zero-fill.frag', fragment: zeroFill });
  const scanEntry = scanAlgorithms[defaultScan(undefined, blocks.capacity)] as ScanAlgorithmEntry;
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
      const last = digit === digits - 1;
      const keyTexture = current?.keys.texture ?? keys.target.texture;
      const valueTexture = current ? current.values?.texture : values?.target.texture;
      const next = gpu.scope((scope) => {
        const ranks = scope.own(blockRanks(gpu, histogramProgram, scanEntry, keyTexture, { blocks, widthLog2, shift, length, maxTextureSize }));
        const move = (source: WebGLTexture, view: StreamView): RenderTarget => {
          const output = scope.target(width, height, view.format);
          // Only the last digit's padding is ever read (as the result's zeros).
          if (last) gpu.pass(zero, output, {});
          gpu.draw({
            program: scatter,
            target: output,
            primitive: 'points',
            count: capacity,
            uniforms: { u_keys: keyTexture, u_source: source, u_blockRanks: ranks.texture, u_blocksWidthLog2: blocks.widthLog2, u_widthLog2: widthLog2, u_heightTexels: height, u_lastBlock: blocks.capacity - 1, u_shift: shift, ...length },
          });
          return output;
        };
        const movedKeys = move(keyTexture, keys);
        const movedValues = values && valueTexture ? move(valueTexture, values) : undefined;
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
