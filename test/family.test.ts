// The rest of the compaction family (issue 22): unique, runLengthEncode, reduce, scan with
// segments, against CPU references: lengths at word and row boundaries, 1 and 4 components, all
// three types, GPU-resident lengths.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamData } from '../src/index.js';
import { expectSameBits, testEngine } from './support/engine.js';

type Kind = 'float32' | 'uint32' | 'int32';
const kinds: Kind[] = ['float32', 'uint32', 'int32'];
const arrayOf = { float32: Float32Array, uint32: Uint32Array, int32: Int32Array } as const;
const lengths = [1, 2, 31, 32, 33, 2047, 2048, 2049, 3 * 2048 + 17];

/** Words with runs: each element repeats the previous one's words with probability 1/2 (special floats included). */
function runsData(kind: Kind, n: number, components: number, seed: number): StreamData {
  const words = new Uint32Array(n * components);
  const specials = [0, 0x80000000, 0x7fc00000, 0xffc00001, 0x7f800000, 0xff800000, 1, 0x3f800000, 0xbf800000, 7];
  let a = seed >>> 0;
  const next = () => (a = (Math.imul(a, 1664525) + 1013904223) >>> 0);
  for (let i = 0; i < n; i++) {
    const repeat = i > 0 && (next() & 1) === 1;
    for (let c = 0; c < components; c++) words[i * components + c] = repeat ? words[(i - 1) * components + c]! : specials[next() % specials.length]!;
  }
  return new arrayOf[kind](words.buffer);
}

const wordsOf = (data: StreamData) => new Uint32Array(data.buffer, data.byteOffset, data.length);

/** The first positions of runs of elements equal in all their words. */
function runStarts(words: Uint32Array, components: number): number[] {
  const n = words.length / components;
  const starts: number[] = [];
  for (let i = 0; i < n; i++) {
    let same = i > 0;
    for (let c = 0; same && c < components; c++) same = words[i * components + c] === words[(i - 1) * components + c];
    if (!same) starts.push(i);
  }
  return starts;
}

const elementsAt = (words: Uint32Array, components: number, positions: number[]) => Uint32Array.from(positions.flatMap((i) => Array.from({ length: components }, (_, c) => words[i * components + c]!)));

describe('engine.unique() and engine.runLengthEncode()', () => {
  it.each(kinds)('%s, 1 and 4 components, lengths at word and row boundaries', async (kind) => {
    const engine = await testEngine();
    for (const components of [1, 4] as const) {
      for (const n of lengths) {
        const data = runsData(kind, n, components, n * 7 + components);
        const words = wordsOf(data);
        const stream = engine.stream(data, { components });
        const starts = runStarts(words, components);
        const label = `${kind} ×${components} n=${n}`;
        const unique = engine.unique(stream);
        expect(unique.stats.order).toBe('keep');
        expect(await unique.count(), label).toBe(starts.length);
        expectSameBits(new Uint32Array((await unique.read()).buffer), elementsAt(words, components, starts), `${label} unique`);
        const runs = engine.runLengthEncode(stream);
        expect(await runs.count(), label).toBe(starts.length);
        expectSameBits(new Uint32Array((await runs.values.read()).buffer), elementsAt(words, components, starts), `${label} values`);
        expectSameBits(await runs.counts.read(), Uint32Array.from(starts, (s, j) => (starts[j + 1] ?? n) - s), `${label} counts`);
        unique.dispose();
        runs.dispose();
        stream.dispose();
      }
    }
  });

  it('a stream whose length is on the GPU (run-length encoded and unique); an empty stream', async () => {
    const engine = await testEngine();
    const source = engine.stream(Uint32Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? 0 : 1 + ((i / 50) | 0))));
    const compacted = engine.compact(source, { keep: 'nonzero' });
    const data = Uint32Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? 0 : 1 + ((i / 50) | 0))).filter((v) => v !== 0);
    const starts = runStarts(data, 1);
    const runs = engine.runLengthEncode(compacted.stream);
    expectSameBits(await runs.values.read(), elementsAt(data, 1, starts));
    expectSameBits(await runs.counts.read(), Uint32Array.from(starts, (s, j) => (starts[j + 1] ?? data.length) - s));
    const unique = engine.unique(compacted.stream);
    expect(await unique.count()).toBe(starts.length);
    expectSameBits(await unique.read(), elementsAt(data, 1, starts), 'unique of a GPU-resident length');
    unique.dispose();
    runs.dispose();
    compacted.dispose();
    source.dispose();
    const empty = engine.stream(new Float32Array(0));
    const none = engine.runLengthEncode(empty);
    expect(await none.count()).toBe(0);
    expect((await none.counts.read()).length).toBe(0);
    expect(await engine.unique(empty).count()).toBe(0);
    none.dispose();
    empty.dispose();
  });
});

/** CPU replay of reduce.frag's tree for float sums: 4×4 tiles, row by row, -0 padding. */
function treeFloatSum(values: Float32Array, components: number, width: number, height: number, c: number): number {
  let level = new Float32Array(width * height).fill(-0);
  const n = values.length / components;
  for (let i = 0; i < n; i++) level[i] = values[i * components + c]!;
  let [w, h] = [width, height];
  while (w > 1 || h > 1) {
    const [nw, nh] = [Math.ceil(w / 4), Math.ceil(h / 4)];
    const next = new Float32Array(nw * nh);
    for (let ty = 0; ty < nh; ty++) {
      for (let tx = 0; tx < nw; tx++) {
        let sum = level[ty * 4 * w + tx * 4]!;
        for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
          const [X, Y] = [tx * 4 + x, ty * 4 + y];
          if ((x === 0 && y === 0) || X >= w || Y >= h) continue;
          sum = Math.fround(sum + level[Y * w + X]!);
        }
        next[ty * nw + tx] = sum;
      }
    }
    [level, w, h] = [next, nw, nh];
  }
  return level[0]!;
}

/** Float32Array.prototype.sort's order: -0 before +0, NaN last (after +Infinity). */
function compareFloats(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number(Number.isNaN(a)) - Number(Number.isNaN(b));
  if (a === 0 && b === 0) return Number(!Object.is(a, -0)) - Number(!Object.is(b, -0));
  return a < b ? -1 : a > b ? 1 : 0;
}

describe('engine.reduce()', () => {
  it.each(kinds)('%s sum, min and max, 1 and 4 components, in the stream\'s own type', async (kind) => {
    const engine = await testEngine();
    for (const components of [1, 4] as const) {
      for (const n of [1, 33, 2049, 5 * 2048 + 3]) {
        const data = kind === 'float32'
          ? Float32Array.from({ length: n * components }, (_, k) => [((k * 37) % 1001) / 7 - 70, -0, NaN, Infinity, -Infinity, 1e-30][k % 97 === 5 ? 2 : k % 89 === 3 ? 3 : k % 83 === 4 ? 4 : k % 79 === 2 ? 5 : k % 61 === 1 ? 1 : 0]!)
          : kind === 'int32' ? Int32Array.from({ length: n * components }, (_, k) => Math.imul(k + 1, 2654435761) | 0)
            : Uint32Array.from({ length: n * components }, (_, k) => Math.imul(k + 1, 2246822519) >>> 0);
        const stream = engine.stream(data, { components });
        const label = `${kind} ×${components} n=${n}`;
        for (const op of ['sum', 'min', 'max'] as const) {
          const result = engine.reduce(stream, { op });
          const got = await result.read();
          expect(got.length, label).toBe(components);
          const expected = new arrayOf[kind](components);
          for (let c = 0; c < components; c++) {
            const column = Array.from({ length: n }, (_, i) => data[i * components + c]!);
            if (op === 'sum') expected[c] = kind === 'float32' ? treeFloatSum(data as Float32Array, components, stream.layout.width, stream.layout.height, c) : column.reduce((a, b) => a + b, 0);
            else if (kind === 'float32') {
              // the first element with the extreme key (ties keep the leftmost: bits of -0 vs +0 differ in key)
              let best = column[0]!;
              for (const v of column) if (op === 'min' ? compareFloats(v, best) < 0 : compareFloats(v, best) > 0) best = v;
              expected[c] = best;
            } else expected[c] = op === 'min' ? Math.min(...column) : Math.max(...column);
          }
          if (kind === 'float32' && expected.some(Number.isNaN)) {
            // which NaN (payload, sign) comes out is not specified: compare NaN-ness, the rest bit for bit
            got.forEach((v, c) => expect(Number.isNaN(v) ? 'NaN' : v, `${label} ${op}`).toEqual(Number.isNaN(expected[c]!) ? 'NaN' : expected[c]));
          } else expectSameBits(got, expected, `${label} ${op}`);
          result.dispose();
        }
        stream.dispose();
      }
    }
  });

  it('float sums of finite values of mixed magnitudes: bit for bit the CPU\'s replay of the tree (the order of additions shows)', async () => {
    // The test above holds NaN and infinities, so its float sums past 33 elements are NaN; here every
    // partial sum is finite and rounds, so a tree summed in another order gives other bits.
    const engine = await testEngine();
    for (const components of [1, 4] as const) {
      for (const n of [33, 2049, 5 * 2048 + 3, 70_001]) {
        const data = Float32Array.from({ length: n * components }, (_, k) => (((Math.imul(k + 1, 2654435761) >>> 0) % 100_003) / 7 - 7000) * (k % 13 === 0 ? 1e6 : 1));
        const stream = engine.stream(data, { components });
        const result = engine.reduce(stream, { op: 'sum' });
        const expected = Float32Array.from({ length: components }, (_, c) => treeFloatSum(data, components, stream.layout.width, stream.layout.height, c));
        const inOrder = Float32Array.from({ length: components }, (_, c) => {
          let sum = 0;
          for (let i = 0; i < n; i++) sum = Math.fround(sum + data[i * components + c]!);
          return sum;
        });
        expect(expected.every(Number.isFinite)).toBe(true);
        // The data are such that the order matters (else this test could not tell a wrong tree).
        if (n >= 2049) expect(Array.from(expected), `×${components} n=${n}: the tree's order and the input order differ`).not.toEqual(Array.from(inOrder));
        expectSameBits(await result.read(), expected, `×${components} n=${n}`);
        result.dispose();
        stream.dispose();
      }
    }
  });

  it('float min and max compare bits, not values the GPU may flush: denormals and -0 / +0 stay apart', async () => {
    const engine = await testEngine();
    const stream = engine.stream(new Float32Array([2e-40, 1e-40, 0, -0, 3e-40, -1e-40]));
    expect(Array.from(await engine.reduce(stream, { op: 'min' }).read())).toEqual([Math.fround(-1e-40)]);
    expect(Array.from(await engine.reduce(stream, { op: 'max' }).read())).toEqual([Math.fround(3e-40)]);
    const zeros = engine.stream(new Float32Array([0, -0, 0]));
    expect(Object.is((await engine.reduce(zeros, { op: 'min' }).read())[0], -0)).toBe(true);
    expect(Object.is((await engine.reduce(zeros, { op: 'max' }).read())[0], 0)).toBe(true);
  });

  it('a GPU-resident length; an empty stream reduces to 0 (-0 for a float sum)', async () => {
    const engine = await testEngine();
    const source = engine.stream(Uint32Array.from({ length: 9000 }, (_, i) => i % 5));
    const kept = engine.compact(source, { keep: { greaterThan: 2 } }); // 3s and 4s
    expect(Array.from(await engine.reduce(kept.stream, { op: 'sum' }).read())).toEqual([1800 * 3 + 1800 * 4]);
    expect(Array.from(await engine.reduce(kept.stream, { op: 'min' }).read())).toEqual([3]);
    const empty = engine.stream(new Float32Array(0));
    expect(Object.is((await engine.reduce(empty, { op: 'sum' }).read())[0], -0)).toBe(true);
    expect(Array.from(await engine.reduce(engine.stream(new Int32Array(0)), { op: 'max' }).read())).toEqual([0]);
    kept.dispose();
    source.dispose();
  });
});

/** Inclusive or exclusive scan restarting where starts[i] (element 0 always starts). */
function segmentedReference(data: StreamData, components: number, starts: (i: number) => boolean, exclusive: boolean): Uint32Array {
  const n = data.length / components;
  const out = new arrayOf[data instanceof Float32Array ? 'float32' : data instanceof Int32Array ? 'int32' : 'uint32'](data.length);
  const sum = new Array<number>(components).fill(0);
  for (let i = 0; i < n; i++) {
    if (i === 0 || starts(i)) sum.fill(0);
    for (let c = 0; c < components; c++) {
      if (exclusive) out[i * components + c] = sum[c]!;
      sum[c] = data instanceof Float32Array ? sum[c]! + data[i * components + c]! : (sum[c]! + data[i * components + c]!) | 0;
      if (!exclusive) out[i * components + c] = sum[c]!;
    }
  }
  return new Uint32Array(out.buffer);
}

describe('engine.scan(stream, { segments })', () => {
  it.each(kinds)('%s values (integers: exact; floats: small integers, exact in any order), uint32 and float32 segments, inclusive and exclusive', async (kind) => {
    const engine = await testEngine();
    for (const components of [1, 4] as const) {
      for (const n of lengths) {
        const values = new arrayOf[kind](Array.from({ length: n * components }, (_, k) => (kind === 'uint32' ? Math.imul(k + 3, 2654435761) >>> 0 : kind === 'int32' ? Math.imul(k + 3, 2654435761) | 0 : (k % 17) - 8)));
        const flags = Uint32Array.from({ length: n }, (_, i) => ((Math.imul(i, 2246822519) >>> 27) === 0 ? 1 + (i % 3) : 0));
        const stream = engine.stream(values, { components });
        const segments = engine.stream(n % 2 ? new Float32Array(Array.from(flags, (f, i) => (f ? 0.5 : i % 2 ? -0 : 0))) : flags);
        for (const exclusive of [false, true]) {
          const scanned = engine.scan(stream, { segments, exclusive });
          expect(engine.lastScanStats?.segments).toBe(true);
          expectSameBits(new Uint32Array((await scanned.read()).buffer), segmentedReference(values, components, (i) => flags[i] !== 0, exclusive), `${kind} ×${components} n=${n} ${exclusive ? 'exclusive' : 'inclusive'}`);
          scanned.dispose();
        }
        stream.dispose();
        segments.dispose();
      }
    }
  });

  it('a stream whose length is on the GPU (carries across four levels)', async () => {
    const engine = await testEngine();
    const data = Uint32Array.from({ length: 20000 }, (_, i) => (i % 5 === 0 ? 0 : Math.imul(i, 2654435761) >>> 20));
    const kept = data.filter((v) => v !== 0);
    const starts = (i: number) => kept[i]! % 64 === 0; // ~1 in 64: segments span groups and levels
    const source = engine.stream(data);
    const compacted = engine.compact(source, { keep: 'nonzero' });
    const segments = engine.stream(Uint32Array.from(kept, (_, i) => (starts(i) ? 1 : 0)));
    for (const exclusive of [false, true]) {
      const scanned = engine.scan(compacted.stream, { segments, exclusive });
      expect(await scanned.readLength()).toBe(kept.length);
      expectSameBits(await scanned.read(), segmentedReference(kept, 1, starts, exclusive), `GPU-resident length, ${exclusive ? 'exclusive' : 'inclusive'}`);
      scanned.dispose();
    }
    for (const s of [compacted, segments, source]) s.dispose();
  });

  it('long segments over a multi-row stream: carries through every level, up to the top', async () => {
    // 2^17 + 5 elements: six levels up. With no start but element 0 the scan equals the whole-stream
    // scan (every group takes its carry, at every level); with one start mid-stream, the groups after
    // it take carries from entries that hold it.
    const engine = await testEngine();
    const n = 2 ** 17 + 5;
    const values = Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 7, 2654435761) >>> 8);
    const stream = engine.stream(values);
    for (const start of [undefined, 77_777]) {
      const flags = new Uint32Array(n);
      if (start !== undefined) flags[start] = 1;
      const segments = engine.stream(flags);
      for (const exclusive of [false, true]) {
        const scanned = engine.scan(stream, { segments, exclusive });
        expectSameBits(await scanned.read(), segmentedReference(values, 1, (i) => flags[i] !== 0, exclusive), `start ${start ?? 'none'} ${exclusive ? 'exclusive' : 'inclusive'}`);
        scanned.dispose();
      }
      segments.dispose();
    }
    stream.dispose();
  });

  it('a property: any uint32 values and segment starts', async () => {
    const engine = await testEngine();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.boolean()), { minLength: 1, maxLength: 6000, size: 'max' }), fc.boolean(), async (pairs, exclusive) => {
        const values = Uint32Array.from(pairs, ([v]) => v);
        const flags = Uint32Array.from(pairs, ([, s]) => (s ? 1 : 0));
        const stream = engine.stream(values);
        const segments = engine.stream(flags);
        const scanned = engine.scan(stream, { segments, exclusive });
        expectSameBits(await scanned.read(), segmentedReference(values, 1, (i) => flags[i] !== 0, exclusive));
        for (const s of [stream, segments, scanned]) s.dispose();
      }),
      { numRuns: 20, seed: 20261125 },
    );
  });
});
