// engine.reduce(): a tree of passes, each combining TILE x TILE texels of the level below into one
// (glsl/reduce.frag), until one texel is left: ceil(log_TILE(max(width, height))) passes, e.g. 6
// for a 4096 x 4096 stream. Sums wrap mod 2^32 for integers and add in the tree's fixed order for
// floats; min and max compare in the stream's own type (glsl/element-order.glsl).
import reduceFragment from '../glsl/reduce.frag';
import type { Gpu } from './gpu.js';
import { layoutFor } from './layout.js';
import type { RenderTarget } from './render-target.js';
import { lengthUniforms, type StreamView } from './stream.js';
import type { ReduceOp } from './reduce-result.js';


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
      const length = !first ? {} : lengthUniforms(stream);
      gpu.pass(program, target, { u_input: input, u_inputSize: size, ...(first ? { u_widthLog2: stream.layout.widthLog2 } : {}), ...length });
      if (last) return scope.keep(target);
      input = target.texture;
      size = next;
    }
  });
}
