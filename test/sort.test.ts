// engine.sort() (issue 22): a stable LSD radix sort, against the CPU: Float32Array.prototype.sort's
// order for floats (-0 before +0, NaN last), stability with values, descending, GPU-resident lengths.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamData } from '../src/index.js';
import { gpuOf } from '../src/internal.js';
import { SORT_COUNTS, SORT_DIRECTORY, SORT_RADIX, SORT_SELECT } from '../src/sort.js';
import { engineWithDrawBuffers, expectSameBits, readWholeTexture, restoreDrawBuffers, testContext, testEngine } from './support/engine.js';
import { envFlag } from './support/env.js';
import { countGlObjects, nonZero } from './support/gl-objects.js';

type Kind = 'float32' | 'uint32' | 'int32';
const arrayOf = { float32: Float32Array, uint32: Uint32Array, int32: Int32Array } as const;

/** The order of Float32Array.prototype.sort (and of integer comparison): -0 before +0, NaN last. */
function compare(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number(Number.isNaN(a)) - Number(Number.isNaN(b));
  if (a === 0 && b === 0) return Number(!Object.is(a, -0)) - Number(!Object.is(b, -0));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Input positions in stable sorted order (descending: reversed comparisons, NaN still last). */
function stableOrder(keys: StreamData, descending: boolean): number[] {
  const order = Array.from({ length: keys.length }, (_, i) => i);
  return order.sort((i, j) => {
    const [a, b] = [keys[i]!, keys[j]!];
    if (descending && !Number.isNaN(a) && !Number.isNaN(b)) return compare(b, a) || i - j;
    return compare(a, b) || i - j;
  });
}

function randomKeys(kind: Kind, n: number, seed: number, distinct: number): StreamData {
  let a = seed >>> 0;
  const next = () => (a = (Math.imul(a, 1664525) + 1013904223) >>> 0);
  const pool = Uint32Array.from({ length: distinct }, () => next());
  const specials = [0, 0x80000000, 0x7fc00000, 0xffc00001, 0x7f800000, 0xff800000, 1, 0x80000001];
  const words = Uint32Array.from({ length: n }, (_, i) => (kind === 'float32' && i % 11 === 0 ? specials[next() % specials.length]! : pool[next() % distinct]!));
  return new arrayOf[kind](words.buffer);
}

/**
 * Checks a sort of `keys` with values against the CPU's stable sort: the keys bit for bit (a NaN's
 * payload, -0) and the values, by default the input positions, else the bits of `values` (one
 * component) in the keys' order.
 */
async function expectStableSort(sorted: { keys: { read(): Promise<StreamData> }; values?: { read(): Promise<StreamData> } | undefined }, keys: StreamData, descending: boolean, label: string, values?: StreamData): Promise<void> {
  const order = stableOrder(keys, descending);
  const words = new Uint32Array(keys.buffer, keys.byteOffset, keys.length);
  expectSameBits(new Uint32Array((await sorted.keys.read()).buffer), Uint32Array.from(order, (i) => words[i]!), `${label} keys`);
  const valueWords = values ? new Uint32Array(values.buffer, values.byteOffset, values.length) : undefined;
  const got = await sorted.values!.read();
  expectSameBits(new Uint32Array(got.buffer, got.byteOffset, got.length), Uint32Array.from(order, (i) => valueWords?.[i] ?? i), `${label} values`);
}

const lengths = [1, 2, 33, 2047, 2049, 3 * 2048 + 5];

describe('engine.sort(keys, { values, descending })', () => {
  it.each(['uint32', 'int32', 'float32'] as Kind[])('%s keys with duplicates and an index payload: stable, ascending and descending', async (kind) => {
    const engine = await testEngine();
    for (const n of lengths) {
      const keys = randomKeys(kind, n, n * 13 + kind.length, Math.max(2, n >> 3));
      const keyStream = engine.stream(keys);
      const ids = engine.stream(Uint32Array.from({ length: n }, (_, i) => i));
      for (const descending of [false, true]) {
        const order = stableOrder(keys, descending);
        const sorted = engine.sort(keyStream, { values: ids, descending });
        const label = `${kind} n=${n}${descending ? ' descending' : ''}`;
        expectSameBits(new Uint32Array((await sorted.keys.read()).buffer), Uint32Array.from(order, (i) => new Uint32Array(keys.buffer)[i]!), `${label} keys`);
        expectSameBits((await sorted.values!.read()) as Uint32Array, Uint32Array.from(order), `${label} values`);
        sorted.dispose();
      }
      keyStream.dispose();
      ids.dispose();
    }
  });

  it('values of any type and 4 components move with their keys; keys alone; bits for small uint32 keys', async () => {
    const engine = await testEngine();
    const n = 5000;
    const depth = Uint32Array.from({ length: n }, (_, i) => Math.imul(i, 2654435761) >>> 16); // 16-bit keys
    const colors = Float32Array.from({ length: 4 * n }, (_, k) => k / 4);
    const depthStream = engine.stream(depth);
    const colorStream = engine.stream(colors, { components: 4 });
    const order = stableOrder(depth, false);
    const sorted = engine.sort(depthStream, { values: colorStream, bits: 16 });
    expectSameBits(await sorted.keys.read(), Uint32Array.from(order, (i) => depth[i]!));
    expectSameBits(await sorted.values!.read(), Float32Array.from(order.flatMap((i) => [0, 1, 2, 3].map((c) => colors[4 * i + c]!))));
    expect(sorted.values!.components).toBe(4);
    const alone = engine.sort(depthStream, { descending: true });
    expect(alone.values).toBeUndefined();
    expectSameBits(await alone.keys.read(), Uint32Array.from(stableOrder(depth, true), (i) => depth[i]!));
    for (const s of [sorted, alone]) s.dispose();
    depthStream.dispose();
    colorStream.dispose();
  });

  it('where the context cannot write RGBA32UI layers and an R32UI texture in one pass (engine.caps.mixedFormatAttachments false), the select puts the planes on a layer: exact, and no companion made', async (context) => {
    const engine = await testEngine();
    context.skip(engine.caps.drawBuffers < 8, `the planes ride the select only where passes write 8 attachments; this context writes ${engine.caps.drawBuffers} (headless-gl: 1)`);
    const gpu = gpuOf(engine);
    const probed = gpu.mixedFormatAttachments;
    const target = gpu.target.bind(gpu);
    const companions: unknown[] = [];
    gpu.target = (...args: Parameters<typeof target>) => {
      companions.push(args[4]);
      return target(...args);
    };
    try {
      const n = 3 * 2048 + 5;
      const keys = randomKeys('uint32', n, 91, 2 ** 20);
      const keyStream = engine.stream(keys);
      const ids = engine.stream(Uint32Array.from({ length: n }, (_, i) => i));
      for (const mixed of [false, true]) {
        gpu.mixedFormatAttachments = mixed;
        companions.length = 0;
        const sorted = engine.sort(keyStream, { values: ids });
        await expectStableSort(sorted, keys, false, `mixed formats ${mixed}`);
        sorted.dispose();
        expect(companions.some((c) => c !== undefined), `a companion target made with mixed formats ${mixed}`).toBe(mixed);
      }
      keyStream.dispose();
      ids.dispose();
    } finally {
      gpu.target = target;
      gpu.mixedFormatAttachments = probed;
    }
  });

  it('keys whose length is on the GPU (a compaction), with values of the same layout', async () => {
    const engine = await testEngine();
    const source = Int32Array.from({ length: 6000 }, (_, i) => ((i * 7919) % 2001) - 1000);
    const stream = engine.stream(source);
    const negative = engine.compact(stream, { keep: { lessEqual: -1 } });
    const where = engine.compact(stream, { keep: { lessEqual: -1 }, output: 'indices' });
    const sorted = engine.sort(negative.stream, { values: where.stream });
    const kept = Array.from({ length: source.length }, (_, i) => i).filter((i) => source[i]! <= -1);
    const order = kept.sort((i, j) => source[i]! - source[j]! || i - j);
    expectSameBits(await sorted.keys.read(), Int32Array.from(order, (i) => source[i]!));
    expectSameBits(await sorted.values!.read(), Uint32Array.from(order));
    for (const r of [sorted, negative, where]) r.dispose();
    stream.dispose();
  });

  it('a property: any float32 bit patterns, stable', async () => {
    const specials = [0, 0x80000000, 0x7fc00000, 0xffc00001, 0x7f800000, 0xff800000, 1, 0x80000001, 0x3f800000, 0xbf800000];
    const wordArbitrary = fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(...specials), fc.integer({ min: 0x3f800000, max: 0x3f800003 }));
    const engine = await testEngine();
    await fc.assert(
      // Lengths up to the maximum (fast-check's default size keeps arrays to about ten elements,
      // short of a 32-element word or a 2048-texel row), words drawn from any bit pattern, a few
      // repeated ones (so equal keys are common: stability) and the special floats.
      fc.asyncProperty(fc.array(wordArbitrary, { minLength: 1, maxLength: 3000, size: 'max' }), fc.boolean(), async (list, descending) => {
        const keys = new Float32Array(Uint32Array.from(list).buffer);
        const keyStream = engine.stream(keys);
        const ids = engine.stream(Uint32Array.from({ length: keys.length }, (_, i) => i));
        const sorted = engine.sort(keyStream, { values: ids, descending });
        await expectStableSort(sorted, keys, descending, `n=${keys.length}${descending ? ' descending' : ''}`);
        sorted.dispose();
        keyStream.dispose();
        ids.dispose();
      }),
      { numRuns: 15, seed: 20261125 },
    );
  });
});

// engine.argsort(): the order engine.sort() would give, as input positions, without moving anything.
describe('engine.argsort(keys, { descending, bits })', () => {
  it.each(['uint32', 'int32', 'float32'] as Kind[])('%s keys with duplicates: the stable order, ascending and descending, equal to sort()\'s values', async (kind) => {
    const engine = await testEngine();
    for (const n of lengths) {
      const keys = randomKeys(kind, n, n * 17 + kind.length, Math.max(2, n >> 3));
      const keyStream = engine.stream(keys);
      for (const descending of [false, true]) {
        const order = engine.argsort(keyStream, { descending });
        expect(order.type).toBe('uint32');
        expect(order.length).toBe(n);
        expectSameBits(await order.read(), Uint32Array.from(stableOrder(keys, descending)), `${kind} n=${n}${descending ? ' descending' : ''}`);
        order.dispose();
      }
      keyStream.dispose();
    }
  });

  it('bits for small uint32 keys; keys whose length is on the GPU (zeros past it); the keys untouched', async () => {
    const engine = await testEngine();
    const depth = Uint32Array.from({ length: 5000 }, (_, i) => Math.imul(i, 2654435761) >>> 16);
    const depthStream = engine.stream(depth);
    const order = engine.argsort(depthStream, { bits: 16, descending: true });
    expectSameBits(await order.read(), Uint32Array.from(stableOrder(depth, true)));
    expectSameBits(await depthStream.read(), depth, 'the keys after argsort');
    order.dispose();
    depthStream.dispose();
    const source = Int32Array.from({ length: 6000 }, (_, i) => ((i * 7919) % 2001) - 1000);
    const stream = engine.stream(source);
    const negative = engine.compact(stream, { keep: { lessEqual: -1 } });
    const ranks = engine.argsort(negative.stream);
    expect(() => ranks.length, 'the order\'s length stays on the GPU, as the keys\' does').toThrow(/not known yet/);
    const kept = Int32Array.from(Array.from(source).filter((v) => v <= -1));
    const want = Uint32Array.from(stableOrder(kept, false));
    expectSameBits(await ranks.read(), want);
    const whole = readWholeTexture(engine, ranks);
    expectSameBits(whole, Uint32Array.from({ length: whole.length }, (_, i) => (i < want.length ? want[i]! : 0)), 'the order texture past the length');
    for (const r of [ranks, negative]) r.dispose();
    stream.dispose();
  });

  it('refuses what sort() refuses, leaving nothing behind', async () => {
    const engine = await testEngine();
    const { gl } = await testContext();
    const floats = engine.stream(new Float32Array([2, 1]));
    const quads = engine.stream(new Uint32Array(8), { components: 4 });
    const before = engine.resources;
    const counter = countGlObjects(gl);
    try {
      expect(() => engine.argsort(quads)).toThrow(/engine\.argsort\(keys\): keys must be a stream of scalars \(1 component\); got 4 components/);
      expect(() => engine.argsort(floats, { bits: 16 })).toThrow(/engine\.argsort\(\): options\.bits applies to uint32 keys only/);
      expect(() => engine.argsort(floats, { descending: 'yes' as unknown as boolean })).toThrow(/engine\.argsort\(\): options\.descending must be a boolean/);
      expect(() => engine.argsort(floats, { values: floats } as never)).toThrow(/engine\.argsort\(keys, options\)/);
    } finally {
      counter.restore();
    }
    expect(engine.resources).toEqual(before);
    expect(nonZero(counter.live)).toEqual({});
    floats.dispose();
    expect(() => engine.argsort(floats)).toThrow(/disposed/);
    quads.dispose();
  });
});

// The directory (src/sort.ts SORT_DIRECTORY): streams of 2^18 elements and more find each output's
// block by a gallop from an entry per 2^shift outputs. Forced here at small sizes, where digit
// changes inside a group of outputs, runs of one digit over many blocks and row ends are many; with
// both digit widths (SORT_RADIX: 4 bits by default, 2 tunable) and blocks counted one by one or in
// groups of 4 or 8 (SORT_COUNTS: the directory then notes groups, and the move counts the masks of
// the blocks within one).
describe('engine.sort with the directory (forced at every size)', () => {
  const defaults = { directory: { ...SORT_DIRECTORY }, radix: { ...SORT_RADIX }, counts: { ...SORT_COUNTS }, select: { ...SORT_SELECT } };
  afterEach(() => {
    Object.assign(SORT_DIRECTORY, defaults.directory);
    Object.assign(SORT_RADIX, defaults.radix);
    Object.assign(SORT_COUNTS, defaults.counts);
    Object.assign(SORT_SELECT, defaults.select);
  });

  it.each([[1, 4, 2], [3, 4, 0], [5, 4, 3], [3, 2, 2]] as const)('directory every 2^%i outputs, %i-bit digits, blocks counted in groups of 2^%i: uint32, int32, float32 keys (few and many distinct), descending, a GPU-resident length', async (shift, digitBits, groupLog2) => {
    const engine = await testEngine();
    Object.assign(SORT_DIRECTORY, { shift, fromElements: 0 });
    Object.assign(SORT_RADIX, { digitBits });
    Object.assign(SORT_COUNTS, { groupLog2 });
    // No select pass, also where passes write 4+ attachments (browsers): the directory runs everywhere.
    Object.assign(SORT_SELECT, { enabled: false });
    for (const kind of ['uint32', 'int32', 'float32'] as Kind[]) {
      for (const [n, distinct] of [[33, 3], [2049, 2], [3 * 2048 + 5, 4000]] as const) {
        const keys = randomKeys(kind, n, n + shift + kind.length, distinct);
        const keyStream = engine.stream(keys);
        const ids = engine.stream(Uint32Array.from({ length: n }, (_, i) => i));
        for (const descending of [false, true]) {
          const sorted = engine.sort(keyStream, { values: ids, descending });
          await expectStableSort(sorted, keys, descending, `${kind} n=${n} distinct=${distinct}${descending ? ' descending' : ''}`);
          sorted.dispose();
        }
        keyStream.dispose();
        ids.dispose();
      }
    }
    const source = Int32Array.from({ length: 6000 }, (_, i) => ((i * 7919) % 2001) - 1000);
    const stream = engine.stream(source);
    const negative = engine.compact(stream, { keep: { lessEqual: -1 } });
    const sorted = engine.sort(negative.stream);
    expectSameBits(await sorted.keys.read(), Int32Array.from(Array.from(source).filter((v) => v <= -1).sort((a, b) => a - b)));
    for (const r of [sorted, negative]) r.dispose();
    stream.dispose();
  });
});

// The select pass (src/sort.ts SORT_SELECT): where a pass writes 4 or 8 attachments, each fragment
// places 2 or 4 × attachments consecutive outputs by one search and a walk along the digit's masks,
// writing the pairs themselves (SORT_SELECT.writes 'pairs', 8 or 16 outputs) or their positions for a
// move pass (16 or 32), with 1, 2, 3 or 7 blocks' masks fetched ahead (SORT_SELECT.queue); a digit changing
// among them, or a digit's elements sparse (few distinct keys in many blocks), sends the fragment to
// the search per output; its first search counts the masks of the blocks within a counted group
// (SORT_COUNTS: 1, 4 or 8 blocks), or, with the select's directory (SORT_SELECT.directoryShift), a
// gallop from the entry of every 2^shift-th output. With 8 attachments the select placing the pairs
// writes them on 4 layers (8 outputs) and the next digit's bit planes on a fifth, from which the next
// digit's masks are made (SORT_SELECT.planes), or, with planes off, 16 outputs on 8 layers and a
// digits pass per digit. With `carry` (SORT_SELECT.carry; integer keys, values of one component)
// the pairs carry the values' bits (here float32 values, NaN payloads among them, never equal to the
// positions) and the last select places them too: no gathers. Forced to 1 (the search per output),
// 4 and 8 attachments.
//
// GLCOMPACT_SORT_KNOBS_DEFAULTS=1 (the chromium and webkit projects, vitest.config.ts) runs only the rows
// of the shipped defaults (SORT_RADIX 4 bits, pairs, 1 queued, groups of 2^2, planes; without and with a
// select directory): SwiftShader compiles each row's shaders anew, 5-25 s a row, which was a fifth of
// CI's time, and WebKitGTK's rows took 663 s of a 38-minute CI run (2026-12-07). The other rows are knobs
// for bench/sort-probe.ts; node and firefox run them all (firefox on the llvmpipe WebKitGTK draws with;
// node has one attachment, where most rows are the same path).
const defaultsOnly = envFlag('GLCOMPACT_SORT_KNOBS_DEFAULTS');
/**
 * digitBits, writes, queue, groupLog2, directoryShift (0: none), planes, carry, planesTexture; the first is the shipped
 * default below SORT_SELECT.directoryFrom (no select directory), the sixth the shipped default above it.
 */
const SELECT_ROWS = [
  [4, 'pairs', 1, 2, 0, true, true, true],
  [4, 'positions', 7, 0, 0, true, true, true],
  [2, 'pairs', 3, 3, 0, true, true, false],
  [4, 'pairs', 7, 3, 0, true, false, true],
  [2, 'positions', 2, 2, 0, true, false, true],
  [4, 'pairs', 1, 2, 6, true, true, true],
  [2, 'positions', 1, 2, 0, true, false, true],
  [4, 'pairs', 2, 2, 6, true, true, false],
  [4, 'pairs', 2, 2, 0, true, true, true],
  [2, 'positions', 7, 2, 5, true, true, true],
  [4, 'pairs', 3, 2, 0, false, false, true],
  [2, 'pairs', 7, 2, 6, false, true, true],
] as const;
/** The knobs as shipped, read before any test changes them. */
const SHIPPED = { digitBits: SORT_RADIX.digitBits, writes: SORT_SELECT.writes, planes: SORT_SELECT.planes, planesTexture: SORT_SELECT.planesTexture, carry: SORT_SELECT.carry, queue: SORT_SELECT.queue, groupLog2: SORT_COUNTS.groupLog2, directoryShift: SORT_SELECT.directoryShift };
/** A row of the shipped defaults: without the select directory (small streams) or with the shipped one. */
const isShipped = ([digitBits, writes, queue, groupLog2, directoryShift, planes, carry, planesTexture]: readonly [number, string, number, number, number, boolean, boolean, boolean]) =>
  digitBits === SHIPPED.digitBits && writes === SHIPPED.writes && queue === SHIPPED.queue && groupLog2 === SHIPPED.groupLog2 && planes === SHIPPED.planes && planesTexture === SHIPPED.planesTexture && carry === SHIPPED.carry && (directoryShift === 0 || directoryShift === SHIPPED.directoryShift);
it('the select rows hold the shipped defaults without and with a directory (what GLCOMPACT_SORT_KNOBS_DEFAULTS=1 keeps)', () => {
  expect(SELECT_ROWS.filter(isShipped).map((row) => row[4])).toEqual([0, SHIPPED.directoryShift]);
});
/** Passes of a sort of 2^20 uint32 keys + values by attachments per pass (docs/performance.md). */
const SORT_PASSES_2E20: Record<number, number> = { 1: 82, 4: 81, 8: 74 };
describe.each([1, 4, 8] as const)('engine.sort with %i attachment(s) per pass', (drawBuffers) => {
  const defaults = { radix: { ...SORT_RADIX }, select: { ...SORT_SELECT }, counts: { ...SORT_COUNTS } };
  afterEach(() => {
    Object.assign(SORT_RADIX, defaults.radix);
    Object.assign(SORT_SELECT, defaults.select);
    Object.assign(SORT_COUNTS, defaults.counts);
  });

  // The knob is checked whenever a select runs, at any size (the directory itself starts at
  // SORT_SELECT.directoryFrom, 2^20 elements), before the call makes anything.
  it('refuses a select directory spacing below a fragment\'s outputs, above 2^12 or not an integer; takes the bounds', async (context) => {
    context.skip(drawBuffers < 4, `no select pass with ${drawBuffers} attachment per pass`);
    const engine = await engineWithDrawBuffers(drawBuffers);
    try {
      context.skip(!engine, `this context writes fewer than ${drawBuffers} attachments per pass (engine.caps.drawBuffers)`);
      const { gl } = await testContext();
      const data = Uint32Array.from({ length: 100 }, (_, i) => (i * 37) % 11);
      const keys = engine!.stream(data);
      try {
        const lowest = Math.log2(4 * drawBuffers);
        for (const directoryShift of [lowest - 1, -1, 6.5, 13]) {
          Object.assign(SORT_SELECT, { directoryShift });
          engine!.trim(); // idle pooled textures would hide a target taken and returned by the refused call
          const before = engine!.resources;
          const counter = countGlObjects(gl);
          try {
            expect(() => engine!.sort(keys), `directoryShift ${directoryShift}`).toThrow(/SORT_SELECT\.directoryShift must be 0 \(no directory\) or an integer from/);
          } finally {
            counter.restore();
          }
          // Nothing half-made: no target, texture or GL object left behind.
          expect(engine!.resources, `engine.resources after directoryShift ${directoryShift}`).toEqual(before);
          expect(nonZero(counter.live), `GL objects left by directoryShift ${directoryShift}`).toEqual({});
        }
        // The bounds are taken, at a size below directoryFrom (no directory) and with the directory forced.
        for (const [directoryShift, directoryFrom] of [[lowest, SORT_SELECT.directoryFrom], [12, SORT_SELECT.directoryFrom], [lowest, 0], [12, 0]] as const) {
          Object.assign(SORT_SELECT, { directoryShift, directoryFrom });
          const sorted = engine!.sort(keys);
          expectSameBits(await sorted.keys.read(), data.slice().sort(), `directoryShift ${directoryShift}, directoryFrom ${directoryFrom}`);
          sorted.dispose();
        }
      } finally {
        keys.dispose();
      }
    } finally {
      if (engine) restoreDrawBuffers(engine);
    }
  });

  // The passes of a sort at 2^20 uint32 keys + uint32 values (the size of the H200 target) with the
  // shipped knobs, counted at gpu.draw: the figure docs/performance.md gives, kept true here (a pass
  // added or saved changes it and the docs with it).
  it('a sort of 2^20 uint32 keys with uint32 values makes the documented number of passes', async (context) => {
    const engine = await engineWithDrawBuffers(drawBuffers);
    context.skip(!engine, `this context writes fewer than ${drawBuffers} attachments per pass (engine.caps.drawBuffers)`);
    const gpu = gpuOf(engine!);
    const made: Array<{ dispose(): void }> = [];
    // An own property over Gpu.prototype.draw, deleted after (the engine is shared by the file).
    const draw = gpu.draw;
    let draws = 0;
    try {
      const n = 2 ** 20;
      const data = Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 7, 2654435761) >>> 0);
      const values = Uint32Array.from(data, (_, i) => i);
      const keys = engine!.stream(data);
      made.push(keys);
      const ids = engine!.stream(values);
      made.push(ids);
      gpu.draw = (call) => (draws++, draw.call(gpu, call));
      const sorted = engine!.sort(keys, { values: ids });
      made.push(sorted);
      delete (gpu as { draw?: unknown }).draw;
      expect(draws, `passes of the sort with ${drawBuffers} attachment(s)`).toBe(SORT_PASSES_2E20[drawBuffers]);
      await expectStableSort(sorted, data, false, '2^20 keys and values', values);
    } finally {
      delete (gpu as { draw?: unknown }).draw;
      for (const r of made.reverse()) r.dispose();
      restoreDrawBuffers(engine!);
    }
  });

  // The carried keys and values are copied out by one pass into two targets on the Gpu's own
  // framebuffer (gpu.ts passInto): the textures are detached after it, so the framebuffer holds no
  // pool texture between calls (the pool may delete them).
  it('the copy out of the pairs writes keys and values at once and leaves its framebuffer without attachments', async (context) => {
    context.skip(drawBuffers < 4, `no select pass with ${drawBuffers} attachment per pass`);
    const engine = await engineWithDrawBuffers(drawBuffers);
    context.skip(!engine, `this context writes fewer than ${drawBuffers} attachments per pass (engine.caps.drawBuffers)`);
    try {
      const { gl } = await testContext();
      const data = Uint32Array.from({ length: 5000 }, (_, i) => Math.imul(i + 3, 2654435761) >>> 0);
      const values = Uint32Array.from(data, (_, i) => i ^ 0x55);
      const keys = engine!.stream(data);
      const ids = engine!.stream(values);
      const gpu = gpuOf(engine!);
      const sorted = engine!.sort(keys, { values: ids });
      await expectStableSort(sorted, data, false, 'carried keys and values', values);
      const framebuffer = (gpu as unknown as { joinedFramebuffer: WebGLFramebuffer }).joinedFramebuffer;
      const previous = gl.getParameter(gl.FRAMEBUFFER_BINDING) as WebGLFramebuffer | null;
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      // Every attachment point the context has, not only the copy's two: none may hold a pool texture.
      const attached = Array.from({ length: drawBuffers }, (_, i) => gl.getFramebufferAttachmentParameter(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, gl.FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) as number);
      gl.bindFramebuffer(gl.FRAMEBUFFER, previous);
      expect(attached, 'attachment types of the joined framebuffer after the sort').toEqual(attached.map(() => gl.NONE));
      for (const r of [sorted, keys, ids]) r.dispose();
    } finally {
      restoreDrawBuffers(engine!);
    }
  });

  it.for(SELECT_ROWS)('%i-bit digits, the select (where one runs) writing %s with %i masks queued, blocks counted in groups of 2^%i, a select directory of shift %i (0: none), the next digit\'s planes from the select (8 attachments): %s, the values carried in the pairs: %s, the planes on a texture of their own: %s; uint32, int32, float32 keys (few and many distinct), descending, a GPU-resident length', async ([digitBits, writes, queue, groupLog2, directoryShift, planes, carry, planesTexture], context) => {
    // Skipped before the engine's attachments are limited, so a skip leaves them as they were.
    context.skip(defaultsOnly && !isShipped([digitBits, writes, queue, groupLog2, directoryShift, planes, carry, planesTexture]), 'GLCOMPACT_SORT_KNOBS_DEFAULTS=1: only the shipped defaults\' rows here (SwiftShader and WebKitGTK take minutes for the rest); node and firefox run this row');
    context.skip(drawBuffers === 1 && (writes !== 'pairs' || directoryShift > 0 || !planes || !planesTexture), 'with 1 attachment there is no select pass (the move searches per output): every form is the same path');
    const engine = await engineWithDrawBuffers(drawBuffers);
    context.skip(!engine, `this context writes fewer than ${drawBuffers} attachments per pass (engine.caps.drawBuffers); headless-gl writes 1`);
    Object.assign(SORT_RADIX, { digitBits });
    // The select's directory forced at every size where asked for (by default from 2^20 texels), and none otherwise.
    Object.assign(SORT_SELECT, { writes, queue, directoryShift, directoryFrom: 0, planes, planesTexture, carry });
    Object.assign(SORT_COUNTS, { groupLog2 });
    try {
      for (const kind of ['uint32', 'int32', 'float32'] as Kind[]) {
        for (const [n, distinct] of [[33, 3], [2049, 2], [5000, 7], [3 * 2048 + 5, 4000], [70_001, 2 ** 20]] as const) {
          const keys = randomKeys(kind, n, n + drawBuffers + kind.length, distinct);
          const keyStream = engine!.stream(keys);
          // Values unlike the positions, as float bits (NaNs with payloads among them).
          const values = new Float32Array(Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0).buffer);
          const ids = engine!.stream(values);
          for (const descending of [false, true]) {
            const sorted = engine!.sort(keyStream, { values: ids, descending });
            await expectStableSort(sorted, keys, descending, `${kind} n=${n} distinct=${distinct}${descending ? ' descending' : ''}`, values);
            sorted.dispose();
            // The order alone: copied out of the last select's lanes ('pairs'), or left by the move.
            const order = engine!.argsort(keyStream, { descending });
            expectSameBits(await order.read(), Uint32Array.from(stableOrder(keys, descending)), `argsort ${kind} n=${n} distinct=${distinct}${descending ? ' descending' : ''}`);
            order.dispose();
          }
          keyStream.dispose();
          ids.dispose();
        }
      }
      // One digit (bits <= digitBits): the first digit's select is also the last, writing input
      // positions read straight from the user's keys.
      const small = Uint32Array.from({ length: 3 * 2048 + 5 }, (_, i) => Math.imul(i + 7, 2654435761) >>> (32 - digitBits));
      const smallStream = engine!.stream(small);
      const smallValues = Uint32Array.from(small, (_, i) => (i ^ 0x5bd1e995) >>> 0);
      const smallIds = engine!.stream(smallValues);
      for (const descending of [false, true]) {
        const oneDigit = engine!.sort(smallStream, { values: smallIds, bits: digitBits, descending });
        await expectStableSort(oneDigit, small, descending, `one ${digitBits}-bit digit${descending ? ' descending' : ''}`, smallValues);
        oneDigit.dispose();
      }
      smallStream.dispose();
      smallIds.dispose();
      const source = Int32Array.from({ length: 6000 }, (_, i) => ((i * 7919) % 2001) - 1000);
      const stream = engine!.stream(source);
      // A length known only on the GPU: the sorted keys, then zeros to the texture's end (what a
      // user's shader sampling the texture sees, README "Rendering into a stream's texture").
      const negative = engine!.compact(stream, { keep: { lessEqual: -1 } });
      const sorted = engine!.sort(negative.stream, { values: negative.stream });
      const want = Int32Array.from(Array.from(source).filter((v) => v <= -1).sort((a, b) => a - b));
      expectSameBits(await sorted.keys.read(), want);
      expectSameBits(await sorted.values!.read(), want, 'the values (the keys themselves)');
      for (const [texture, what] of [[sorted.keys, 'keys'], [sorted.values!, 'values']] as const) {
        const whole = new Int32Array(readWholeTexture(engine!, texture).buffer);
        expectSameBits(whole, Int32Array.from({ length: whole.length }, (_, i) => (i < want.length ? want[i]! : 0)), `the ${what} texture past the length`);
      }
      for (const r of [sorted, negative]) r.dispose();
      // A length of 0 known only on the GPU: every output past it, the select pass's search clamped;
      // the keys and values textures hold zeros only.
      const none = engine!.compact(stream, { keep: { lessEqual: -5000 } });
      const sortedNone = engine!.sort(none.stream, { values: none.stream });
      expect((await sortedNone.keys.read()).length).toBe(0);
      expect((await sortedNone.values!.read()).length).toBe(0);
      for (const texture of [sortedNone.keys, sortedNone.values!]) {
        const texels = readWholeTexture(engine!, texture);
        expect(texels.length).toBeGreaterThan(0);
        expect(texels.findIndex((v) => v !== 0), 'the first nonzero texel of a sort of 0 elements').toBe(-1);
      }
      const orderNone = engine!.argsort(none.stream);
      expect((await orderNone.read()).length).toBe(0);
      expect(readWholeTexture(engine!, orderNone).findIndex((v) => v !== 0), 'the first nonzero texel of an argsort of 0 elements').toBe(-1);
      for (const r of [sortedNone, orderNone, none]) r.dispose();
      stream.dispose();
    } finally {
      restoreDrawBuffers(engine!);
    }
  });
});

// 2-bit digits (SORT_RADIX.digitBits = 2, tunable) without the directory: the small-stream search.
describe('engine.sort with 2-bit digits', () => {
  const defaults = { ...SORT_RADIX };
  afterEach(() => Object.assign(SORT_RADIX, defaults));

  it('uint32 and float32 keys (the keys moved as values too), ascending and descending; 16-bit keys', async () => {
    const engine = await testEngine();
    Object.assign(SORT_RADIX, { digitBits: 2 });
    for (const kind of ['uint32', 'float32'] as Kind[]) {
      for (const n of [1, 65, 3 * 2048 + 5]) {
        const keys = randomKeys(kind, n, n * 7 + kind.length, Math.max(2, n >> 2));
        const keyStream = engine.stream(keys);
        for (const descending of [false, true]) {
          const sorted = engine.sort(keyStream, { values: keyStream, descending });
          const order = stableOrder(keys, descending);
          const expected = Uint32Array.from(order, (i) => new Uint32Array(keys.buffer)[i]!);
          expectSameBits(new Uint32Array((await sorted.keys.read()).buffer), expected, `${kind} n=${n} keys`);
          expectSameBits(new Uint32Array((await sorted.values!.read()).buffer), expected, `${kind} n=${n} values`);
          sorted.dispose();
        }
        keyStream.dispose();
      }
    }
    const depth = Uint32Array.from({ length: 5000 }, (_, i) => Math.imul(i, 2654435761) >>> 16);
    const depthStream = engine.stream(depth);
    const sorted = engine.sort(depthStream, { bits: 16, descending: true });
    expectSameBits(await sorted.keys.read(), Uint32Array.from(stableOrder(depth, true), (i) => depth[i]!));
    sorted.dispose();
    depthStream.dispose();
  });
});
