// Horn 2005 over the whole stream (no blocks, no concatenation): kept flags -> global inclusive
// scan -> every output texel binary-searches the scan (glsl/horn-global-search.frag). Also
// engine.partition(): the same search puts the rejected elements after the kept ones.
import hornGlobalSearch from '../../glsl/horn-global-search.frag';
import { copyTexel } from '../copy-texel.js';
import { globalScan } from '../scan/global-scan.js';
import { COUNT_FORMAT } from '../texel-format.js';
import { lengthUniforms } from '../stream.js';
import { keepFlagsPass, keepFlagsProgram } from './keep-flags.js';
import type { CompactionDriver } from './plan.js';

export const hornGlobalCompaction: CompactionDriver = (gpu, stream, plan) => {
  const keepProgram = keepFlagsProgram(gpu, stream, plan.keep, 'kept');
  return gpu.scope((scope) => {
    const { layout } = stream;
    const kept = scope.target(layout.width, layout.height);
    keepFlagsPass(gpu, stream, plan.keep, keepProgram, kept);
    const keptPrefix = scope.own(globalScan(gpu, { texture: kept.texture, width: layout.width, height: layout.height, format: COUNT_FORMAT }, {
      blockScan: plan.blockScan,
      floatValues: false,
      exclusive: false,
      maxTextureSize: plan.maxTextureSize,
      radix: plan.radix,
    }));
    const output = scope.target(layout.width, layout.height, plan.outputIndices ? COUNT_FORMAT : stream.format);
    const searchSize = layout.capacity;
    const search = gpu.program({
      name: 'horn-global-search.frag',
      fragment: hornGlobalSearch,
      defines: {
        OUTPUT_INDICES: plan.outputIndices,
        SEARCH_LOG2: Math.ceil(Math.log2(searchSize)),
        PARTITION: plan.partition === true,
        LENGTH_FROM_TEXTURE: plan.partition === true && stream.length === undefined,
      },
    });
    const length = plan.partition !== true ? {} : lengthUniforms(stream);
    gpu.pass(search, output, { u_keptPrefix: keptPrefix.texture, u_searchSize: searchSize, u_values: stream.target.texture, u_widthLog2: layout.widthLog2, ...length });
    const count = scope.own(copyTexel(gpu, keptPrefix, layout.capacity - 1, layout.widthLog2));
    return { output: scope.keep(output), count: scope.keep(count) };
  });
};
