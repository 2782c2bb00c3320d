// engine.sort() (issue 22): per call times of the radix sort at each size with each digit width
// (SORT_RADIX.digitBits) and directory spacing (SORT_DIRECTORY.shift: one binary search per 2^shift
// outputs, a gallop from it for the others), uint32 keys with a uint32 index payload and 16-bit keys (`bits: 16`) with the same,
// as splat viewers sort; each result checked against the CPU's stable sort once. With --profile, each
// pass's time at the largest size (each draw fenced by gl.finish()).
// Usage: node bench/build-probe.mjs sort-probe && bash scripts/with-display.sh node bench/tmp/sort-probe.mjs
//          [--sizes 16,20,22] [--digit-bits 2,4] [--shifts 3,4,5] [--select pairs,positions,off] [--queues 3,7] [--count-groups 0,2,3] [--select-directory 0,6,8]
//          [--planes on,layer,off] [--carry on,off] [--tree-shapes 8/64/256,64/64/1024] [--lanes-above 524288,4096] [--draw-buffers 4] [--repeats 5] [--batch 3] [--warmup-ms 0] [--profile]
//          [--profile-size 20] [--distinct 16] [--no-check] [--out DIR]
import { parseArgs } from 'node:util';
import { gpuOf } from '../src/internal.js';
import { SORT_COUNTS, SORT_DIRECTORY, SORT_RADIX, SORT_SELECT } from '../src/sort.js';
import { TREE_SHAPE, type TreeShape } from '../src/scan/summing-tree.js';
import { LANES_SHAPE } from '../src/scan/reduce-then-scan.js';
import { passTimes, perCall as timePerCall, probeEngine, writeProbeJson } from './probe-timing.js';

const { values: options } = parseArgs({
  allowNegative: true,
  options: {
    sizes: { type: 'string', default: '16,20,22' },
    'digit-bits': { type: 'string', default: '4' },
    'profile-size': { type: 'string' },
    check: { type: 'boolean', default: true },
    shifts: { type: 'string', default: '3,4,5' },
    // With 4+ draw buffers: the select pass per digit placing the pairs ('pairs') or writing their
    // positions for a move pass ('positions'); or the directory and a search per output ('off').
    select: { type: 'string', default: 'pairs,positions,off' },
    // The summing tree's shapes (bottom fan-in/fan-in/top entries) tried for the counts' scan (where
    // it is the summing tree: up to 2^19 texels of counts, and at every size on one attachment, its
    // counts having four components), e.g. 8/64/256,64/64/1024.
    'tree-shapes': { type: 'string' },
    // Texel counts above which whole-stream scans take lanes (LANES_SHAPE.aboveTexels), tried in turn
    // for the counts' scan, e.g. 524288,4096.
    'lanes-above': { type: 'string' },
    // Attachments per pass the sort may use (at most what the context writes): 4 shows what WebGL2's
    // minimum gives on the same GPU.
    'draw-buffers': { type: 'string' },
    // Where passes write 8 attachments, the pairs-placing select writing the next digit's planes
    // beside the pairs (SORT_SELECT.planes): on (on an R32UI texture of their own,
    // SORT_SELECT.planesTexture), layer (on a fifth layer of the pairs, as until 2026-11-28) or off;
    // one or several.
    planes: { type: 'string', default: SORT_SELECT.planes ? 'on' : 'off' },
    // Where the select places the pairs, integer keys' pairs carrying the values and the last select
    // placing them too, so no gathers (SORT_SELECT.carry): on, off or both.
    carry: { type: 'string', default: SORT_SELECT.carry ? 'on' : 'off' },
    // The select's queue of masks fetched ahead (SORT_SELECT.queue): 1, 2, 3 or 7, one or several.
    queues: { type: 'string', default: String(SORT_SELECT.queue) },
    // The select's directory spacing, log2 outputs (SORT_SELECT.directoryShift), at every size: 0
    // searches all groups. Not given: the engine's default (a directory from SORT_SELECT.directoryFrom).
    'select-directory': { type: 'string' },
    // Blocks per counted group, log2 (SORT_COUNTS.groupLog2): 0 counts every block.
    'count-groups': { type: 'string', default: String(SORT_COUNTS.groupLog2) },
    // Keys drawn from this many distinct values (0: every key random). Few distinct keys send many
    // select fragments to the fallback (a digit changing among their outputs, or sparse masks).
    distinct: { type: 'string', default: '0' },
    repeats: { type: 'string', default: '5' },
    // Calls before each timing (ms of them): the GPU at its working clocks (probe-timing.ts perCall).
    'warmup-ms': { type: 'string', default: '0' },
    batch: { type: 'string', default: '3' },
    profile: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
/** A bad argument: say which and how to call the probe, exit 2 (nothing measured). */
function refuse(message: string): never {
  console.error(`sort-probe: ${message}\n(see the usage at the top of bench/sort-probe.ts)`);
  process.exit(2);
}
const integers = (name: string, text: string, ok: (v: number) => boolean): number[] => {
  const list = text.split(',').map(Number);
  if (list.length === 0 || !list.every((v) => Number.isInteger(v) && ok(v))) refuse(`--${name}: got ${text}`);
  return list;
};
const sizes = integers('sizes', options.sizes, (v) => v >= 1 && v <= 26);
const shifts = integers('shifts', options.shifts, (v) => v >= 0 && v <= 10);
const queues = integers('queues', options.queues, (v) => v === 1 || v === 2 || v === 3 || v === 7);
// 0, or from log2 of a last-digit select fragment's outputs (4 × attachments) to 12; the engine checks
// the bound against the attachments in use (src/sort.ts), so 4 passes here for --draw-buffers 4.
const selectDirectories: Array<number | undefined> = options['select-directory'] === undefined ? [undefined] : integers('select-directory', options['select-directory'], (v) => v === 0 || (v >= 4 && v <= 12));
const selectDefaults = { ...SORT_SELECT };
const countGroups = integers('count-groups', options['count-groups'], (v) => v >= 0 && v <= 4);
const digitWidths = integers('digit-bits', options['digit-bits'], (v) => v === 2 || v === 4);
const planesList = options.planes.split(',');
for (const v of planesList) if (v !== 'on' && v !== 'layer' && v !== 'off') refuse(`--planes: on, layer or off, one or several; got ${options.planes}`);
const carryList = options.carry.split(',');
for (const v of carryList) if (v !== 'on' && v !== 'off') refuse(`--carry: on, off or both; got ${options.carry}`);
const distinct = Number(options.distinct);
if (!/^\d+$/.test(options.distinct) || !Number.isSafeInteger(distinct)) refuse(`--distinct: a count of distinct keys, 0 for all random; got ${options.distinct}`);
const keysNote = distinct > 0 ? ` (${distinct} distinct)` : '';
const [repeats] = integers('repeats', options.repeats, (v) => v >= 1);
const [batch] = integers('batch', options.batch, (v) => v >= 1);
const [warmupMs] = integers('warmup-ms', options['warmup-ms'], (v) => v >= 0);
const selects = options.select.split(',');
for (const select of selects) if (!['pairs', 'positions', 'off'].includes(select)) refuse(`--select: pairs, positions or off; got ${options.select}`);
const treeShapes: Array<TreeShape | undefined> = options['tree-shapes'] === undefined ? [undefined] : options['tree-shapes'].split(',').map((text) => {
  const [bottomFanIn, fanIn, topEntries] = text.split('/').map(Number);
  if (![bottomFanIn, fanIn, topEntries].every((v) => Number.isInteger(v) && v! > 0 && (v! & (v! - 1)) === 0)) refuse(`--tree-shapes: powers of two bottom/fanIn/top, comma-separated; got ${text}`);
  return { bottomFanIn: bottomFanIn!, fanIn: fanIn!, topEntries: topEntries! };
});
const defaultShape = { ...TREE_SHAPE };
const lanesAbove: number[] = options['lanes-above'] === undefined ? [LANES_SHAPE.aboveTexels] : options['lanes-above'].split(',').map(Number);
for (const t of lanesAbove) if (!Number.isInteger(t) || t < 0) refuse(`--lanes-above: texel counts, comma-separated; got ${options['lanes-above']}`);
// Every combination asked for; the directory's spacing matters only without the select pass.
const variants: Array<{ digitBits: number; shift: number; select: string; shape: TreeShape | undefined; queue: number; above: number; groupLog2: number; selectDirectory: number | undefined; planes: boolean; planesTexture: boolean; carry: boolean }> = [];
for (const digitBits of digitWidths) {
  for (const select of selects) {
    for (const shift of select === 'off' ? shifts : [shifts[0]!]) {
      for (const shape of treeShapes) for (const queue of queues) for (const above of lanesAbove) for (const groupLog2 of countGroups) for (const selectDirectory of select === 'off' ? [undefined] : selectDirectories) for (const planes of select === 'pairs' ? planesList : ['off']) for (const carry of select === 'pairs' ? carryList : ['off']) variants.push({ digitBits, shift, select, shape, queue, above, groupLog2, selectDirectory, planes: planes !== 'off', planesTexture: planes !== 'layer', carry: carry === 'on' });
    }
  }
}
const profileSize = options['profile-size'] === undefined ? Math.max(...sizes) : integers('profile-size', options['profile-size'], (v) => sizes.includes(v))[0]!;

const { engine, renderer } = probeEngine();
if (options['draw-buffers'] !== undefined) {
  const wanted = Number(options['draw-buffers']);
  if (![1, 4, 8].includes(wanted) || wanted > engine.caps.drawBuffers) {
    refuse(`--draw-buffers: 1, 4 or 8, at most this context's ${engine.caps.drawBuffers}; got ${options['draw-buffers']}`);
  }
  gpuOf(engine).drawBuffers = wanted as 1 | 4 | 8;
}
console.log(`renderer: ${renderer}; ${gpuOf(engine).drawBuffers} attachments per pass; batches of ${batch}, median of ${repeats}${warmupMs > 0 ? `, after ${warmupMs} ms of calls` : ''}`);

const perCall = (run: () => void) => timePerCall(engine, run, { repeats, batch, warmupMs });

const rows: Array<{ what: string; log2n: number; shift: number; digitBits?: number; select?: string; planes?: boolean; planesTexture?: boolean; carry?: boolean; queue?: number; groupLog2?: number; selectDirectory?: number; treeShape?: TreeShape; ms: number; issueMs?: number }> = [];
const profile: Record<string, number> = {};
for (const log2n of sizes) {
  const n = 2 ** log2n;
  let seed = log2n;
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
  for (const bits of [32, 16]) {
    const draw = () => (bits === 32 ? random() : random() >>> 16);
    const pool = Uint32Array.from({ length: distinct }, draw);
    const keys = Uint32Array.from({ length: n }, () => (distinct > 0 ? pool[random() % distinct]! : draw()));
    const indices = Uint32Array.from({ length: n }, (_, i) => i);
    // The CPU's stable order: by key, then by position.
    const order = Array.from(indices).sort((a, b) => keys[a] - keys[b] || a - b);
    // The host's own sort of the keys alone, in the same process (median of 3).
    const hostTimes: number[] = [];
    for (let r = 0; r < 3; r++) {
      const copy = Uint32Array.from(keys);
      const start = performance.now();
      copy.sort();
      hostTimes.push(performance.now() - start);
    }
    const hostMs = hostTimes.sort((a, b) => a - b)[1];
    rows.push({ what: `Uint32Array.prototype.sort, ${bits}-bit keys alone (host)`, log2n, shift: -1, ms: hostMs });
    console.log(`2^${log2n} Uint32Array.prototype.sort of the ${bits}-bit keys (host): ${hostMs.toFixed(2).padStart(8)} ms`);
    const keyStream = engine.stream(keys);
    const valueStream = engine.stream(indices);
    for (const { digitBits, shift, select, shape, queue, above, groupLog2, selectDirectory, planes, planesTexture, carry } of variants) {
      SORT_SELECT.planes = planes;
      SORT_SELECT.planesTexture = planesTexture;
      SORT_SELECT.carry = carry;
      Object.assign(SORT_SELECT, selectDirectory === undefined ? { directoryShift: selectDefaults.directoryShift, directoryFrom: selectDefaults.directoryFrom } : { directoryShift: selectDirectory, directoryFrom: 0 });
      LANES_SHAPE.aboveTexels = above;
      SORT_SELECT.queue = queue as 1 | 2 | 3 | 7;
      Object.assign(TREE_SHAPE as TreeShape, shape ?? defaultShape);
      SORT_RADIX.digitBits = digitBits as 2 | 4;
      SORT_COUNTS.groupLog2 = groupLog2;
      SORT_DIRECTORY.shift = shift;
      SORT_SELECT.enabled = select !== 'off';
      if (select !== 'off') SORT_SELECT.writes = select as typeof SORT_SELECT.writes;
      const variant = (select !== 'off' && gpuOf(engine).drawBuffers >= 4 ? `select pass (${select})` : `directory every 2^${shift}`) + (shape ? ` tree ${shape.bottomFanIn}/${shape.fanIn}/${shape.topEntries}` : '') + ((planesList.length > 1 || planesList[0] !== 'on') && select === 'pairs' ? (planes ? (planesTexture ? ' planes' : ' planes on a layer') : ' no planes') : '') + (carryList.length > 1 && select === 'pairs' ? (carry ? ' carry' : ' no carry') : '') + (queues.length > 1 ? ` queue ${queue}` : '') + (lanesAbove.length > 1 ? ` lanes above ${above}` : '') + (countGroups.length > 1 ? ` groups of 2^${groupLog2}` : '') + (selectDirectory !== undefined && select !== 'off' ? (selectDirectory > 0 ? ` directory every 2^${selectDirectory}` : ' no directory') : '');
      const sortOptions = { values: valueStream, ...(bits === 16 ? { bits: 16 } : {}) };
      const once = engine.sort(keyStream, sortOptions);
      const gotValues = await once.values!.read();
      const gotKeys = await once.keys.read();
      const wrong: number[] = [];
      for (let i = 0; i < n; i++) if (gotValues[i] !== order[i] || gotKeys[i] !== keys[order[i]]) wrong.push(i);
      if (wrong.length > 0 && options.check) {
        const show = wrong.slice(0, 6).map((i) => `position ${i}: element ${gotValues[i]} (key ${gotKeys[i]?.toString(16)}), the CPU says ${order[i]} (key ${keys[order[i]].toString(16)})`);
        throw new Error(`sort 2^${log2n} ${bits}-bit keys, ${digitBits}-bit digits, ${variant}: ${wrong.length} of ${n} positions wrong; ${show.join('; ')}`);
      }
      once.dispose();
      const what = `sort ${bits}-bit keys${keysNote} + uint32 values`;
      const ms = await perCall(() => engine.sort(keyStream, sortOptions).dispose());
      // The host's share: how long `batch` calls take to return (median of `repeats`), the GPU's work
      // left to finish after; a sort whose issue time nears its time per call is bound by the host.
      const issued: number[] = [];
      for (let r = 0; r < repeats; r++) {
        const start = performance.now();
        for (let k = 0; k < batch; k++) engine.sort(keyStream, sortOptions).dispose();
        issued.push((performance.now() - start) / batch);
        await engine.finish();
      }
      const issueMs = issued.sort((a, b) => a - b)[Math.floor(repeats / 2)]!;
      rows.push({ what, log2n, shift, digitBits, select, planes, planesTexture, carry, queue, groupLog2, selectDirectory, ...(shape ? { treeShape: shape } : {}), ms, issueMs });
      console.log(`2^${log2n} ${what.padEnd(34)} ${digitBits}-bit digits, ${variant}: ${ms.toFixed(2).padStart(8)} ms (calls return after ${issueMs.toFixed(2)} ms)`);
      // The order alone (engine.argsort: no values to move, no keys gathered), checked as the sort's values were.
      const argsortOptions = bits === 16 ? { bits: 16 } : {};
      const orderOnce = engine.argsort(keyStream, argsortOptions);
      const gotOrder = await orderOnce.read();
      orderOnce.dispose();
      const orderWrong = gotOrder.findIndex((v, i) => v !== order[i]);
      if (orderWrong >= 0 && options.check) throw new Error(`argsort 2^${log2n} ${bits}-bit keys, ${variant}: position ${orderWrong} holds ${gotOrder[orderWrong]}, the CPU says ${order[orderWrong]}`);
      const argsortWhat = `argsort ${bits}-bit keys${keysNote}`;
      const argsortMs = await perCall(() => engine.argsort(keyStream, argsortOptions).dispose());
      rows.push({ what: argsortWhat, log2n, shift, digitBits, select, planes, planesTexture, carry, queue, groupLog2, selectDirectory, ...(shape ? { treeShape: shape } : {}), ms: argsortMs });
      console.log(`2^${log2n} ${argsortWhat.padEnd(34)} ${digitBits}-bit digits, ${variant}: ${argsortMs.toFixed(2).padStart(8)} ms`);
      if (options.profile && log2n === profileSize) {
        const totals = new Map<string, number>();
        for (const [pass, ms] of passTimes(engine, () => engine.sort(keyStream, sortOptions).dispose())) {
          const name = pass.replace(/ .*/, ''); // a pass's program, whatever its target's size
          totals.set(name, (totals.get(name) ?? 0) + ms);
        }
        for (const [name, ms] of totals) {
          profile[`2^${log2n} ${bits}-bit keys ${digitBits}-bit digits ${variant} ${name}`] = ms;
          console.log(`  profile 2^${log2n} ${bits}-bit keys, ${digitBits}-bit digits, ${variant} ${name.padEnd(40)} ${ms.toFixed(2)} ms (all digits)`);
        }
      }
    }
    keyStream.dispose();
    valueStream.dispose();
  }
}
if (options.out) writeProbeJson(options.out, 'sort-probe', { renderer, batch, repeats, warmupMs, rows, profile });
engine.dispose();
