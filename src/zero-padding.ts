// The padding of a compaction's output (texels past the kept count) must read 0 for later passes
// and for users' shaders (Layout: "texels past length are padding (zero)"). The HistoPyramid's and
// the block concatenation's output passes draw only where kept elements land, so the padding is
// written first, by a pass over the rows from the one holding the count to the last: a clear of the
// whole texture wrote the kept part twice (H100 egl, 2^24 R32UI: the clear alone took 1.24 ms of a
// 5.8 ms compaction). The bitmask's output pass covers every row and writes its padding itself
// (BITMASK_SHAPE.paddingInOutput; H200 2^24: 3.25 ms against 3.57 with this pass), unless a tuned
// profile chose this pass for the size (on CPU renderers, where the output pass's padding fragments
// cost almost what its kept ones do: TuningProfile.bitmaskPadding).
import paddingRows from '../glsl/padding-rows.vert';
import writeZero from '../glsl/write-zero.frag';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';

/** Writes 0 to `output`'s rows from floor(count / width) on; `count` is the 1×1 kept-count texture. */
export function zeroPadding(gpu: Gpu, output: RenderTarget, count: RenderTarget): void {
  const program = gpu.program({ name: 'padding-rows.vert+write-zero.frag', vertex: paddingRows, fragment: writeZero });
  gpu.pass(program, output, { u_top: count.texture, u_widthLog2: Math.log2(output.width), u_height: output.height });
}
