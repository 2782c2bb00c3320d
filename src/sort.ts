// engine.sort(): a stable LSD radix sort on exact integer textures. The elements travel as pairs
// (sort key, input position). Per digit of SORT_RADIX.digitBits bits, from the lowest: the digits of
// 32 (or 64) elements go to a texel as bit planes (glsl/radix-digits.frag; after the first digit the
// select before writes them, where passes write 8 attachments: SORT_SELECT.planes); each block of 64 elements
// notes which of its elements have each digit, as bit masks made from the planes, the masks of up to
// 8 pairs of digits per fragment, a pair per attachment (glsl/radix-digit-masks.frag; H200 egl, 2^24
// uint32 keys + values: 79.3 -> 74.4 ms against a pass per pair comparing packed fields); the masks' bit counts per
// group of 2^SORT_COUNTS.groupLog2 blocks (glsl/radix-block-counts.frag) get one scan for all digits. Where a pass writes 4 or more
// attachments, a select pass (glsl/radix-select.frag) places 2 × attachments consecutive outputs per
// fragment (8 on 4 of 8 attachments where it writes the next digit's planes too; one search, from SORT_SELECT.directoryFrom elements a gallop from a directory entry per
// 2^SORT_SELECT.directoryShift outputs, then a walk along the digit's masks) and writes their pairs into the layers of
// a TEXTURE_2D_ARRAY, where the next digit reads them (SORT_SELECT.writes 'pairs'; H200 egl, 2^22
// uint32 keys + values: 25.9 -> 23.1 ms against a select writing 4 × attachments positions and a move
// pass fetching the pair at each, which stays as 'positions'). Where the keys are integers and the
// values have one component or none (SORT_SELECT.carry), the pairs carry the values' bits from the
// first digit and the last select places them too: one copy in output order
// (glsl/radix-unpair.frag) writes the keys (the sort keys turned back) and the values, a target each
// (gpu.ts passInto). For float keys, values of 4 components and argsort, the last digit's select writes the input positions of 4 × attachments outputs per fragment, from which
// the two gathers read them (gather.ts IndexLanes; a move pass had first copied them into the keys' layout). Otherwise a directory notes the counted group of every 2^SORT_DIRECTORY.shift-th output
// (glsl/radix-directory.frag: a binary search over the groups each), and every output position finds
// the element that moves there (glsl/radix-move.frag: a gallop from its directory entry to the group,
// the block within it, then the set bit of the right rank in the block's mask) and fetches its pair into an RG32UI texture
// in the keys' layout. The last digit writes only the input positions; two gathers then move the keys
// and the values. No float mipmaps, no blending: counts are uint32 scans.
// Scattering instead (one point per element, drawn at its new position) measured ~0.6 G points/s on
// an H100, vertex work alone ~1.7 G vertices/s (bench/scatter-probe.ts): 1.7 ms per digit at 2^20,
// against 0.09 ms for a full-screen copy pass of the same elements.
import radixBlockCounts from '../glsl/radix-block-counts.frag';
import radixDigitMasks from '../glsl/radix-digit-masks.frag';
import radixDigits from '../glsl/radix-digits.frag';
import radixDirectory from '../glsl/radix-directory.frag';
import radixMove from '../glsl/radix-move.frag';
import radixOrderFragment from '../glsl/radix-order.frag';
import radixSelect from '../glsl/radix-select.frag';
import radixUnpair from '../glsl/radix-unpair.frag';
import { gather, type IndexLanes } from './gather.js';
import type { Gpu } from './gpu.js';
import type { Defines } from './programs.js';
import { compactLayoutFor, groupsLayout, log2Exact, type Layout } from './layout.js';
import type { RenderTarget } from './render-target.js';
import { defaultScan, scanAlgorithms, type ScanAlgorithmEntry } from './scan/algorithms.js';
import { globalScan } from './scan/global-scan.js';
import { lengthUniforms, type StreamView } from './stream.js';
import { COUNT_FORMAT, PAIR_FORMAT, texelFormats } from './texel-format.js';

/**
 * Bits per digit (2 or 4): 2^digitBits buckets, a digit pass per digitBits bits of key. 4 halves the
 * digit passes of 2 for a scan of 4 times the counts and 4 times the masks per block; on an H100
 * 4 bits sorted 2^20 / 2^24 uint32 keys with values in 9.8 / 147 ms against 12.6–16.6 / 192–212
 * (docs/performance.md, issue 22). Tunable (bench/sort-probe.ts --digit-bits).
 */
export const SORT_RADIX: { digitBits: 2 | 4 } = { digitBits: 4 };
/** Elements per block (log2): two 32-bit mask words per digit (the shaders' `<< 6`). */
const BLOCK_LOG2 = 6;
/**
 * Blocks per counted group (log2): the counts pass counts each digit per group of 2^groupLog2 blocks,
 * and the searches count the masks of the few blocks within a group themselves
 * (glsl/radix-rank.glsl blockIn), so the counts' scan is 2^groupLog2 times smaller. 0 counts every
 * block. Tunable (bench/sort-probe.ts --count-groups).
 */
export const SORT_COUNTS: { groupLog2: number } = { groupLog2: 2 };
/**
 * For streams of at least `fromElements` texels, one directory entry per 2^shift outputs (a binary
 * search over all counted groups each) from which the move pass gallops; smaller ones search all groups,
 * a pass fewer per digit. Tunable (bench/sort-probe.ts --shifts).
 */
export const SORT_DIRECTORY = { shift: 3, fromElements: 2 ** 18 };
/**
 * Where a pass writes 4 or more attachments, a select pass per digit finds where the elements of
 * consecutive outputs are (one search, then a walk along the digit's masks: glsl/radix-select.frag),
 * with no move pass's directory (its own: `directoryShift` below). `writes`: 'pairs' (2 × attachments outputs per fragment, their pairs written
 * where the next digit reads them: no move pass) or 'positions' (4 × attachments per fragment, and a
 * move pass fetches the pair at each; H200 egl, uint32 keys + values, 2^20 / 2^22 / 2^24: 6.9 / 25.9 /
 * 96.5 ms against 6.4 / 23.1 / 91.3 for 'pairs'). `queue`: masks the select fetches ahead of its
 * walk, 1 (below; it was 3: 2^24 86.0 ms against 88.5 with 7; then, once a fragment placed 8 pairs, 2:
 * H200 egl, after 1 s of calls, both orders, four runs, 2^20 5.06-5.31 -> 4.99-5.18 ms, 2^22
 * 17.87-18.04 -> 17.67-18.03, one run at 2^24 67.3 -> 66.6; 16-bit keys within the spread either way). `directoryShift`: for streams of at least
 * `directoryFrom` texels, a directory pass notes the group of every 2^directoryShift-th output
 * (glsl/radix-directory.frag) and each select fragment gallops from its entry instead of searching
 * all groups. H100 egl, uint32 keys + values, two runs: 2^24 73.2-73.4 -> 70.4 ms (every 2^8:
 * 70.6), 2^22 19.8 -> 19.3-19.5; 2^20 second run 5.64 -> 5.53-5.58, first 5.85 -> 18-23 (spikes), a
 * later call 5.62-5.66 -> 5.60-5.68: no gain there, so it started at 2^21. Since the select places 8
 * pairs per fragment (`planes`), twice the searches: H200 egl, 2^20, after 2 s of calls, both orders,
 * four runs: 5.11-5.23 -> 4.92-5.04 ms (after 500 ms of calls and 2^19: 5.04-5.13 -> 4.98-5.00; 2^19
 * unchanged), so from 2^20. 0: no directory; otherwise log2(4 × attachments) to 12 (checked at
 * every call that runs a select). `planes`: where passes write 8 attachments, the select placing the
 * pairs writes them on 4 (8 outputs per fragment) and the next digit's bit planes of its outputs on
 * a fifth (glsl/radix-select.frag NEXT_PLANES), from which the next digit's masks pass makes the
 * masks (PLANES_FROM_SELECT): no digits pass after the first digit. H200 egl, uint32 keys + values,
 * same call, three runs: 2^20 5.52-5.58 -> 5.28-5.40 ms, 2^22 18.9-19.0 -> 18.0, 2^24 70.0-70.3 ->
 * 67.9-68.0 (16-bit keys 42.0-42.1 -> 40.2-40.4); the select's 8 outputs per fragment cost what 16
 * did.
 * `planesTexture`: those planes (one word per 8 outputs) go to an R32UI texture of their own, the
 * pairs target's companion (render-target.ts: attached after its layers, pooled with it), instead of a
 * fifth RGBA32UI layer of the pairs, which wrote 24 MiB of zeros per digit at 2^24. H200 egl, uint32
 * keys + values, A B B A: 2^24 59.99 / 60.02 -> 59.68 / 59.66 ms (and 60.33-60.34 -> 60.11-60.12 on
 * another machine with the textures attached per draw, which cost 72 GL calls per sort), 2^20
 * unchanged (4.6-4.8); off only to compare (bench/sort-probe.ts --planes layer).
 * `carry`: where the select places the pairs and the keys are integers (their sort keys turn back
 * into them; a float NaN's does not) and the values have one component or none, the pairs carry the
 * values' bits instead of the input positions and the last digit's select places them too, so a
 * copy in output order (glsl/radix-unpair.frag, writing the keys and the values at once) replaces
 * the gathers of the keys and the values.
 * `queue` 1 since 2026-11-28 (glsl/radix-select.frag SELECT_QUEUE), timed on an H200 only (NVIDIA
 * over OpenGL ES; a GPU whose fetches wait longer may prefer 2): two registers fewer per fragment than 2, each advance waiting for the mask fetched at
 * the advance before (a fragment of 8 outputs walks about two blocks). H200 egl, uint32 keys +
 * values, four processes A B B A: 2^24 60.84-60.90 -> 60.05-60.07 ms, 2^22 16.25-16.27 -> 16.07-16.10,
 * 2^20 4.84-4.85 -> 4.71-4.73 (docs/performance.md).
 * `enabled` off, 'positions', `planes` off, `carry` off, queues 2, 3 and 7 only to compare (bench/sort-probe.ts --select,
 * --planes, --carry, --queues, --select-directory).
 */
export const SORT_SELECT: { enabled: boolean; writes: 'pairs' | 'positions'; planes: boolean; planesTexture: boolean; carry: boolean; queue: 1 | 2 | 3 | 7; directoryShift: number; directoryFrom: number } = {
  enabled: true,
  writes: 'pairs',
  planes: true,
  planesTexture: true,
  carry: true,
  queue: 1,
  directoryShift: 6,
  directoryFrom: 2 ** 20,
};

export interface SortPlan {
  descending: boolean;
  /** Low key bits compared (32, or fewer for uint32 keys known to fit). */
  bits: number;
}

/** The sorted keys and, when given, the values moved with them, in the keys' layout. */
export function radixSort(gpu: Gpu, keys: StreamView, values: StreamView | undefined, plan: SortPlan, maxTextureSize: number): { keys: RenderTarget; values: RenderTarget | undefined } {
  const carry = SORT_SELECT.carry && keys.type !== 'float32' && (values === undefined || values.format.components === 1);
  return digitPasses(gpu, keys, plan, maxTextureSize, (order) => {
    if (order.pairs) {
      // The last select placed the sorted (sort key, value) pairs: one pass copies both words out.
      const pairs = order.pairs;
      const length = lengthUniforms(keys);
      const defines = { PAIR_LAYERS: pairs.layers, LENGTH_FROM_TEXTURE: keys.length === undefined, INT_VALUES: keys.type === 'int32', DESCENDING: plan.descending };
      return gpu.scope((scope) => {
        const target = () => scope.target(keys.layout.width, keys.layout.height, COUNT_FORMAT);
        const sortedKeys = target();
        const sortedValues = values ? target() : undefined;
        const program = gpu.program({ name: 'radix-unpair.frag', fragment: radixUnpair, defines: { ...defines, VALUES: sortedValues !== undefined } });
        const uniforms = { u_pairs: pairs.texture, u_pairsWidthLog2: pairs.widthLog2, u_widthLog2: keys.layout.widthLog2, ...length };
        if (sortedValues) gpu.passInto(program, [sortedKeys, sortedValues], uniforms);
        else gpu.pass(program, sortedKeys, uniforms);
        return { keys: scope.keep(sortedKeys), values: sortedValues ? scope.keep(sortedValues) : undefined };
      });
    }
    // The input positions in sorted order: the keys and the values follow them. With lanes, the
    // gathers read them there and the view gives only the layout and length of the output.
    const indices = { ...keys, target: order.lanes ? undefined : order.target, type: 'uint32' as const, format: COUNT_FORMAT };
    return gpu.scope((scope) => {
      const sortedKeys = scope.own(gather(gpu, keys, indices, order.lanes));
      const sortedValues = values ? scope.own(gather(gpu, values, indices, order.lanes)) : undefined;
      return { keys: scope.keep(sortedKeys), values: sortedValues ? scope.keep(sortedValues) : undefined };
    });
  }, carry ? { values } : undefined);
}

/**
 * The input positions in sorted order (stable), in the keys' layout (R32UI): engine.argsort(). Where
 * the last select wrote them in its lanes, one pass copies them out (glsl/radix-order.frag);
 * otherwise the last digit's move already wrote them there.
 */
export function radixOrder(gpu: Gpu, keys: StreamView, plan: SortPlan, maxTextureSize: number): RenderTarget {
  return digitPasses(gpu, keys, plan, maxTextureSize, (order) => {
    if (!order.lanes) return order.take();
    const { widthLog2 } = keys.layout;
    const program = gpu.program({ name: 'radix-order.frag', fragment: radixOrderFragment, defines: { LANES: order.lanes.lanes, LENGTH_FROM_TEXTURE: keys.length === undefined } });
    const length = lengthUniforms(keys);
    return gpu.scope((scope) => {
      const out = scope.target(keys.layout.width, keys.layout.height, COUNT_FORMAT);
      gpu.pass(program, out, { u_lanes: order.lanes!.texture, u_lanesWidthLog2: order.lanes!.widthLog2, u_widthLog2: widthLog2, ...length });
      return scope.keep(out);
    });
  });
}

/**
 * What the digits leave: the input positions in sorted order, either in the keys' layout (`target`,
 * R32UI) or, where the last select wrote them, in its lanes (`lanes`, whose texture is `target`);
 * or, with `carry`, the sorted pairs themselves (`pairs`, whose texture is `target`).
 * `take()` hands `target` over to the caller (it is otherwise freed once `finish` returns).
 */
interface SortedOrder {
  target: RenderTarget;
  lanes: IndexLanes | undefined;
  /** Where the last select placed the pairs (`carry`): `layers` layers of `target`, two pairs per texel of each. */
  pairs: { texture: WebGLTexture; widthLog2: number; layers: number } | undefined;
  take(): RenderTarget;
}

/**
 * The digit passes of the sort; `finish` makes the outputs from the order they leave, before it is
 * freed. With `carry` (where the select places the pairs) the pairs carry the bits of `carry.values`
 * (input positions where there are none) and the last select places them too (SortedOrder.pairs).
 */
function digitPasses<T>(gpu: Gpu, keys: StreamView, plan: SortPlan, maxTextureSize: number, finish: (order: SortedOrder) => T, carry?: { values: StreamView | undefined }): T {
  const { width, height, widthLog2, capacity } = keys.layout;
  const digitBits = SORT_RADIX.digitBits;
  const pairsLog2 = digitBits - 1;
  const quads = 2 ** digitBits / 4;
  const large = capacity >= SORT_DIRECTORY.fromElements;
  const groupLog2 = SORT_COUNTS.groupLog2;
  // The masks pass writes this many pairs of digits per fragment, one per attachment (layer).
  const maskLayers = Math.min(gpu.drawBuffers, 2 ** pairsLog2);
  // radix-digit-masks.frag writes 1, 2, 4 or 8 layers, and each fragment a whole number of pairs.
  if (![1, 2, 4, 8].includes(maskLayers)) throw new Error(`radixSort: ${gpu.drawBuffers} draw buffers give ${maskLayers} mask layers; 1, 2, 4 or 8 expected`);
  if (!Number.isInteger(groupLog2) || groupLog2 < 0 || groupLog2 > 4) throw new Error(`radixSort: SORT_COUNTS.groupLog2 must be an integer from 0 to 4; got ${groupLog2}`);
  // An entry per fragment at least (a select fragment places up to 4 × attachments outputs: the last
  // digit's where it writes input positions; the others 2 × or fewer): a closer spacing would make more searches than it saves. At most 2^12
  // outputs apart, so a gallop stays within a few dozen groups (a group holds ~16 of a digit's elements).
  const shiftRange = [Math.log2(4 * gpu.drawBuffers), 12];
  if (SORT_SELECT.enabled && gpu.drawBuffers >= 4 && SORT_SELECT.directoryShift !== 0 && !(Number.isInteger(SORT_SELECT.directoryShift) && SORT_SELECT.directoryShift >= shiftRange[0]! && SORT_SELECT.directoryShift <= shiftRange[1]!)) {
    throw new Error(`radixSort: SORT_SELECT.directoryShift must be 0 (no directory) or an integer from ${shiftRange[0]} (log2 of the ${4 * gpu.drawBuffers} outputs a select fragment places at most with ${gpu.drawBuffers} attachments) to ${shiftRange[1]}; got ${SORT_SELECT.directoryShift}`);
  }
  const common = {
    FLOAT_VALUES: keys.type === 'float32',
    INT_VALUES: keys.type === 'int32',
    DESCENDING: plan.descending,
    LENGTH_FROM_TEXTURE: keys.length === undefined,
    BUCKETS: 2 ** digitBits,
    PAIRS_LOG2: pairsLog2,
    QUADS: quads,
    DIGIT_BITS: digitBits,
    PER_UINT: 32 / digitBits,
    GROUP_LOG2: groupLog2,
    MASK_LAYERS: maskLayers,
  };
  const length = lengthUniforms(keys);
  const blockCount = Math.ceil(capacity / 2 ** BLOCK_LOG2);
  const groupCount = Math.ceil(blockCount / 2 ** groupLog2);
  // The digits' planes, 128 / digitBits elements to a texel (a block of 64 in digitBits / 2 texels), the
  // directory and the select's positions: each texel stands for a run of consecutive elements (or
  // outputs), row-aligned so that a row of fragments reads one row of the keys
  // (layout.ts#groupsLayout; H200 egl, 2^22 uint32 keys + values: the digits passes 6.48 -> 2.11 ms,
  // the moves 10.3 -> 9.0). The masks and the counts keep rows as wide as allowed: the select walks
  // along consecutive blocks (row-aligned, they were slower: 8.2 -> 9.7 ms), and the counts' quads
  // follow one another (rows of up to 2048: the summing tree adds its groups along a row). The masks
  // lie pair after pair of digits (a pair per layer where there are layers), block after block within a pair (radix-masks.glsl), so a walk
  // along one digit's masks reads neighbouring texels (they lay pair after pair within a block:
  // 2^24 uint32 keys + values 91.2 -> 87.5 ms, 2^22 23.2 -> 22.8, 2^20 unchanged).
  const packed = groupsLayout(capacity, widthLog2, log2Exact(128 / digitBits));
  const masks = compactLayoutFor((blockCount << pairsLog2) / maskLayers, maxTextureSize);
  const counts = compactLayoutFor(groupCount * quads, maxTextureSize);
  const scanEntry = scanAlgorithms[defaultScan(undefined)] as ScanAlgorithmEntry;
  const countsProgram = gpu.program({ name: 'radix-block-counts.frag', fragment: radixBlockCounts, defines: common });
  const masksProgram = gpu.program({ name: 'radix-digit-masks.frag', fragment: radixDigitMasks, defines: common });
  const select = SORT_SELECT.enabled && gpu.drawBuffers >= 4;
  const writes = select ? SORT_SELECT.writes : undefined;
  const attachments = gpu.drawBuffers;
  // Where the select places the pairs with the next digit's planes beside them: the pairs on 4
  // layers and the planes on a fifth attachment (so from 5 attachments: 8 in the browsers), the
  // pairs target's companion or its fifth layer (planesTexture below); this is that attachment.
  const planesLayer = writes === 'pairs' && SORT_SELECT.planes && attachments >= 5 ? 4 : undefined;
  const pairLayers = planesLayer ?? attachments;
  // The select pass's texels: 4 × attachments positions each (per texel of each layer), or
  // 2 × pairLayers pairs where it moves the pairs itself.
  const positions = select ? groupsLayout(capacity, widthLog2, log2Exact(4 * attachments)) : undefined;
  const selected = writes === 'pairs' ? groupsLayout(capacity, widthLog2, log2Exact(2 * pairLayers)) : undefined;
  // The planes on a texture of their own (SORT_SELECT.planesTexture) or on the pairs' fifth layer,
  // also where the context cannot write RGBA32UI layers and an R32UI texture in one pass (OpenGL ES
  // 3.0 lets a driver refuse formats mixed in a framebuffer: engine.caps.mixedFormatAttachments).
  const planesTexture = planesLayer !== undefined && SORT_SELECT.planesTexture && gpu.mixedFormatAttachments;
  const planesMasksProgram = planesLayer === undefined ? undefined : gpu.program({ name: 'radix-digit-masks.frag', fragment: radixDigitMasks, defines: { ...common, PLANES_FROM_SELECT: planesLayer, PLANES_TEXTURE: planesTexture } });
  // A directory (glsl/radix-directory.frag) for whichever pass searches per digit: the select's
  // (SORT_SELECT.directoryShift, from SORT_SELECT.directoryFrom texels) or the move's
  // (SORT_DIRECTORY.shift, from SORT_DIRECTORY.fromElements). Undefined: each search spans all groups.
  const directoryShift = select
    ? SORT_SELECT.directoryShift > 0 && capacity >= SORT_SELECT.directoryFrom ? SORT_SELECT.directoryShift : undefined
    : large ? SORT_DIRECTORY.shift : undefined;
  const directory = directoryShift === undefined ? undefined : {
    shift: directoryShift,
    layout: groupsLayout(capacity, widthLog2, directoryShift),
    program: gpu.program({ name: 'radix-directory.frag', fragment: radixDirectory, defines: { ...common, DIRECTORY_SHIFT: directoryShift } }),
  };
  const digits = Math.ceil(plan.bits / digitBits);
  // Each digit's pairs outlive its scope (they are the next digit's input) and are freed once the
  // next digit has placed them; a failure frees whatever is held.
  let current: RenderTarget | undefined;
  // Set by the last digit where its select wrote the input positions (after selects that placed the pairs).
  let lastLanes: IndexLanes | undefined;
  // Set by the last digit where its select placed the carried pairs.
  let lastPairs: SortedOrder['pairs'];
  try {
    for (let digit = 0; digit < digits; digit++) {
      const shift = digit * digitBits;
      const last = digit === digits - 1;
      // After a select that placed the pairs, they lie in its layers (radix-element.glsl).
      const fromSelected = selected !== undefined && digit > 0;
      const stage = { ...common, FIRST_DIGIT: digit === 0, LAST_DIGIT: last, ELEMENT_LAYERS: fromSelected ? pairLayers : false };
      const elements = { u_elements: (current ?? keys.target).texture, u_widthLog2: fromSelected ? selected.widthLog2 : widthLog2, u_shift: shift, ...length };
      const next = gpu.scope((scope) => {
        const digitMasks = scope.target(masks.width, masks.height, texelFormats.rgba32ui, maskLayers);
        const masksTarget = { u_masksWidthLog2: masks.widthLog2, u_blocks: blockCount, ...length };
        if (fromSelected && planesMasksProgram) {
          // The previous digit's select wrote this digit's planes beside the pairs.
          // (On its companion texture, or on its fifth layer: SORT_SELECT.planesTexture.)
          const planes = planesTexture ? current!.companion : current!.texture;
          if (!planes) throw new Error('internal: the select wrote no planes texture beside its pairs');
          gpu.pass(planesMasksProgram, digitMasks, { u_digits: planes, u_digitsWidthLog2: selected.widthLog2, ...masksTarget });
        } else {
          const digitsProgram = gpu.program({ name: 'radix-digits.frag', fragment: radixDigits, defines: stage });
          const packedDigits = scope.target(packed.width, packed.height, texelFormats.rgba32ui);
          gpu.pass(digitsProgram, packedDigits, { ...elements, u_digitsWidthLog2: packed.widthLog2 });
          gpu.pass(masksProgram, digitMasks, { u_digits: packedDigits.texture, u_digitsWidthLog2: packed.widthLog2, ...masksTarget });
        }
        const masksUniforms = { u_masks: digitMasks.texture, u_masksWidthLog2: masks.widthLog2, u_blocks: blockCount };
        const ranks = scope.own(runningCounts(gpu, countsProgram, scanEntry, { counts, groupCount, masksUniforms, length, maxTextureSize }));
        const rankUniforms = { u_ranks: ranks.texture, u_ranksWidthLog2: counts.widthLog2, u_groups: groupCount, ...length };
        // The directory's entries, and what the pass that gallops from them (the select, or the move
        // without a select) adds to its defines and uniforms.
        let find: { defines: Defines; uniforms: Record<string, unknown> } = { defines: {}, uniforms: {} };
        if (directory) {
          const entries = scope.target(directory.layout.width, directory.layout.height, COUNT_FORMAT);
          gpu.pass(directory.program, entries, { ...rankUniforms, u_directoryWidthLog2: directory.layout.widthLog2 });
          find = { defines: { DIRECTORY: true, DIRECTORY_SHIFT: directory.shift }, uniforms: { u_directory: entries.texture, u_directoryWidthLog2: directory.layout.widthLog2 } };
        }
        if (selected && (!last || carry)) {
          // The select places the pairs: the next digit reads them where they are (or, after the
          // last digit, the outputs are copied out of them; on the pairs' layers, with no planes
          // beside them: on all 8, 16 outputs per fragment, H200 egl, 2^24 uint32 keys + values
          // 65.4-65.5 -> 66.4-66.5 ms, 16-bit keys 37.9-38.0 -> 38.7-38.8). The first digit's carry the values.
          const nextPlanes = planesLayer !== undefined && !last;
          const carried = carry?.values !== undefined && digit === 0;
          // The planes after the pairs' layers: on the companion (one word per texel:
          // radix-select.frag's outPositions[4].x), or on a fifth layer.
          const companion = nextPlanes && planesTexture ? texelFormats.r32ui : undefined;
          const pairs = scope.target(selected.width, selected.height, texelFormats.rgba32ui, pairLayers + (nextPlanes && !companion ? 1 : 0), companion);
          const selectProgram = gpu.program({ name: 'radix-select.frag', fragment: radixSelect, defines: { ...stage, ATTACHMENTS: pairLayers, WRITE_PAIRS: true, NEXT_PLANES: nextPlanes, CARRY_VALUES: carried, SELECT_QUEUE: SORT_SELECT.queue, ...find.defines } });
          gpu.pass(selectProgram, pairs, { ...elements, ...(carried ? { u_values: carry.values!.target.texture } : {}), ...masksUniforms, ...rankUniforms, ...find.uniforms, u_positionsWidthLog2: selected.widthLog2 });
          if (last) lastPairs = { texture: pairs.texture, widthLog2: selected.widthLog2, layers: pairLayers };
          return scope.keep(pairs);
        }
        let findUniforms: Record<string, unknown> = find.uniforms;
        let moveDefines: Defines = { ...stage, ...find.defines };
        if (positions) {
          // The last digit after selects that placed the pairs: the select writes the input
          // positions. Otherwise ('positions' writes) the positions in the current order, from
          // which the move fetches each output's pair.
          const indices = selected !== undefined;
          const positionsTarget = scope.target(positions.width, positions.height, texelFormats.rgba32ui, attachments);
          const selectProgram = gpu.program({ name: 'radix-select.frag', fragment: radixSelect, defines: { ...(indices ? stage : common), ATTACHMENTS: attachments, WRITE_INDICES: indices, SELECT_QUEUE: SORT_SELECT.queue, ...find.defines } });
          gpu.pass(selectProgram, positionsTarget, { ...(indices ? elements : {}), ...masksUniforms, ...rankUniforms, ...find.uniforms, u_positionsWidthLog2: positions.widthLog2 });
          if (indices) {
            // The gathers read the input positions where the select wrote them (gather.ts
            // IndexLanes): no move pass copies them into the keys' layout first.
            lastLanes = { texture: positionsTarget.texture, widthLog2: positions.widthLog2, lanes: 4 * attachments };
            return scope.keep(positionsTarget);
          }
          findUniforms = { u_positions: positionsTarget.texture, u_positionsWidthLog2: positions.widthLog2 };
          moveDefines = { ...stage, POSITIONS: true, ATTACHMENTS: attachments };
        }
        const moveProgram = gpu.program({ name: 'radix-move.frag', fragment: radixMove, defines: moveDefines });
        const moved = scope.target(width, height, last ? COUNT_FORMAT : PAIR_FORMAT);
        // With the select's positions the move reads only those and the elements.
        gpu.pass(moveProgram, moved, { ...elements, ...(positions ? {} : { ...masksUniforms, ...rankUniforms }), ...findUniforms });
        return scope.keep(moved);
      });
      current?.free();
      current = next;
    }
    const target = current!;
    return finish({
      target,
      lanes: lastLanes,
      pairs: lastPairs,
      take: () => {
        current = undefined;
        return target;
      },
    });
  } finally {
    current?.free();
  }
}

/** Every counted group's running count of each digit (inclusive), quad after quad; totals at each quad's last group. */
function runningCounts(
  gpu: Gpu,
  countsProgram: ReturnType<Gpu['program']>,
  scanEntry: ScanAlgorithmEntry,
  at: { counts: Layout; groupCount: number; masksUniforms: Record<string, unknown>; length: Record<string, unknown>; maxTextureSize: number },
): RenderTarget {
  return gpu.scope((scope) => {
    const counts = scope.target(at.counts.width, at.counts.height, texelFormats.rgba32ui);
    gpu.pass(countsProgram, counts, { ...at.masksUniforms, u_groups: at.groupCount, u_countsWidthLog2: at.counts.widthLog2, ...at.length });
    const input = { texture: counts.texture, width: at.counts.width, height: at.counts.height, format: texelFormats.rgba32ui };
    const options = { floatValues: false, exclusive: false, radix: 4 };
    return scanEntry.wholeStream
      ? scanEntry.wholeStream(gpu, input, options)
      : globalScan(gpu, input, { ...options, blockScan: scanEntry.blockScan, maxTextureSize: at.maxTextureSize });
  });
}
