// engine.gather(): output j = source[indices[j]], one pass (glsl/gather.frag). With a compaction's
// `output: 'indices'` it selects any number of attribute streams by one predicate.
import gatherFragment from '../glsl/gather.frag';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import type { StreamView } from './stream.js';

/**
 * Where the indices lie in lanes rather than in the output's layout (the radix sort's last select,
 * glsl/radix-select.frag): `lanes` indices per texel of a TEXTURE_2D_ARRAY, four per texel of each
 * layer, in texels `widthLog2` wide.
 */
export interface IndexLanes {
  texture: WebGLTexture;
  widthLog2: number;
  lanes: number;
}

/**
 * The gathered elements in the indices' layout and the source's format; with `lanes`, the indices
 * are read from there instead of from `indices.target` (whose layout and length still shape the output).
 */
export function gather(gpu: Gpu, source: StreamView, indices: Omit<StreamView, 'target'> & { target?: RenderTarget }, lanes?: IndexLanes): RenderTarget {
  if (!lanes && !indices.target) throw new Error('gather: the indices need a target or lanes');
  const program = gpu.program({
    name: 'gather.frag',
    fragment: gatherFragment,
    defines: { SOURCE_LENGTH_FROM_TEXTURE: source.length === undefined, INDICES_LENGTH_FROM_TEXTURE: indices.length === undefined, INDEX_LANES: lanes?.lanes },
  });
  return gpu.scope((scope) => {
    const output = scope.target(indices.layout.width, indices.layout.height, source.format);
    gpu.pass(program, output, {
      u_source: source.target.texture,
      u_sourceWidthLog2: source.layout.widthLog2,
      ...(lanes ? { u_indices: lanes.texture, u_indicesWidthLog2: lanes.widthLog2 } : { u_indices: indices.target!.texture }),
      u_widthLog2: indices.layout.widthLog2,
      ...(source.length === undefined ? { u_sourceLengthTexture: source.lengthTarget!.texture } : { u_sourceLength: source.length }),
      ...(indices.length === undefined ? { u_indicesLengthTexture: indices.lengthTarget!.texture } : { u_indicesLength: indices.length }),
    });
    return scope.keep(output);
  });
}
