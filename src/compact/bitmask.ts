// Bitmask compaction (input order kept), built for few passes and many elements per fragment:
// 1. glsl/keep-bitmask.frag runs the keep test on 8 elements per fragment and writes their flags
//    as one byte; glsl/bitmask-pack-words.frag joins four bytes into a word (bit k = element
//    32w + k kept): a 32nd of the texels the paper's flags take;
// 2. a reduce-then-scan (scan/reduce-then-scan.ts) over the words' bit counts gives each word's
//    inclusive kept count, whose last entry is the total (copied into the result's count texel);
// 3. where a pass writes 4 or more attachments, glsl/bitmask-select.frag finds the input positions
//    of 4 × attachments consecutive ranks per fragment (one binary search, then a walk along the
//    words) and writes them, or for one-component values the values at them, to the layers of a
//    texture array; glsl/bitmask-gather.frag then reads one position (and the value there) or one
//    value per output element. Else glsl/bitmask-directory.frag notes the word holding every 32nd
//    kept element (a binary search each), then glsl/bitmask-gather.frag writes output element j:
//    from its directory entry a short gallop and search over the counts find the word holding the
//    kept element of rank j, a select within the word finds the element.
// The output pass covers every row and writes 0 past the count (the padding); the select and the
// directory cover the rows holding kept elements only (kept-rows.vert). H200 egl, 2^24 at 50 %
// (bench/lanes-probe.ts; docs/performance.md, issue 23): 5.16-5.22 ms with the search per element,
// 4.44-4.51 with the select, 3.72-3.76 with row-aligned helper textures (layout.ts#groupsLayout),
// 3.55 with the values selected, 3.25 with the padding in the output pass (a pass of its own, after
// the values: 3.57). On CPU renderers it is the other way round where few elements are kept: the
// output pass's padding fragments cost there almost what its kept ones do, and at 5 % kept a pass
// of its own made the bitmask 1.5-1.7x faster at 2^18 on llvmpipe and SwiftShader (no slower at
// 50-95 %), so engine.tune() chooses per size class (TuningProfile.bitmaskPadding,
// tuning.ts#bitmaskPaddingForm). Passes: 12 at 2^22 and 2^24 (with one attachment 10 and 12), 6 at 2^16 (small
// streams skip the packing and the select or directory, below).
import bitmaskGather from '../../glsl/bitmask-gather.frag';
import bitmaskDirectory from '../../glsl/bitmask-directory.frag';
import bitmaskPackWords from '../../glsl/bitmask-pack-words.frag';
import bitmaskSelect from '../../glsl/bitmask-select.frag';
import keptRows from '../../glsl/kept-rows.vert';
import { copyTexel } from '../copy-texel.js';
import { groupsLayout } from '../layout.js';
import { reduceThenScan, WHOLE_STREAM } from '../scan/reduce-then-scan.js';
import { SUMMING_TREE_ROW } from '../scan/summing-tree.js';
import { COUNT_FORMAT, texelFormats } from '../texel-format.js';
import { keepFlagsPass, keepFlagsProgram } from './keep-flags.js';
import { keepPasses } from './keep-passes.js';
import { zeroPadding } from '../zero-padding.js';
import type { CompactionDriver } from './plan.js';

/**
 * directoryShift: one directory entry per 2^directoryShift kept elements (H200, 2^24: 2^5 beat 2^4
 * and 2^6 by 1-10 %). Streams of at most directWordsUpTo words (2^18 elements) write whole words in
 * the keep pass and search all words without a directory: two passes fewer, each ~20-50 µs to
 * issue (H200 egl, 2^16 per call: 0.33-0.45 ms with 6 passes against 0.44-0.62 with 8; probes
 * egl-after-16, egl-gallop-16). select: the select pass where 4+ attachments allow it (step 3 above),
 * writing at most selectAttachments layers; selectValues: it writes one-component values (and the
 * output pass copies them) rather than positions; paddingInOutput: the output pass writes the padding
 * rather than a pass of its own (zero-padding.ts): the built-in default, which a tuned profile's
 * choice per size class overrides (CompactionPlan.paddingInOutput). The three are off only to compare
 * (bench/lanes-probe.ts) and in the tests that keep each form exact.
 */
export const BITMASK_SHAPE = { directoryShift: 5, directWordsUpTo: 2 ** 13, select: true, selectAttachments: 8, selectValues: true, paddingInOutput: true };

export const bitmaskCompaction: CompactionDriver = (gpu, stream, plan) => {
  const { layout } = stream;
  // Each helper texel stands for a run of consecutive elements (or ranks): row-aligned, so a row of
  // fragments reads one row of the stream (layout.ts#groupsLayout).
  // The words are scanned: rows wide enough for the summing tree where that scans them.
  const words = groupsLayout(layout.capacity, layout.widthLog2, 5, SUMMING_TREE_ROW);
  const direct = words.length <= BITMASK_SHAPE.directWordsUpTo;
  const flagsPerTexel = direct ? 32 : 8;
  const flags = direct ? words : groupsLayout(layout.capacity, layout.widthLog2, 3);
  const keepProgram = keepFlagsProgram(gpu, stream, plan.keep, 'kept', { pass: keepPasses.bitmask, defines: { FLAGS_PER_TEXEL: flagsPerTexel } });
  const DIRECTORY_SHIFT = BITMASK_SHAPE.directoryShift;
  return gpu.scope((scope) => {
    const flagTarget = scope.target(flags.width, flags.height);
    keepFlagsPass(gpu, stream, plan.keep, keepProgram, flagTarget, { u_flagsWidthLog2: flags.widthLog2 });
    let wordTarget = flagTarget;
    if (!direct) {
      wordTarget = scope.target(words.width, words.height);
      gpu.pass(gpu.program({ name: 'bitmask-pack-words.frag', fragment: bitmaskPackWords }), wordTarget, {
        u_flags: flagTarget.texture,
        u_flagsWidthLog2: flags.widthLog2,
        u_widthLog2: words.widthLog2,
      });
    }
    // The scan runs over the whole word texture; words past the stream hold 0 and count nothing.
    const prefix = scope.own(reduceThenScan(gpu, { texture: wordTarget.texture, width: words.width, height: words.height, format: COUNT_FORMAT }, {
      segmentLog2: WHOLE_STREAM,
      floatValues: false,
      exclusive: false,
      popcountInput: true,
    }));
    const count = scope.own(copyTexel(gpu, prefix, words.length - 1, words.widthLog2));
    const wordUniforms = { u_words: wordTarget.texture, u_wordCounts: prefix.texture, u_wordCount: words.length, u_wordsWidthLog2: words.widthLog2 };
    const output = scope.target(layout.width, layout.height, plan.outputIndices ? COUNT_FORMAT : stream.format);
    // Padding past the count must read 0: written by the output pass over every row, or first by
    // its own pass, then the kept elements where they land (which is faster depends on the renderer:
    // TuningProfile.bitmaskPadding).
    const paddingInOutput = plan.paddingInOutput ?? BITMASK_SHAPE.paddingInOutput;
    if (!paddingInOutput) zeroPadding(gpu, output, count);
    const select = !direct && BITMASK_SHAPE.select && gpu.drawBuffers >= 4;
    // One-component values are fetched by the select pass itself (bitmask-select.frag), and indices
    // are its positions: the output pass then copies a lane.
    const selectedValues = select && BITMASK_SHAPE.selectValues && !plan.outputIndices && stream.format.components === 1;
    const selectedElements = selectedValues || (select && BITMASK_SHAPE.selectValues && plan.outputIndices);
    let findUniforms = {};
    if (select) {
      // The input positions of RANKS consecutive ranks per texel (bitmask-select.frag).
      const attachments = Math.min(gpu.drawBuffers, BITMASK_SHAPE.selectAttachments);
      const ranks = 4 * attachments;
      const positions = groupsLayout(layout.capacity, layout.widthLog2, Math.log2(ranks));
      const positionsTarget = scope.target(positions.width, positions.height, texelFormats.rgba32ui, attachments);
      const selectProgram = gpu.program({
        name: 'kept-rows.vert+bitmask-select.frag',
        vertex: keptRows,
        fragment: bitmaskSelect,
        defines: { COUNT_SHIFT: Math.log2(ranks), ATTACHMENTS: attachments, SELECTED_VALUES: selectedValues },
      });
      gpu.pass(selectProgram, positionsTarget, {
        ...wordUniforms,
        u_top: count.texture,
        u_widthLog2: positions.widthLog2,
        u_height: positions.height,
        ...(selectedValues ? { u_values: stream.target.texture, u_valuesWidthLog2: layout.widthLog2 } : {}),
      });
      findUniforms = { u_positions: positionsTarget.texture, u_positionsWidthLog2: positions.widthLog2 };
    } else if (!direct) {
      // Only the entries for ranks below the count are drawn (kept-rows.vert, COUNT_SHIFT).
      const directory = groupsLayout(layout.capacity, layout.widthLog2, DIRECTORY_SHIFT);
      const directoryTarget = scope.target(directory.width, directory.height);
      const directoryProgram = gpu.program({
        name: 'kept-rows.vert+bitmask-directory.frag',
        vertex: keptRows,
        fragment: bitmaskDirectory,
        defines: { COUNT_SHIFT: DIRECTORY_SHIFT, DIRECTORY_SHIFT: DIRECTORY_SHIFT },
      });
      gpu.pass(directoryProgram, directoryTarget, { ...wordUniforms, u_top: count.texture, u_widthLog2: directory.widthLog2, u_height: directory.height });
      findUniforms = { u_directory: directoryTarget.texture, u_directoryWidthLog2: directory.widthLog2 };
    }
    const gather = gpu.program({
      name: 'kept-rows.vert+bitmask-gather.frag',
      vertex: keptRows,
      fragment: bitmaskGather,
      defines: {
        ALL_ROWS: paddingInOutput,
        ...(select
          ? { OUTPUT_INDICES: plan.outputIndices, POSITIONS: true, SELECTED_ELEMENTS: selectedElements, ATTACHMENTS: Math.min(gpu.drawBuffers, BITMASK_SHAPE.selectAttachments) }
          : { OUTPUT_INDICES: plan.outputIndices, DIRECTORY: !direct, DIRECTORY_SHIFT: DIRECTORY_SHIFT }),
      },
    });
    gpu.pass(gather, output, {
      u_top: count.texture,
      u_height: layout.height,
      ...wordUniforms,
      ...findUniforms,
      u_values: stream.target.texture,
      u_widthLog2: layout.widthLog2,
    });
    return { output: scope.keep(output), count: scope.keep(count) };
  });
};
