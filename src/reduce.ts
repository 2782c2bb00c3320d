// engine.reduce(): a tree of passes, each combining TILE x TILE texels of the level below into one
// (glsl/reduce.frag), until one texel is left: ceil(log_TILE(max(width, height))) passes, e.g. 6
// for a 4096 x 4096 stream. Sums wrap mod 2^32 for integers and add in the tree's fixed order for
// floats; min and max compare in the stream's own type (glsl/element-order.glsl).
import reduceFragment from '../glsl/reduce.frag';
import type { Gpu } from './gpu.js';
import { layoutFor } from './layout.js';
import type { RenderTarget } from './render-target.js';
import { disposedReason, type Stream, type StreamData, type StreamView } from './stream.js';

/** The operations of engine.reduce(). */
export type ReduceOp = 'sum' | 'min' | 'max';

/** Texels per side of the tile one fragment combines (16 fetches). */
export const REDUCE_TILE = 4;

/** The one-element result, in a stream-shaped target (layoutFor(1)) of the input's format. */
export function reduce(gpu: Gpu, stream: StreamView, op: ReduceOp, maxTextureSize: number): RenderTarget {
  const out = layoutFor(1, maxTextureSize);
  return gpu.scope((scope) => {
    let input = stream.target.texture;
    let size = [stream.layout.width, stream.layout.height];
    for (let level = 0; ; level++) {
      const first = level === 0;
      const next = size.map((side) => Math.ceil(side / REDUCE_TILE));
      const last = next[0] === 1 && next[1] === 1;
      const program = gpu.program({
        name: 'reduce.frag',
        fragment: reduceFragment,
        defines: {
          TILE: REDUCE_TILE,
          FIRST_LEVEL: first,
          LAST: last,
          LENGTH_FROM_TEXTURE: first && stream.length === undefined,
          FLOAT_VALUES: stream.type === 'float32',
          INT_VALUES: stream.type === 'int32',
          OP_MIN: op === 'min',
          OP_MAX: op === 'max',
        },
      });
      const target = last ? scope.target(out.width, out.height, stream.format) : scope.target(next[0]!, next[1]!, stream.format);
      const length = !first ? {} : stream.length === undefined ? { u_lengthTexture: stream.lengthTarget!.texture } : { u_length: stream.length };
      gpu.pass(program, target, { u_input: input, u_inputSize: size, ...(first ? { u_widthLog2: stream.layout.widthLog2 } : {}), ...length });
      if (last) return scope.keep(target);
      input = target.texture;
      size = next;
    }
  });
}

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
