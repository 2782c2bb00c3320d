// What every compaction driver is given and returns.
import type { Gpu } from '../gpu.js';
import type { RenderTarget } from '../render-target.js';
import type { BlockScan } from '../scan/block-scan.js';
import type { StreamView } from '../stream.js';
import type { ConcatMode } from './concatenate.js';
import type { KeepFunction } from './keep-function.js';

export interface CompactionPlan {
  keep: KeepFunction;
  outputIndices: boolean;
  maxTextureSize: number;
  /** Recursive doubling's radix for every scan of the compaction. */
  radix: number;
  /** Block algorithms: block size 2^blockLog2, the scan inside blocks, the concatenation path. */
  blockLog2: number;
  blockScan: BlockScan;
  concat: ConcatMode;
  /** For 'hybrid': blocks keeping from..to elements (inclusive) use Jumping Jack, the others Horn. */
  jumpingJackKept: { from: number; to: number };
  /** engine.partition() ('horn-global' only): the rejected elements follow the kept ones, in input order. */
  partition?: boolean;
  /**
   * 'bitmask' only: whether its output pass writes the padding (true) or a pass of its own does
   * (false); undefined: BITMASK_SHAPE.paddingInOutput. A tuned profile sets it per size class
   * (TuningProfile.bitmaskPadding).
   */
  paddingInOutput?: boolean;
}

export interface CompactionOutput {
  output: RenderTarget;
  /** 1×1 texture holding the kept count. */
  count: RenderTarget;
}

/** A compaction algorithm's driver: the whole pipeline from the stream to the output and its count. */
export type CompactionDriver = (gpu: Gpu, stream: StreamView, plan: CompactionPlan) => CompactionOutput;
