// Reduce-then-scan without lanes: for scans of at most LANES_SHAPE.aboveTexels texels, and for
// four-component entries on a context that writes one colour attachment per pass (capabilities.ts
// `drawBuffers` 1: headless-gl, whose drawBuffers turns every attachment into COLOR_ATTACHMENT0),
// where a group of lanes would hold one. Reduce passes sum FAN_IN consecutive entries per fragment
// (glsl/tree-scan-reduce.frag) until a level is short enough to scan in one pass (at most
// TOP_ENTRIES entries, or segments of at most FAN_IN); then each level going down adds its
// group's prefix from the level above to the in-fragment sum of the group's entries before it
// (glsl/tree-scan-down.frag). A scan of 2^20 elements is 7 passes (3 reduces, the top, 3 downs)
// instead of Blelloch's 41, and fragments ≈ n (1 + 2/8) instead of ~3n. On the H200 it beat
// Blelloch on one-component elements up to 2^20 (1.4-2.6x) and lost above, where each level-0
// fragment's eight fetches cost more than Blelloch's extra passes; on four-component entries (what
// it still scans at every size on one attachment) it beats Blelloch at 2^18-2^23 texels (H100
// 1.7-2.3x; llvmpipe 1.07-1.2x at 2^20-2^22: scan/algorithms.ts#defaultScan).
// Larger scans otherwise (one-component entries with any number of attachments, four-component ones
// with 4 or 8) take reduce-then-scan.ts's lanes: every running sum written going up, so that the way
// down reads one of them per element rather than adding up its group again.
import treeScanDown from '../../glsl/tree-scan-down.frag';
import treeScanReduce from '../../glsl/tree-scan-reduce.frag';
import type { Gpu } from '../gpu.js';
import { groupsLayout, log2Exact } from '../layout.js';
import type { RenderTarget } from '../render-target.js';
import { COUNT_FORMAT } from '../texel-format.js';
import type { BlockScanInput } from './block-scan.js';
import type { TreeScanOptions } from './reduce-then-scan.js';

/** How the tree is shaped. */
export interface TreeShape {
  /** Elements summed per fragment by the first reduce (over the input), a power of two. */
  bottomFanIn: number;
  /** Entries summed per fragment by the reduces above it, a power of two (at most MAX_BLOCK_SIZE). */
  fanIn: number;
  /** A level of at most this many entries is scanned in one pass (each fragment adds up to this many). */
  topEntries: number;
}

/**
 * Measured on the H200 (egl, per call in batches of 10; bench/results/probes/tuning-run5-egl-new-*.txt):
 * 2^16 0.28 ms, 2^20 0.75, 2^22 2.25, 2^24 7.4 (Blelloch: 0.74, 1.38, 1.48, 5.28). Bottom fan-in 16
 * or a top of 1024 moved these by under 10 %; bottom 32 with fan-in 32 and a top of 512 was 15 %
 * faster at 2^24 but 37 % slower at 2^20, where this scan was then the default (it now is for small
 * scans and four-component ones on one attachment). Loops of dynamic length
 * (each fetch waiting for the one before) had made it 1.5-2x slower (tuning-run1).
 */
export const TREE_SHAPE: Readonly<TreeShape> = { bottomFanIn: 8, fanIn: 64, topEntries: 256 };

/**
 * Rows the summing tree needs of a level it scans: a group added along one row, and a level short
 * enough for the top pass in one row. A level whose rows are at least this wide (or that is one
 * row) has both; inputs laid out by layout.ts#groupsLayout take it as their `minWidth`.
 */
export const SUMMING_TREE_ROW = summingTreeRow(TREE_SHAPE);

/** The rows a tree of this shape needs (SUMMING_TREE_ROW for the default shape). */
export function summingTreeRow(shape: TreeShape): number {
  return Math.max(shape.fanIn, shape.topEntries);
}

/** One level of the tree: its entries in a row-major texture of power-of-two width. */
interface Level {
  texture: WebGLTexture;
  count: number;
  widthLog2: number;
}

/** Scans all width × height texels of `input` in row-major order into a new target of the same size. */
export function summingTreeScan(gpu: Gpu, input: BlockScanInput, options: TreeScanOptions): RenderTarget {
  const shape = TREE_SHAPE;
  const format = options.popcountInput ? COUNT_FORMAT : input.format;

  return gpu.scope((scope) => {
    const scanLevel = (level: Level, size: { width: number; height: number }, segmentLog2: number, depth: number): RenderTarget => {
      const defines = {
        FLOAT_VALUES: options.floatValues,
        POPCOUNT_INPUT: depth === 0 && options.popcountInput === true,
      };
      const output = scope.target(size.width, size.height, format);
      const down = (parent: { target: RenderTarget; widthLog2: number } | undefined, groupLog2: number) => {
        const last = depth === 0;
        const mas = last && options.maxAllowableSize === true;
        const program = gpu.program({
          name: 'tree-scan-down.frag',
          fragment: treeScanDown,
          defines: {
            ...defines,
            GROUP_SIZE: 2 ** groupLog2,
            NO_PARENT: parent === undefined,
            EXCLUSIVE: !mas && (last ? options.exclusive : true),
            MAX_ALLOWABLE_SIZE: mas,
            BLOCK_SIZE: mas ? `${2 ** segmentLog2}u` : undefined,
          },
        });
        gpu.pass(program, output, {
          u_below: level.texture,
          u_count: level.count,
          u_widthLog2: level.widthLog2,
          ...(mas ? { u_invalidFlags: level.texture } : {}),
          ...(parent ? { u_groupPrefix: parent.target.texture, u_prefixWidthLog2: parent.widthLog2 } : {}),
        });
        return output;
      };

      const fanIn = depth === 0 ? shape.bottomFanIn : shape.fanIn;
      const fanInLog2 = log2Exact(fanIn);
      if (segmentLog2 <= fanInLog2 || level.count <= shape.topEntries) {
        // One pass with the whole segment, or the whole (short) level, as the group. The group size is
        // a compile-time constant: topEntries for a whole level whatever its count (the loop
        // skips what lies past the fragment), so streams of changing lengths reuse one program.
        return down(undefined, Math.min(segmentLog2, log2Exact(shape.topEntries)));
      }
      // Sum groups of fanIn into the level above, scan that one (exclusive), then come back down.
      // The groups of a row of entries are a row of the level above (layout.ts#groupsLayout): no
      // taller than this level, so within the texture limit. Its rows hold whole groups of its own
      // (the shaders add a group along a row): at least a fan-in or a top level wide.
      const sumsLayout = groupsLayout(level.count, level.widthLog2, fanInLog2, summingTreeRow(shape));
      const sums = scope.target(sumsLayout.width, sumsLayout.height, format);
      gpu.pass(gpu.program({ name: 'tree-scan-reduce.frag', fragment: treeScanReduce, defines: { ...defines, FAN_IN: fanIn } }), sums, {
        u_below: level.texture,
        u_belowCount: level.count,
        u_belowWidthLog2: level.widthLog2,
        u_widthLog2: sumsLayout.widthLog2,
      });
      const prefix = scanLevel(
        { texture: sums.texture, count: sumsLayout.length, widthLog2: sumsLayout.widthLog2 },
        sums,
        segmentLog2 - fanInLog2,
        depth + 1,
      );
      return down({ target: prefix, widthLog2: sumsLayout.widthLog2 }, fanInLog2);
    };

    const level = { texture: input.texture, count: input.width * input.height, widthLog2: log2Exact(input.width) };
    return scope.keep(scanLevel(level, input, options.segmentLog2, 0));
  });
}
