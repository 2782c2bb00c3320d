// What engine.compact() returns: the compacted stream (still on the GPU), its count, and the cost.
import type { PassStats } from '../stats.js';
import { disposedReason, type Stream, type StreamData } from '../stream.js';
import type { ScanAlgorithm } from '../scan/algorithms.js';
import type { CompactionAlgorithm, RequestedAlgorithm } from './algorithm-names.js';
import type { ConcatMode } from './concatenate.js';

/** What a compaction cost and which path it took (`result.stats`). */
export interface CompactStats extends PassStats {
  /** The path taken: 'horn-global' is Horn over the whole stream (options.global), 'histopyramid' the HistoPyramid. */
  algorithm: CompactionAlgorithm;
  /** The `algorithm` option as given ('auto' when it was left out). */
  requestedAlgorithm: RequestedAlgorithm;
  /** Whether the path taken keeps the input's order ('keep') or may not ('any'). */
  order: 'keep' | 'any';
  /** How the blocks were joined; 'none' for paths without blocks ('horn-global', 'histopyramid'). */
  concat: ConcatMode | 'none';
  /** Elements per block; undefined for paths without blocks. */
  blockSize: number | undefined;
  /** The scan the path ran (inside the blocks, or over the whole stream for 'horn-global'); undefined for 'bitmask' and 'histopyramid', which run their own passes. */
  scan: ScanAlgorithm | undefined;
  /** Radix of the scan when it is recursive doubling; undefined otherwise. */
  radix: number | undefined;
  /** What the output stream holds: the kept 'values', or the 'indices' of the kept elements. */
  output: 'values' | 'indices';
}

/**
 * What `engine.compact()` returns: the kept elements in a stream on the GPU (count included), and
 * what the compaction cost. `engine.partition()` returns one too: its stream holds every element,
 * the kept ones first. Nothing is read back until you ask: draw from `result.stream.texture`,
 * or `await result.count()` / `result.read()`.
 *
 * @typeParam T - The typed array {@link CompactResult.read} returns: the input stream's type, or
 * `Uint32Array` for `output: 'indices'`.
 */
export class CompactResult<T extends StreamData = StreamData> {
  /** The kept elements (or their input indices), first `count` texels of a GPU texture. */
  readonly stream: Stream<T>;
  /** What the compaction cost and which path it took. */
  readonly stats: CompactStats;

  /** A partition's kept count (its stream holds every element): how to read it, and its texture; undefined for a compaction. */
  readonly #keptCount: { read: () => Promise<number>; texture: WebGLTexture } | undefined;
  #knownCount: number | undefined;
  /** Told the count once the CPU has it (engine.compact(): the density auto learns from). */
  readonly #onCount: ((count: number) => void) | undefined;

  /** @internal Made by `engine.compact()` and `engine.partition()` (with the kept count apart). */
  constructor(stream: Stream<T>, stats: CompactStats, keptCount?: { read: () => Promise<number>; texture: WebGLTexture }, onCount?: (count: number) => void) {
    this.stream = stream;
    this.stats = stats;
    this.#keptCount = keptCount;
    this.#onCount = onCount;
  }

  /**
   * Number of kept elements (reads one texel back; later calls answer from the CPU). For a
   * partition, the kept elements are the first `count` of the stream's elements.
   * @throws Error if the result or its engine was disposed, or the WebGL context was lost.
   */
  async count(): Promise<number> {
    this.#assertAlive('count()');
    if (this.#keptCount === undefined) {
      const count = await this.stream.readLength();
      this.#onCount?.(count);
      return count;
    }
    this.#knownCount ??= await this.#keptCount.read();
    return this.#knownCount;
  }

  /**
   * A 1×1 R32UI texture whose one texel (red) holds the kept count, for shaders that draw with no
   * readback (`glcompactLength()` of `streamGlsl` reads it): for a compaction the same as
   * `result.stream.lengthTexture`; for a partition, where the rejected elements start (its stream's
   * own length is the input's). Owned by the result and freed with it.
   * @throws Error if the result or its engine was disposed.
   */
  get countTexture(): WebGLTexture {
    this.#assertAlive('countTexture');
    return this.#keptCount ? this.#keptCount.texture : this.stream.lengthTexture;
  }

  /**
   * The kept elements: values in the input's type, or input positions as a `Uint32Array` (for
   * `output: 'indices'`), `components` numbers per element.
   * @throws Error if the result or its engine was disposed, or the WebGL context was lost.
   */
  async read(): Promise<T> {
    this.#assertAlive('read()');
    const values = await this.stream.read();
    if (this.#onCount && disposedReason(this.stream) === undefined) this.#onCount(this.stream.length);
    return values;
  }

  #assertAlive(what: string): void {
    const reason = disposedReason(this.stream);
    if (reason !== undefined) throw new Error(`result.${what}: this result was disposed${reason}; its textures are freed. Run the call again for a new result`);
  }

  /** Frees the result's textures (same as `result.stream.dispose()`). Idempotent. */
  dispose(): void {
    this.stream.dispose();
  }
}
