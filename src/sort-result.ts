// What engine.sort() returns (apart from the passes, so the public declarations need no GL internals).
import type { Stream, StreamData } from './stream.js';

/**
 * What `engine.sort()` returns: the keys in order and, when `values` were given, the values in the
 * same order, both streams on the GPU with the keys' length.
 *
 * @typeParam K - The keys' typed array.
 * @typeParam V - The values' typed array.
 */
export class SortResult<K extends StreamData = StreamData, V extends StreamData = StreamData> {
  /** The keys, sorted (stable: equal keys keep their input order). */
  readonly keys: Stream<K>;
  /** The values, moved with their keys; undefined when no values were given. */
  readonly values: Stream<V> | undefined;

  /** @internal Made by `engine.sort()`. */
  constructor(keys: Stream<K>, values: Stream<V> | undefined) {
    this.keys = keys;
    this.values = values;
  }

  /** Frees both streams. Idempotent. */
  dispose(): void {
    this.keys.dispose();
    this.values?.dispose();
  }
}
