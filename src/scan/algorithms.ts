// The scan algorithms, one entry each. Option types, validation lists and stats are derived from
// this table: a new scan is one driver file (a BlockScan), its shader files, and one line here.
import type { BlockScan } from './block-scan.js';
import { blellochBlockScan } from './blelloch.js';
import { hillisSteeleBlockScan } from './hillis-steele.js';
import { reduceThenScanBlockScan, reduceThenScanWhole } from './reduce-then-scan.js';
import type { Gpu } from '../gpu.js';
import type { RenderTarget } from '../render-target.js';
import type { BlockScanInput } from './block-scan.js';

/** @internal */
export interface ScanAlgorithmEntry {
  blockScan: BlockScan;
  /** Whether the `radix` option applies (it is reported in the stats only then). */
  usesRadix: boolean;
  /**
   * A scan over the whole stream of its own; without one, whole-stream scans are built from block
   * scans (global-scan.ts, the paper's Fig. 4).
   */
  wholeStream?: (gpu: Gpu, input: BlockScanInput, options: { floatValues: boolean; exclusive: boolean }) => RenderTarget;
}

/** @internal The table (kept off the public declarations: its drivers reach the GL internals). */
export const scanAlgorithms = {
  /** Hillis–Steele (paper Algorithm 1): ceil(log_radix b) passes over every element. */
  'recursive-doubling': { blockScan: hillisSteeleBlockScan, usesRadix: true },
  /** Blelloch's balanced tree (paper Fig. 3): 2·log2 b − 1 passes, ~3n fragments. */
  blelloch: { blockScan: blellochBlockScan, usesRadix: false },
  /** Sums of 32 elements per fragment up a short tree, then down: 7 passes for 2^24 (reduce-then-scan.ts). */
  'reduce-then-scan': { blockScan: reduceThenScanBlockScan, usesRadix: false, wholeStream: reduceThenScanWhole },
} as const satisfies Record<string, ScanAlgorithmEntry>;

/**
 * A prefix-sum algorithm: 'recursive-doubling' (Hillis–Steele, `radix` elements added per pass),
 * 'blelloch' (the work-efficient balanced tree), both from the paper, or 'reduce-then-scan' (many
 * elements per fragment, a few passes).
 */
export type ScanAlgorithm = 'recursive-doubling' | 'blelloch' | 'reduce-then-scan';
// Spelt out (the table's types reach the GL internals); it must match the table.
const tableMatchesType: [ScanAlgorithm] extends [keyof typeof scanAlgorithms] ? ([keyof typeof scanAlgorithms] extends [ScanAlgorithm] ? true : false) : false = true;
void tableMatchesType;
export const scanAlgorithmNames = Object.keys(scanAlgorithms) as ScanAlgorithm[];

/** Recursive doubling's radices: elements summed per pass (2 = the paper's). */
export const radices = [2, 4, 8, 16] as const;

/** Recursive doubling's default radix: 4 beat 2, 8 and 16 on llvmpipe and was within 10 % of the best on the H200. */
export const DEFAULT_RADIX = 4;

/**
 * Default scan for a block size (undefined: a scan over the whole stream). Whole streams:
 * reduce-then-scan at every size, with lanes (reduce-then-scan.ts) where the scan is large: an H100
 * on headless-gl egl with 8 attachments, 2^22 1.46 ms vs Blelloch 1.55, 2^24 5.37-5.46 vs 5.25 in
 * 9-11 passes instead of 49; with row-aligned groups on an H200, 2^22 0.89 vs 1.51, 2^24 3.15 vs 5.27;
 * llvmpipe with 8, 2^22: 31.6 ms vs 84.5. On one attachment (headless-gl) one-component streams take
 * lanes of four per group (H200 egl, 2^20 / 2^22 / 2^24: 0.54 / 1.11 / 4.08 ms against Blelloch's
 * 0.73 / 1.48 / 5.31; llvmpipe 2^22 37-45 ms against 98-112: bench/results/issue-23/one-attachment-lanes/),
 * four-component ones the summing tree (H100 egl, 2^10 / 2^20 / 2^22 / 2^24 texels: 0.16 / 0.98 /
 * 2.99 / 11.5 ms against Blelloch's 0.41 / 1.69 / 5.13 / 22.8; llvmpipe 2^20 / 2^22: 28.4 / 110 against 34.6 / 118:
 * bench/results/issue-23/vec4-one-attachment/; until 2026-11-26 Blelloch took every scan above 2^21
 * texels there, from a crossover measured on one-component data). Blocks: Blelloch's work-efficient
 * tree, except in blocks of 16, where recursive doubling's few passes win, as in the paper's Fig. 9
 * (H200, 2^22, segmented scan alone: block 16 RD 3.1 ms vs Blelloch 4.1 ms; block 256 3.7 vs 2.9;
 * block 2048 3.6 vs 2.2). README "Performance".
 */
export function defaultScan(blockSize: number | undefined): ScanAlgorithm {
  if (blockSize === undefined) return 'reduce-then-scan';
  return blockSize <= 16 ? 'recursive-doubling' : 'blelloch';
}
