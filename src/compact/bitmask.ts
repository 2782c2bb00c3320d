// Bitmask compaction (input order kept), built for few passes and many elements per fragment:
// 1. glsl/keep-bitmask.frag runs the keep test on 32 elements per fragment and writes their flags
//    as one word (bit k = element 32w + k kept): a 32nd of the texels the paper's flags take;
// 2. a reduce-then-scan (scan/reduce-then-scan.ts) over the words' bit counts gives each word's
//    inclusive kept count, whose last entry is the total (copied into the result's count texel);
// 3. glsl/bitmask-gather.frag writes output element j: a binary search over those counts finds the
//    word holding the kept element of rank j, a select within the word finds the element.
// The output pass is drawn over the rows holding kept elements only (kept-rows.vert); 2^24
// elements take 8 passes, 2^16 take 6.
import bitmaskGather from '../../glsl/bitmask-gather.frag';
import keepBitmask from '../../glsl/keep-bitmask.frag';
import keptRows from '../../glsl/kept-rows.vert';
import { copyTexel } from '../copy-texel.js';
import { compactLayoutFor } from '../layout.js';
import { reduceThenScan, WHOLE_STREAM } from '../scan/reduce-then-scan.js';
import { COUNT_FORMAT } from '../texel-format.js';
import { keepFlagsPass, keepFlagsProgram } from './keep-flags.js';
import type { CompactionDriver } from './plan.js';

export const bitmaskCompaction: CompactionDriver = (gpu, stream, plan) => {
  const keepProgram = keepFlagsProgram(gpu, stream, plan.keep, 'kept', { name: 'keep-bitmask.frag', fragment: keepBitmask });
  const gather = gpu.program({
    name: 'kept-rows.vert+bitmask-gather.frag',
    vertex: keptRows,
    fragment: bitmaskGather,
    defines: { OUTPUT_INDICES: plan.outputIndices },
  });
  const { layout } = stream;
  const words = compactLayoutFor(Math.ceil(layout.capacity / 32), plan.maxTextureSize);
  return gpu.scope((scope) => {
    const wordTarget = scope.target(words.width, words.height);
    keepFlagsPass(gpu, stream, plan.keep, keepProgram, wordTarget, { u_wordsWidthLog2: words.widthLog2 });
    // The scan runs over the whole word texture; words past the stream hold 0 and count nothing.
    const prefix = scope.own(reduceThenScan(gpu, { texture: wordTarget.texture, width: words.width, height: words.height, format: COUNT_FORMAT }, {
      segmentLog2: WHOLE_STREAM,
      floatValues: false,
      exclusive: false,
      popcountInput: true,
    }));
    const count = scope.own(copyTexel(gpu, prefix, words.length - 1, words.widthLog2));
    const output = scope.target(layout.width, layout.height, plan.outputIndices ? COUNT_FORMAT : stream.format);
    // Padding past the count must read 0: clear, then draw only the rows holding kept elements.
    const gl = gpu.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, output.framebuffer);
    gl.clearBufferuiv(gl.COLOR, 0, new Uint32Array(4));
    gpu.pass(gather, output, {
      u_top: count.texture,
      u_height: layout.height,
      u_words: wordTarget.texture,
      u_wordPrefix: prefix.texture,
      u_wordCount: words.length,
      u_wordsWidthLog2: words.widthLog2,
      u_values: stream.target.texture,
      u_widthLog2: layout.widthLog2,
    });
    return { output: scope.keep(output), count: scope.keep(count) };
  });
};
