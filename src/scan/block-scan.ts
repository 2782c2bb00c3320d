// The shape shared by the two segmented (per-block) scans.
import type { Gpu } from '../gpu.js';
import type { RenderTarget } from '../render-target.js';
import type { TexelFormat } from '../texel-format.js';

export interface BlockScanInput {
  texture: WebGLTexture;
  width: number;
  height: number;
  format: TexelFormat;
}

export interface BlockScanOptions {
  /** Block size b = 2^blockLog2; blocks are row-aligned, so b must divide the width. */
  blockLog2: number;
  /** Add as IEEE floats (float32 streams) instead of uint32. */
  floatValues: boolean;
  exclusive: boolean;
  /** Recursive doubling only: elements summed per pass (2, 4, 8 or 16; 2 = the paper's). */
  radix?: number;
  /**
   * Scan of invalid flags for compaction: the last pass writes MAS = b - pSum with the kept bit
   * (glsl/max-allowable-size.glsl) instead of the sum. The flags texture is the scan's input.
   */
  maxAllowableSize?: boolean;
}

/** Returns a new target (the caller owns it) holding the per-block scan of `input`. */
export type BlockScan = (gpu: Gpu, input: BlockScanInput, options: BlockScanOptions) => RenderTarget;
