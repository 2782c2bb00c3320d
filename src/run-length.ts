// engine.runLengthEncode(): the runs' first positions by a compaction (uniqueKeepFunction, indices
// out), their values by gather, their lengths by one pass (glsl/run-lengths.frag).
import runLengthsFragment from '../glsl/run-lengths.frag';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import { lengthUniforms, type StreamView } from './stream.js';
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
      ...lengthUniforms(stream),
    });
    return scope.keep(output);
  });
}
