// The program cache holds a broad app's working set: an app that runs the family's operations each
// frame (sorts of uint32, int32 and float32 keys both ways with values, of 16-bit keys and of keys
// whose length is on the GPU, argsort, unique, runLengthEncode, the three reductions, scans with and
// without segments, compactions as values and as indices, a partition, a gather) links its programs
// in the first frame and none after. Past PROGRAM_CACHE_SIZE the least recently used program is
// deleted, so a working set larger than the cache relinks every frame: a compile, and a link status
// asked (a blocking call) in the middle of the app's frame. The frame runs each operation at a small
// size, then again with the large-stream forms forced (the select's and the move's directories, the
// scans' lanes), as streams of millions would pick them. Not every option: explicit compaction
// algorithms, other value types and more components add programs of their own. Every result read
// here is checked against the CPU.
import { afterEach, expect, it } from 'vitest';
import { createEngine, PROGRAM_CACHE_SIZE, type Engine, type Stream } from '../src/index.js';
import { LANES_SHAPE } from '../src/scan/reduce-then-scan.js';
import { SORT_DIRECTORY, SORT_SELECT } from '../src/sort.js';
import { expectSameBits, testContext } from './support/engine.js';

const defaults = { lanes: { ...LANES_SHAPE }, sort: { ...SORT_DIRECTORY }, select: { ...SORT_SELECT } };
afterEach(() => {
  Object.assign(LANES_SHAPE, defaults.lanes);
  Object.assign(SORT_DIRECTORY, defaults.sort);
  Object.assign(SORT_SELECT, defaults.select);
});

const n = 5000;
const words = Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 1, 2654435761) >>> 0);
const floats = Float32Array.from({ length: n }, (_, i) => Math.sin(i) * 100);
const ints = new Int32Array(words.buffer.slice(0));
const ids = Uint32Array.from({ length: n }, (_, i) => i);

/** The stable order of `keys` (ascending, or descending keeping equal keys in input order). */
const stableOrder = (keys: ArrayLike<number>, descending: boolean) =>
  Array.from({ length: keys.length }, (_, i) => i).sort((i, j) => (descending ? keys[j]! - keys[i]! : keys[i]! - keys[j]!) || i - j);

/** One frame of the family's operations; every result read is checked against the CPU. */
async function frame(engine: Engine): Promise<void> {
  const owned: Array<{ dispose(): void }> = [];
  const own = <T extends { dispose(): void }>(r: T) => (owned.push(r), r);
  const u = own(engine.stream(words));
  const f = own(engine.stream(floats));
  const i = own(engine.stream(ints));
  const values = own(engine.stream(ids));
  // A length on the GPU: the positive floats, never read back before the sort.
  const positive = own(engine.compact(f, { keep: { greaterThan: 0 } }));
  const checks: Array<Promise<void>> = [];
  for (const [keys, data] of [[u, words], [f, floats], [i, ints]] as const) {
    for (const descending of [false, true]) {
      // (One key type per turn: the union of the three stream types is no one sort's argument.)
      const typed = keys as Stream<Uint32Array>;
      const sorted = own(engine.sort(typed, { values, descending }));
      const order = own(engine.argsort(typed, { descending }));
      const expected = stableOrder(data, descending);
      checks.push(sorted.values!.read().then((got) => expectSameBits(got, Uint32Array.from(expected), `sort values ${data.constructor.name}${descending ? ' descending' : ''}`)));
      checks.push(sorted.keys.read().then((got) => expectSameBits(got, new (data.constructor as new (values: number[]) => Uint32Array)(expected.map((k) => data[k]!)), `sort keys ${data.constructor.name}${descending ? ' descending' : ''}`)));
      checks.push(order.read().then((got) => expectSameBits(got, Uint32Array.from(expected), `argsort ${data.constructor.name}${descending ? ' descending' : ''}`)));
    }
  }
  const sortedPositive = own(engine.sort(positive.stream, { values: positive.stream }));
  const positives = floats.filter((v) => v > 0).sort();
  checks.push(sortedPositive.keys.read().then((got) => expectSameBits(got, positives, 'sort of a GPU-resident length')));
  checks.push(sortedPositive.values!.read().then((got) => expectSameBits(got, positives, 'its values')));
  // 16-bit keys, as a splat viewer's depths (every key below 2^16, as `bits` asks).
  const depths = words.map((w) => w & 0xffff);
  const depth = own(engine.sort(own(engine.stream(depths)), { bits: 16, values }));
  checks.push(depth.values!.read().then((got) => expectSameBits(got, Uint32Array.from(stableOrder(depths, false)), '16-bit keys')));
  const runs = Uint32Array.from(words, (w) => w % 4);
  const r = own(engine.stream(runs));
  const distinct = own(engine.unique(r));
  checks.push(distinct.read().then((got) => expectSameBits(got, runs.filter((v, k) => k === 0 || v !== runs[k - 1]), 'unique')));
  const encoded = own(engine.runLengthEncode(r));
  const runStarts = Array.from(runs.keys()).filter((k) => k === 0 || runs[k] !== runs[k - 1]);
  checks.push(encoded.count().then((count) => expect(count, 'runLengthEncode').toBe(runStarts.length)));
  checks.push(encoded.values.read().then((got) => expectSameBits(got, Uint32Array.from(runStarts, (k) => runs[k]!), 'runLengthEncode values')));
  checks.push(encoded.counts.read().then((got) => expectSameBits(got, Uint32Array.from(runStarts, (k, j) => (runStarts[j + 1] ?? n) - k), 'runLengthEncode counts')));
  for (const op of ['sum', 'min', 'max'] as const) {
    const reduced = own(engine.reduce(u, { op }));
    const expected = op === 'sum' ? words.reduce((a, b) => (a + b) >>> 0, 0) : op === 'min' ? Math.min(...words) : Math.max(...words);
    checks.push(reduced.read().then((got) => expect(got[0], op).toBe(expected)));
  }
  let running = 0;
  const sums = own(engine.scan(r));
  checks.push(sums.read().then((got) => expectSameBits(got, Uint32Array.from(runs, (v) => (running = (running + v) >>> 0)), 'scan')));
  const starts = Uint32Array.from(runs, (v) => (v === 0 ? 1 : 0));
  const segmented = own(engine.scan(r, { segments: own(engine.stream(starts)), exclusive: true }));
  let carry = 0;
  checks.push(segmented.read().then((got) => expectSameBits(got, Uint32Array.from(runs, (v, k) => (starts[k] ? (carry = v, 0) : ((carry += v), carry - v))), 'scan with segments')));
  for (const keep of ['nonzero', { lessEqual: 2 ** 31 }] as const) {
    const kept = own(engine.compact(u, { keep }));
    const expected = words.filter((w) => (keep === 'nonzero' ? w !== 0 : w <= 2 ** 31));
    checks.push(kept.read().then((got) => expectSameBits(got, expected, `compact ${JSON.stringify(keep)}`)));
  }
  const keptAt = ids.filter((k) => words[k]! <= 2 ** 31);
  const indices = own(engine.compact(u, { keep: { lessEqual: 2 ** 31 }, output: 'indices' }));
  checks.push(indices.read().then((got) => expectSameBits(got, keptAt, 'compact as indices')));
  const gathered = own(engine.gather(f, indices.stream));
  checks.push(gathered.read().then((got) => expectSameBits(got, Float32Array.from(keptAt, (k) => floats[k]!), 'gather')));
  const split = own(engine.partition(u, { keep: { lessEqual: 2 ** 31 } }));
  checks.push(split.read().then((got) => expectSameBits(got, Uint32Array.from([...words.filter((w) => w <= 2 ** 31), ...words.filter((w) => w > 2 ** 31)]), 'partition')));
  await Promise.all(checks);
  for (const o of owned.reverse()) o.dispose();
}

it(`a second frame of the family's operations links no program (its working set fits the ${PROGRAM_CACHE_SIZE} programs kept)`, async () => {
  const { gl } = await testContext();
  const engine = createEngine(gl);
  const target = gl as unknown as { linkProgram: (program: WebGLProgram) => void };
  const hadOwn = Object.prototype.hasOwnProperty.call(target, 'linkProgram');
  const linkProgram = target.linkProgram;
  let links = 0;
  target.linkProgram = function (this: unknown, program: WebGLProgram) {
    links++;
    return linkProgram.call(this, program);
  };
  // The frame at small sizes, then with the large-stream forms forced.
  const both = async () => {
    await frame(engine);
    Object.assign(LANES_SHAPE, { aboveTexels: 0 });
    Object.assign(SORT_DIRECTORY, { fromElements: 0 });
    Object.assign(SORT_SELECT, { directoryFrom: 0 });
    try {
      await frame(engine);
    } finally {
      Object.assign(LANES_SHAPE, defaults.lanes);
      Object.assign(SORT_DIRECTORY, defaults.sort);
      Object.assign(SORT_SELECT, defaults.select);
    }
  };
  try {
    await both();
    const first = links;
    const kept = engine.resources.programs;
    links = 0;
    await both();
    console.log(`[program-working-set] the first frame linked ${first} programs (${kept} kept); the second ${links}`);
    expect(links, `programs linked again by the second frame (the first linked ${first}; the cache keeps ${PROGRAM_CACHE_SIZE})`).toBe(0);
    expect(first, 'the first frame links the working set').toBeGreaterThan(0);
  } finally {
    if (hadOwn) target.linkProgram = linkProgram;
    else delete (target as Partial<typeof target>).linkProgram;
    engine.dispose();
  }
}, 600_000);
