// engine.sort(): a stable LSD radix sort on exact integer textures. Per 2-bit digit, from the
// lowest: a one-hot texel of the digit (glsl/radix-digit-flags.frag), one 4-component inclusive scan
// of those (every element's rank within its digit's bucket, and each bucket's total at the end),
// and a scatter: one point per element drawn at its new position (glsl/radix-scatter.vert), for the
// keys and again for the values. No float mipmaps, no blending: counts are uint32 scans.
import radixDigitFlags from '../glsl/radix-digit-flags.frag';
import radixScatterFragment from '../glsl/radix-scatter.frag';
import radixScatterVertex from '../glsl/radix-scatter.vert';
import zeroFill from '../glsl/zero-fill.frag';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import { defaultScan, scanAlgorithms, type ScanAlgorithmEntry } from './scan/algorithms.js';
import { globalScan } from './scan/global-scan.js';
import type { StreamView } from './stream.js';
import { texelFormats } from './texel-format.js';

/** Bits per digit: 4 buckets, one RGBA32UI texel of flags per element, one scan per digit. */
export const SORT_DIGIT_BITS = 2;

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
  };
  const length = keys.length === undefined ? { u_lengthTexture: keys.lengthTarget!.texture } : { u_length: keys.length };
  const flagsProgram = gpu.program({ name: 'radix-digit-flags.frag', fragment: radixDigitFlags, defines: common });
  const scatter = gpu.lookUp({ name: 'radix-scatter.vert', vertex: radixScatterVertex, fragment: radixScatterFragment, defines: common });
  const zero = gpu.program({ name: 'zero-fill.frag', fragment: zeroFill });
  const scanEntry = scanAlgorithms[defaultScan(undefined, capacity)] as ScanAlgorithmEntry;
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
        const ranks = scope.own(digitRanks(gpu, flagsProgram, scanEntry, keyTexture, { width, height, widthLog2, shift, length, maxTextureSize }));
        const move = (source: WebGLTexture, view: StreamView): RenderTarget => {
          const output = scope.target(width, height, view.format);
          // Only the last digit's padding is ever read (as the result's zeros).
          if (last) gpu.pass(zero, output, {});
          gpu.draw({
            program: scatter,
            target: output,
            primitive: 'points',
            count: capacity,
            uniforms: { u_keys: keyTexture, u_source: source, u_ranks: ranks.texture, u_widthLog2: widthLog2, u_heightTexels: height, u_lastTexel: capacity - 1, u_shift: shift, ...length },
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

/** One digit's one-hot flags, scanned (inclusive): rank within the bucket, bucket totals at the end. */
function digitRanks(
  gpu: Gpu,
  flagsProgram: ReturnType<Gpu['program']>,
  scanEntry: ScanAlgorithmEntry,
  keys: WebGLTexture,
  at: { width: number; height: number; widthLog2: number; shift: number; length: Record<string, unknown>; maxTextureSize: number },
): RenderTarget {
  return gpu.scope((scope) => {
    const flags = scope.target(at.width, at.height, texelFormats.rgba32ui);
    gpu.pass(flagsProgram, flags, { u_keys: keys, u_widthLog2: at.widthLog2, u_shift: at.shift, ...at.length });
    const input = { texture: flags.texture, width: at.width, height: at.height, format: texelFormats.rgba32ui };
    const options = { floatValues: false, exclusive: false, radix: 4 };
    return scanEntry.wholeStream
      ? scanEntry.wholeStream(gpu, input, options)
      : globalScan(gpu, input, { ...options, blockScan: scanEntry.blockScan, maxTextureSize: at.maxTextureSize });
  });
}
