// What engine.compact() returns: the compacted stream (still on the GPU), its count, and the cost.
import type { PassStats } from '../stats.js';
import type { Stream, StreamData } from '../stream.js';
import type { ScanAlgorithm } from '../scan/algorithms.js';
import type { CompactionAlgorithm, RequestedAlgorithm } from './algorithms.js';
import type { ConcatMode } from './concatenate.js';

export interface CompactStats extends PassStats {
  /** The path taken: 'horn-global' is Horn over the whole stream (options.global). */
  algorithm: CompactionAlgorithm;
  requestedAlgorithm: RequestedAlgorithm;
  concat: ConcatMode | 'none';
  blockSize: number | undefined;
  scan: ScanAlgorithm;
  /** Radix of the recursive-doubling scans (unused by Blelloch). */
  radix: number;
  output: 'values' | 'indices';
}

export class CompactResult {
  constructor(
    /** The kept elements (or their input indices), first `count` texels of a GPU texture. */
    readonly stream: Stream,
    readonly stats: CompactStats,
  ) {}

  /** Number of kept elements (reads one texel back). */
  count(): Promise<number> {
    return this.stream.readLength();
  }

  /** The kept elements: values in the input's type, or input positions as a Uint32Array. */
  read(): Promise<StreamData> {
    return this.stream.read();
  }

  /** Frees the result's textures (same as result.stream.dispose()). */
  dispose(): void {
    this.stream.dispose();
  }
}
