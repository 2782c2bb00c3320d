// What engine.runLengthEncode() returns (apart from the pass, so the public declarations need no GL internals).
import { disposedReason, type Stream, type StreamData } from './stream.js';

/**
 * What `engine.runLengthEncode()` returns: one value per run of equal consecutive elements (bit
 * for bit, all components) and its length, both on the GPU with the number of runs as their length.
 *
 * @typeParam T - The input stream's typed array.
 */
export class RunLengthResult<T extends StreamData = StreamData> {
  /** Each run's value: the input's type and components. */
  readonly values: Stream<T>;
  /** Each run's length (uint32). */
  readonly counts: Stream<Uint32Array>;

  /** @internal Made by `engine.runLengthEncode()`. */
  constructor(values: Stream<T>, counts: Stream<Uint32Array>) {
    this.values = values;
    this.counts = counts;
  }

  /**
   * The number of runs (reads one texel back; later calls answer from the CPU).
   * @throws Error if the result or its engine was disposed, or the WebGL context was lost.
   */
  async count(): Promise<number> {
    const reason = disposedReason(this.values);
    if (reason !== undefined) throw new Error(`result.count(): this result was disposed${reason}; its textures are freed. Run engine.runLengthEncode() again for a new result`);
    return this.values.readLength();
  }

  /** Frees both streams. Idempotent. */
  dispose(): void {
    this.values.dispose();
    this.counts.dispose();
  }
}
