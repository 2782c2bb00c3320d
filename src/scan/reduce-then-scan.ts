// Reduce-then-scan: a prefix sum with few passes and many elements per fragment, beside the paper's
// one-element-per-fragment scans. Going up, each fragment adds a group of LANES consecutive entries
// in order and writes every running sum (its "lanes") to several colour attachments at once
// (glsl/scan-lanes-up.frag; 8 attachments × 4 = 32 one-component entries per fragment, 4 with one); the groups'
// totals are the next level's entries, until a level fits in one group (the top). Coming down, entry
// i of each level is the level above's prefix of the groups before its own plus its own lane
// (glsl/scan-lanes-down.frag): two fetches per element however large the group. A scan of 2^24
// elements is 9 passes (5 up, 4 down), 2^20 seven (4 up, 3 down), and the full-size work is one pass reading n
// elements in n/32 fragments and one writing n elements with two fetches each.
//
// Why lanes (issue 23): the summing tree (scan/summing-tree.ts, now for small scans and four-component
// ones on one attachment) writes only the groups' sums going up, so its last pass adds up each
// element's group again (up to 7 fetches per element: 3.5 of its 7.4 ms at 2^24 on the H200). Writing the running sums costs a full
// write of the level (on an H100, 8 layers of 32 elements per fragment cost what a copy pass of the
// same bytes costs: 1.22 ms at 2^24; writes are bound by bytes, not fragments), but the way down then
// fetches twice per element: 2^22 1.46 ms against 2.18, 2^24 5.6 against 7.4 (docs/performance.md
// "Issue 23"). Each level's groups lie row-aligned (layout.ts#groupsLayout): H200 2^24 5.42 -> 3.15
// ms, 2^22 1.37 -> 0.89 ("Row-aligned groups"). WebGL2 promises 4 draw buffers; the engine probes for 8 (capabilities.ts) and takes 4
// where it must: the lanes are 16 per group there; headless-gl writes one (4 lanes per group, in a
// TEXTURE_2D). Small scans, and four-component ones on one attachment, keep the summing tree (LANES_SHAPE).
//
// Segmented scans (blocks of 2^segmentLog2, row-aligned) run the same tree: where a segment is
// shorter than a group, the running sums restart at each segment and that level is the top.
import scanLanesDown from '../../glsl/scan-lanes-down.frag';
import scanLanesUp from '../../glsl/scan-lanes-up.frag';
import type { Gpu } from '../gpu.js';
import { groupsLayout, log2Exact } from '../layout.js';
import type { RenderTarget } from '../render-target.js';
import { COUNT_FORMAT, texelFormats, type TexelFormat } from '../texel-format.js';
import type { BlockScan, BlockScanInput } from './block-scan.js';
import { summingTreeScan } from './summing-tree.js';

/** A segment covering the whole stream. */
export const WHOLE_STREAM = 32;

/** The lanes' texels: always RGBA32UI (four one-component lanes, or one four-component lane, per texel). */
const LANES_FORMAT = texelFormats.rgba32ui;

/** How a level's groups are shaped: `attachments` layers written per pass, `lanes` entries per group. */
export interface LaneShape {
  attachments: number;
  lanesPerTexel: 1 | 4;
  lanes: number;
}

/** The group shape for passes writing `attachments` attachments, over entries of `components` components. */
export function laneShape(attachments: number, components: 1 | 4): LaneShape {
  const lanesPerTexel = components === 1 ? 4 : 1;
  return { attachments, lanesPerTexel, lanes: attachments * lanesPerTexel };
}

/**
 * Attachments per pass: `bottom` for level 0 (the full-size level), `above` for the levels above it
 * (both capped by the context's draw buffers); lanes only for scans of more than `aboveTexels`
 * texels, the summing tree below, and only where the context writes at least `minDrawBuffers`
 * attachments (1: everywhere, headless-gl's one included; bench/lanes-probe.ts raises it to time the
 * summing tree there). One attachment gives groups of four one-component lanes, one RGBA32UI texel
 * per group in a TEXTURE_2D: more levels (21 passes at 2^22, where 8 attachments take 9 and the
 * summing tree 7), yet on the H200 (egl, one attachment) 2^22 1.11 ms and 2^24 4.08 against the
 * summing tree's 1.57 / 6.20, and on llvmpipe 2^22 37-45 ms against 87-92; at 2^20 behind it on the
 * GPUs (1.5 %, 3.4 % and 29 % in three runs), 1.5-1.9x ahead on llvmpipe, which is where one
 * attachment mostly runs (Node's tests; bench/results/issue-23/one-attachment-lanes/). Measured on an H100 (headless-gl egl with bench/gpu's shim, per
 * call in batches of 10; bench/results/issue-23/): 2, 4 or 8 attachments at level 0 were within
 * 5 % of each other at 2^18–2^24; lanes against the summing tree: 2^18 0.39–0.56 vs 0.26 ms, 2^20
 * 0.48 vs 0.66, 2^22 1.46 vs 2.18, 2^24 5.6 vs 7.4 (both before their groups were row-aligned; after,
 * on an H200: 2^20 0.35 vs 0.49, 2^22 0.89 vs 1.63, 2^24 3.15 vs 6.11).
 */
export const LANES_SHAPE = { bottom: 8, above: 8, aboveTexels: 2 ** 19, minDrawBuffers: 1 };

/** Level `depth`'s group shape on a context with `drawBuffers` attachments per pass. */
export function levelShape(depth: number, drawBuffers: number, components: 1 | 4): LaneShape {
  return laneShape(Math.min(drawBuffers, depth === 0 ? LANES_SHAPE.bottom : LANES_SHAPE.above), components);
}

export interface TreeScanOptions {
  /** Segments of 2^segmentLog2 entries are scanned independently; WHOLE_STREAM for one scan of all. */
  segmentLog2: number;
  floatValues: boolean;
  exclusive: boolean;
  /** The input holds invalid flags; the result is max-allowable-size (block-scan.ts). */
  maxAllowableSize?: boolean;
  /** The input holds keep flags packed 32 to a word; each word counts as its set bits (R32UI result). */
  popcountInput?: boolean;
}

/** One level's entries: `count` of them, and where the up pass reads them. */
interface Level {
  count: number;
  /**
   * The stream (level 0) or the level below's lanes, in groups of `groupLanes` (its groups' totals
   * are this level's entries).
   */
  source: { texture: WebGLTexture; widthLog2: number; lanes: boolean; groupLanes: number; lanes2d: boolean };
}

/** What the level above hands down: its inclusive scan, as a texture or (the top) as its lanes. */
interface Scanned {
  target: RenderTarget;
  widthLog2: number;
  lanes: boolean;
  /** With `lanes`: the lanes per group. */
  groupLanes: number;
  /** With `lanes`: written by one attachment, so a TEXTURE_2D (scan-lanes.glsl). */
  lanes2d: boolean;
}

/** `${2^bits - 1}u` for a shader's segment mask; all ones for a segment of 2^32 or more. */
function segmentMask(bits: number): string {
  return bits >= 32 ? '0xffffffffu' : `${2 ** bits - 1}u`;
}

/**
 * Scans all width × height texels of `input` in row-major order into a new target of the same size:
 * with lanes where the input is large and a group holds more than one lane (see LANES_SHAPE), else
 * with the summing tree.
 */
export function reduceThenScan(gpu: Gpu, input: BlockScanInput, options: TreeScanOptions): RenderTarget {
  // A group of one lane (four-component entries, one attachment) would not shrink its level: every
  // level's groups must hold two lanes or more (level 0's and those above may differ: LANES_SHAPE).
  const components = input.format.components;
  const lanes = gpu.drawBuffers >= LANES_SHAPE.minDrawBuffers && levelShape(0, gpu.drawBuffers, components).lanes > 1 && levelShape(1, gpu.drawBuffers, components).lanes > 1 && input.width * input.height > LANES_SHAPE.aboveTexels;
  return lanes ? lanesScan(gpu, input, options) : summingTreeScan(gpu, input, options);
}

function lanesScan(gpu: Gpu, input: BlockScanInput, options: TreeScanOptions): RenderTarget {
  const format: TexelFormat = options.popcountInput ? COUNT_FORMAT : input.format;
  const components = input.format.components;

  return gpu.scope((scope) => {
    // Up: this level's lanes; then the levels above (recursively); then down to this level's scan.
    const scanLevel = (level: Level, segmentLog2: number, depth: number): Scanned => {
      const shape = levelShape(depth, gpu.drawBuffers, components);
      const lanesLog2 = log2Exact(shape.lanes);
      const laneDefines = { ATTACHMENTS: shape.attachments, LANES_PER_TEXEL: shape.lanesPerTexel, FLOAT_VALUES: options.floatValues };
      const lanes2d = shape.attachments === 1;
      const groups = groupsLayout(level.count, level.source.widthLog2, lanesLog2);
      const lanes = scope.target(groups.width, groups.height, LANES_FORMAT, shape.attachments);
      const top = segmentLog2 <= lanesLog2 || level.count <= shape.lanes;
      gpu.pass(gpu.program({
        name: 'scan-lanes-up.frag',
        fragment: scanLanesUp,
        defines: {
          ...laneDefines,
          FROM_LANES: level.source.lanes,
          BELOW_LANES: level.source.lanes ? level.source.groupLanes : undefined,
          BELOW_LANES_2D: level.source.lanes && level.source.lanes2d,
          POPCOUNT_INPUT: depth === 0 && options.popcountInput === true,
          SEGMENT_LANES: segmentLog2 < lanesLog2 ? 2 ** segmentLog2 : undefined,
        },
      }), lanes, {
        [level.source.lanes ? 'u_belowLanes' : 'u_below']: level.source.texture,
        u_belowCount: level.count,
        u_belowWidthLog2: level.source.widthLog2,
        u_widthLog2: groups.widthLog2,
      });
      const lanesScanned: Scanned = { target: lanes, widthLog2: groups.widthLog2, lanes: true, groupLanes: shape.lanes, lanes2d };
      // The top of the tree above level 0: its lanes are its scan, read as they are by the level below.
      if (top && depth > 0) return lanesScanned;
      const parent = top
        ? undefined
        : scanLevel({ count: groups.length, source: { texture: lanes.texture, widthLog2: groups.widthLog2, lanes: true, groupLanes: shape.lanes, lanes2d } }, segmentLog2 - lanesLog2, depth + 1);

      const last = depth === 0;
      const mas = last && options.maxAllowableSize === true;
      // A level above 0 is scanned into the layout of its entries (the groups of the level below),
      // so that the level below finds its group's prefix in the row it reads its lanes from.
      const entriesWidth = 2 ** level.source.widthLog2;
      const layout = last
        ? { width: input.width, height: input.height, widthLog2: log2Exact(input.width) }
        : { width: entriesWidth, height: Math.ceil(level.count / entriesWidth), widthLog2: level.source.widthLog2 };
      const output = last ? scope.target(input.width, input.height, format) : scope.target(layout.width, layout.height, format);
      gpu.pass(gpu.program({
        name: 'scan-lanes-down.frag',
        fragment: scanLanesDown,
        defines: {
          ...laneDefines,
          LANES_2D: lanes2d,
          NO_PARENT: parent === undefined,
          PARENT_LANES: parent?.lanes === true,
          PARENT_LANES_2D: parent?.lanes === true && parent.lanes2d,
          PARENT_GROUP_LANES: parent?.lanes ? parent.groupLanes : undefined,
          PARENT_SEGMENT_MASK: segmentMask(segmentLog2 - lanesLog2),
          LANE_SEGMENT_MASK: segmentMask(Math.min(segmentLog2, lanesLog2)),
          EXCLUSIVE: !mas && last && options.exclusive,
          MAX_ALLOWABLE_SIZE: mas,
          BLOCK_SIZE: mas ? `${2 ** segmentLog2}u` : undefined,
        },
      }), output, {
        u_lanes: lanes.texture,
        u_lanesWidthLog2: groups.widthLog2,
        u_count: level.count,
        u_widthLog2: layout.widthLog2,
        ...(mas ? { u_invalidFlags: input.texture } : {}),
        ...(parent?.lanes ? { u_parentLanes: parent.target.texture, u_parentLanesWidthLog2: parent.widthLog2 } : {}),
        ...(parent && !parent.lanes ? { u_parent: parent.target.texture, u_parentWidthLog2: parent.widthLog2 } : {}),
      });
      return { target: output, widthLog2: layout.widthLog2, lanes: false, groupLanes: 0, lanes2d: false };
    };

    const level: Level = { count: input.width * input.height, source: { texture: input.texture, widthLog2: log2Exact(input.width), lanes: false, groupLanes: 0, lanes2d: false } };
    return scope.keep(scanLevel(level, options.segmentLog2, 0).target);
  });
}

/** The segmented form, for the block compactions and `engine.scan(s, { blockSize })`. */
export const reduceThenScanBlockScan: BlockScan = (gpu, input, options) =>
  reduceThenScan(gpu, input, {
    segmentLog2: options.blockLog2,
    floatValues: options.floatValues,
    exclusive: options.exclusive,
    maxAllowableSize: options.maxAllowableSize,
  });

/** The scan over the whole stream (no block recursion needed: the tree already spans it). */
export function reduceThenScanWhole(gpu: Gpu, input: BlockScanInput, options: { floatValues: boolean; exclusive: boolean }): RenderTarget {
  return reduceThenScan(gpu, input, { segmentLog2: WHOLE_STREAM, ...options });
}
