// Copies one texel into a new 1×1 target (e.g. a kept count out of a scan that is about to be freed).
import copyTexelFragment from '../glsl/copy-texel.frag';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';

export function copyTexel(gpu: Gpu, source: RenderTarget, index: number, widthLog2: number): RenderTarget {
  return gpu.scope((scope) => {
    const texel = scope.target(1, 1);
    gpu.pass(gpu.program({ name: 'copy-texel.frag', fragment: copyTexelFragment }), texel, {
      u_source: source.texture,
      u_texel: [index & ((1 << widthLog2) - 1), index >>> widthLog2],
    });
    return scope.keep(texel);
  });
}
