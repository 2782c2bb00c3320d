// What engine.reduce() returns (apart from the passes, so the public declarations need no GL internals).
import { disposedReason, type Stream, type StreamData } from './stream.js';

/** The operations of engine.reduce(). */
export type ReduceOp = 'sum' | 'min' | 'max';

/**
 * What `engine.reduce()` returns: one element (each component reduced on its own) in a stream on
 * the GPU, of the input's type and components. Sample `result.stream.texture` in your own passes,
 * chain it into other calls, or `await result.read()`.
 *
 * @typeParam T - The input stream's typed array.
 */
export class ReduceResult<T extends StreamData = StreamData> {
  /** A stream of one element: the sum, minimum or maximum of each component. */
  readonly stream: Stream<T>;
  /** The operation: 'sum', 'min' or 'max'. */
  readonly op: ReduceOp;

  /** @internal Made by `engine.reduce()`. */
  constructor(stream: Stream<T>, op: ReduceOp) {
    this.stream = stream;
    this.op = op;
  }

  /**
   * The reduced element, `components` numbers, as the input's typed array.
   * @throws Error if the result or its engine was disposed, or the WebGL context was lost.
   */
  async read(): Promise<T> {
    const reason = disposedReason(this.stream);
    if (reason !== undefined) throw new Error(`result.read(): this result was disposed${reason}; its texture is freed. Run engine.reduce() again for a new result`);
    return this.stream.read();
  }

  /** Frees the result's texture (same as `result.stream.dispose()`). Idempotent. */
  dispose(): void {
    this.stream.dispose();
  }
}
