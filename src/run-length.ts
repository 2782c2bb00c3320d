// engine.runLengthEncode(): the runs' first positions by a compaction (uniqueKeepFunction, indices
// out), their values by gather, their lengths by one pass (glsl/run-lengths.frag).
import runLengthsFragment from '../glsl/run-lengths.frag';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import { disposedReason, type Stream, type StreamData, type StreamView } from './stream.js';
import { COUNT_FORMAT } from './texel-format.js';

/** Run lengths in the starts' layout; `starts.lengthTarget` holds the number of runs. */
export function runLengths(gpu: Gpu, stream: StreamView, starts: StreamView): RenderTarget {
  const program = gpu.program({ name: 'run-lengths.frag', fragment: runLengthsFragment, defines: { LENGTH_FROM_TEXTURE: stream.length === undefined } });
  return gpu.scope((scope) => {
    const output = scope.target(starts.layout.width, starts.layout.height, COUNT_FORMAT);
    gpu.pass(program, output, {
      u_starts: starts.target.texture,
      u_runsTexture: starts.lengthTarget!.texture,
      u_widthLog2: starts.layout.widthLog2,
      ...(stream.length === undefined ? { u_lengthTexture: stream.lengthTarget!.texture } : { u_length: stream.length }),
    });
    return scope.keep(output);
  });
}

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
