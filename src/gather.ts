// engine.gather(): output j = source[indices[j]], one pass (glsl/gather.frag). With a compaction's
// `output: 'indices'` it selects any number of attribute streams by one predicate.
import gatherFragment from '../glsl/gather.frag';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import type { StreamView } from './stream.js';

/** The gathered elements in the indices' layout and the source's format. */
export function gather(gpu: Gpu, source: StreamView, indices: StreamView): RenderTarget {
  const program = gpu.program({
    name: 'gather.frag',
    fragment: gatherFragment,
    defines: { SOURCE_LENGTH_FROM_TEXTURE: source.length === undefined, INDICES_LENGTH_FROM_TEXTURE: indices.length === undefined },
  });
  return gpu.scope((scope) => {
    const output = scope.target(indices.layout.width, indices.layout.height, source.format);
    gpu.pass(program, output, {
      u_source: source.target.texture,
      u_sourceWidthLog2: source.layout.widthLog2,
      u_indices: indices.target.texture,
      u_widthLog2: indices.layout.widthLog2,
      ...(source.length === undefined ? { u_sourceLengthTexture: source.lengthTarget!.texture } : { u_sourceLength: source.length }),
      ...(indices.length === undefined ? { u_indicesLengthTexture: indices.lengthTarget!.texture } : { u_indicesLength: indices.length }),
    });
    return scope.keep(output);
  });
}
