// A 1D HistoPyramid (Ziegler 2006; Dyken 2008) over the linear index. Entry e of level 0 counts the
// kept flags of elements FANOUT*e .. FANOUT*e+FANOUT-1; each level up sums FANOUT consecutive
// entries of the one below, until at most TOP_ENTRIES are left; the top (1x1) sums those: the kept
// count, which becomes the result's count texel. The levels are packed four entries to an RGBA32UI
// texel, so the traversal (glsl/histopyramid-descend.frag) reads four children per fetch. Children
// are consecutive elements, so the output keeps the input's order. The traversal is drawn over the
// rows that hold kept elements only (glsl/kept-rows.vert reads the count on the GPU); the
// output is cleared first, so the rest is padding (0).
import histopyramidDescend from '../../glsl/histopyramid-descend.frag';
import histopyramidReduce from '../../glsl/histopyramid-reduce.frag';
import histopyramidRows from '../../glsl/kept-rows.vert';
import { zeroPadding } from '../zero-padding.js';
import type { Gpu, Scope } from '../gpu.js';
import { compactLayoutFor } from '../layout.js';
import type { RenderTarget } from '../render-target.js';
import { COUNT_FORMAT, texelFormats } from '../texel-format.js';
import { keepFlagsPass, keepFlagsProgram } from './keep-flags.js';
import type { CompactionDriver } from './plan.js';

/** How the pyramid is shaped (the registry's driver uses HISTOPYRAMID_SHAPE; others are for measuring). */
export interface HistopyramidShape {
  /** Children per node: 4, 8, 16 or 32 (whole packed texels; level 0 walks its flags one by one). */
  fanout: number;
  /** At most this many entries (4 or 16: one or four texels) in the highest level, which the top sums. */
  topEntries: number;
}

/**
 * Fan-out 4, measured on llvmpipe (2 cores; 2^16 and 2^20, 10 % and 50 % kept): the traversal's
 * fetches cost more than passes. At 2^20, 50 % kept: fan-out 4 / 8 / 16 / 32 took 58 / 69 / 83 /
 * 137 ms (10 % kept: 25 / 27 / 28 / 36 ms); at 2^16 all but 32 were within noise (5-6 ms). Top
 * entries 16 instead of 4 save a pass (9 at 2^16, 11 at 2^20) for ~5 % at 2^20 on llvmpipe.
 */
export const HISTOPYRAMID_SHAPE: HistopyramidShape = { fanout: 4, topEntries: 16 };

/** Packed levels the traversal unrolls (glsl/histopyramid-descend.frag). */
const MAX_LEVELS = 15;
/** MAX_TEXTURE_IMAGE_UNITS, at least, in every WebGL2 context. */
const MIN_TEXTURE_UNITS = 16;

export function histopyramidWithShape({ fanout, topEntries }: HistopyramidShape): CompactionDriver {
  return (gpu, stream, plan) => {
    const keepProgram = keepFlagsProgram(gpu, stream, plan.keep, 'kept');
    const { layout } = stream;
    // Entries per packed level, level 0 first; the top sums the last one's (at most topEntries).
    const entries = [Math.ceil(layout.capacity / fanout)];
    while (entries[entries.length - 1] > topEntries) entries.push(Math.ceil(entries[entries.length - 1] / fanout));
    // The traversal samples every level, the flags, the top and the values (2^30 elements: 16).
    const samplers = entries.length + 3;
    if (entries.length > MAX_LEVELS || samplers > MIN_TEXTURE_UNITS) {
      throw new Error(`internal: a HistoPyramid of ${entries.length} levels needs ${samplers} samplers (WebGL2 guarantees ${MIN_TEXTURE_UNITS}; the pass unrolls ${MAX_LEVELS} levels)`);
    }
    const reduceProgram = (defines: Record<string, number | boolean>) =>
      gpu.program({ name: 'histopyramid-reduce.frag', fragment: histopyramidReduce, defines });
    const bottom = reduceProgram({ FAN_IN: fanout });
    const up = reduceProgram({ FAN_IN: fanout, BELOW_PACKED: true });
    const top = reduceProgram({ FAN_IN: topEntries, BELOW_PACKED: true, TOP: true });
    const descend = gpu.program({
      name: 'kept-rows.vert+histopyramid-descend.frag',
      vertex: histopyramidRows,
      fragment: histopyramidDescend,
      defines: { FANOUT: fanout, TOP_ENTRIES: topEntries, LEVELS: entries.length, OUTPUT_INDICES: plan.outputIndices },
    });
    return gpu.scope((scope) => {
      const flags = scope.target(layout.width, layout.height);
      keepFlagsPass(gpu, stream, plan.keep, keepProgram, flags);
      const levels: RenderTarget[] = [];
      let below = { target: flags, texels: layout.capacity };
      for (const [k, count] of entries.entries()) {
        const texels = Math.ceil(count / 4);
        const level = reducePass(gpu, scope, k === 0 ? bottom : up, below, compactLayoutFor(texels, plan.maxTextureSize), true);
        levels.push(level);
        below = { target: level, texels };
      }
      const count = reducePass(gpu, scope, top, below, compactLayoutFor(1, plan.maxTextureSize), false);
      const output = scope.target(layout.width, layout.height, plan.outputIndices ? COUNT_FORMAT : stream.format);
      // Padding past the count must read 0 (zero-padding.ts); then traverse only the rows holding
      // kept elements (kept-rows.vert; the stats count the whole target, an upper bound).
      zeroPadding(gpu, output, count);
      gpu.pass(descend, output, {
        u_top: count.texture,
        u_height: layout.height,
        u_levels: levels.map((level) => level.texture),
        u_flags: flags.texture,
        u_values: stream.target.texture,
        u_widthLog2: layout.widthLog2,
      });
      return { output: scope.keep(output), count: scope.keep(count) };
    });
  };
}

/** Renders one level (packed: RGBA32UI, four entries a texel; else the 1x1 top) from the one below. */
function reducePass(
  gpu: Gpu,
  scope: Scope,
  program: ReturnType<Gpu['program']>,
  below: { target: RenderTarget; texels: number },
  layout: { width: number; height: number; widthLog2: number },
  packed: boolean,
): RenderTarget {
  const level = scope.target(layout.width, layout.height, packed ? texelFormats.rgba32ui : COUNT_FORMAT);
  gpu.pass(program, level, { u_below: below.target.texture, u_belowTexels: below.texels, u_widthLog2: layout.widthLog2 });
  return level;
}

export const histopyramidCompaction: CompactionDriver = histopyramidWithShape(HISTOPYRAMID_SHAPE);
