// The `family` sweep's trials: engine.sort (uint32 keys + values, 16-bit keys with bits: 16 + values,
// float32 keys + values, uint32 keys alone), engine.unique, engine.runLengthEncode, engine.reduce
// (sum, min, max), engine.scan(stream, { segments }) and engine.partition, each against host code
// doing the same in the same process (family-cpu.mjs). Every GPU result is checked bit-exactly
// against the CPU in the warm-up (the sorts: keys and values, against a stable LSD counting sort
// that is itself checked against TypedArray.prototype.sort and for stability).
import { countGlCalls, VerificationError } from './runner.mjs';
import { summarize } from './stats.mjs';
import {
  cpuPartition, cpuReduce, cpuRunLengthEncode, cpuSegmentedScan, cpuUnique, depth16, indices, lsdBuffers, lsdSort, lsdSortFloat32,
  runs, segmentHeads, signedFloats, uniformBytes, uniformFloats, uniformUint32,
} from './family-cpu.mjs';

/**
 * The family sweep's engine: default texture limit (4096², which holds 2^24 elements) and a pool large
 * enough for a 2^24 sort's targets (flags and scan levels of RGBA32UI are 256 MiB each at 2^24), so
 * the timed calls reuse textures instead of allocating them (the CLI's main engine has 512 MiB).
 */
export const FAMILY_ENGINE_OPTIONS = { texturePoolBytes: 3 * 2 ** 30 };

export const FAMILY_SEEDS = { uint32Keys: 22, depth16Keys: 2216, float32Keys: 2232, runs: 7, segmentHeads: 256, uniformFloat32: 2009, uniformUint8AsUint32: 1986 };

/** What each input is (recorded in the sweep's config). */
export const FAMILY_INPUTS = {
  uint32Keys: 'uint32, uniform over all 2^32 values (mulberry32); also the input of reduce',
  depth16Keys: 'uint32 < 2^16, uniform (depth keys, about n/65536 copies of each)',
  float32Keys: 'float32, uniform in [-1024, 1024), +0 and -0 alternately at every 4096th element',
  values: 'uint32 indices 0..n-1 (the payload of every sort with values)',
  runs: 'uint32, runs of 1..16 equal random values (input of unique and runLengthEncode; ~n/8.5 runs)',
  scan: 'uint32 in 0..255 (the sizes sweep\'s scan data) with segment heads: 1 with probability 1/256 (uint32 stream)',
  partition: 'float32 uniform in [0, 1) (the sizes sweep\'s data), keep { lessEqual: 0.5 }',
};

/** The three sorted key sets: which data, how many 8-bit host passes, which engine option. */
export const SORT_CASES = {
  uint32: { operand: 'uint32 keys', input: 'uint32Keys', lsdPasses: 4, bits: undefined, native: 'Uint32Array.prototype.sort' },
  depth16: { operand: '16-bit keys', input: 'depth16Keys', lsdPasses: 2, bits: 16, native: 'Uint32Array.prototype.sort' },
  float32: { operand: 'float32 keys', input: 'float32Keys', lsdPasses: 4, bits: undefined, native: 'Float32Array.prototype.sort', float: true },
};

const MAKERS = {
  uint32Keys: (n) => uniformUint32(n, FAMILY_SEEDS.uint32Keys),
  depth16Keys: (n) => depth16(n, FAMILY_SEEDS.depth16Keys),
  float32Keys: (n) => signedFloats(n, FAMILY_SEEDS.float32Keys),
  values: (n) => indices(n),
  runs: (n) => runs(n, FAMILY_SEEDS.runs),
  segmentHeads: (n) => segmentHeads(n, FAMILY_SEEDS.segmentHeads),
  bytes: (n) => uniformBytes(n, FAMILY_SEEDS.uniformUint8AsUint32),
  floats: (n) => uniformFloats(n, FAMILY_SEEDS.uniformFloat32),
};

const PARTITION_THRESHOLD = 0.5;

const bitsOf = (a) => (a instanceof Uint32Array ? a : new Uint32Array(a.buffer, a.byteOffset, a.length));

function firstMismatch(got, want) {
  if (got.length !== want.length) return { index: Math.min(got.length, want.length), got: `length ${got.length}`, want: `length ${want.length}` };
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return { index: i, got: got[i], want: want[i] };
  return undefined;
}

function describe(point) {
  return `sweep "family", ${point.series} (n=${point.n} = 2^${Math.log2(point.n)}, options ${JSON.stringify(point.options)})`;
}

/** Throws a VerificationError naming the first differing element (compared as bits). */
function expectSame(point, what, got, want) {
  const m = firstMismatch(bitsOf(got), bitsOf(want));
  if (m !== undefined) {
    const context = (a, i) => Array.from(bitsOf(a).subarray(Math.max(0, i - 2), i + 3)).join(',');
    throw new VerificationError(`${describe(point)}: ${what} differ from the CPU at element ${m.index}: GPU ${m.got}, CPU ${m.want} (bits; GPU around it [${context(got, m.index)}], CPU [${context(want, m.index)}])`);
  }
}

/**
 * The sorted keys (as bits) and values of a sort case: a stable LSD counting sort, checked here
 * against TypedArray.prototype.sort (same keys, bit for bit) and for being a stable permutation
 * (each value is the index of its key in the input; equal keys keep increasing indices).
 */
function sortReference(ctx, sortCase, n) {
  return ctx.memo(`sort-reference:${sortCase.input}:${n}`, () => {
    const keys = ctx.input(sortCase.input, n, MAKERS[sortCase.input]).data;
    const values = ctx.input('values', n, MAKERS.values).data;
    const buffers = lsdBuffers(n, true);
    if (sortCase.float) lsdSortFloat32(bitsOf(keys), values, buffers, new Uint32Array(n));
    else lsdSort(keys, values, sortCase.lsdPasses, buffers);
    const native = keys.slice().sort();
    const m = firstMismatch(buffers.keys, bitsOf(native));
    if (m !== undefined) throw new VerificationError(`family sweep: the host LSD sort of ${sortCase.operand} (n=${n}) differs from ${sortCase.native} at ${m.index}: ${m.got} vs ${m.want} (a bug in bench/lib/family-cpu.mjs)`);
    const inputBits = bitsOf(keys);
    const seen = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = buffers.values[i];
      const bad = v >= n || seen[v] || inputBits[v] !== buffers.keys[i] || (i > 0 && buffers.keys[i] === buffers.keys[i - 1] && v <= buffers.values[i - 1]);
      if (bad) throw new VerificationError(`family sweep: the host LSD sort of ${sortCase.operand} (n=${n}) is not a stable permutation at ${i} (value ${v}) (a bug in bench/lib/family-cpu.mjs)`);
      seen[v] = 1;
    }
    return { keys: buffers.keys, values: buffers.values };
  });
}

const DRAW_METHODS = ['drawArrays', 'drawElements', 'drawArraysInstanced', 'drawElementsInstanced', 'drawRangeElements'];
const drawsIn = (counted) => DRAW_METHODS.reduce((sum, name) => sum + (counted.byMethod[name] ?? 0), 0);

/** The passes of the 4-component uint32 scan engine.sort runs per digit, from engine.scan of such a stream of n elements. */
function rgbaScanCost(ctx, engine, n) {
  return ctx.memo(`rgba-scan:${n}`, () => {
    const stream = engine.stream(new Uint32Array(4 * n), { components: 4 });
    try {
      let result;
      const counted = countGlCalls(ctx.gl, () => { result = engine.scan(stream); });
      result.dispose();
      const stats = engine.lastScanStats;
      return { algorithm: stats.algorithm, passes: stats.passes, drawCalls: stats.drawCalls, glDrawCalls: drawsIn(counted) };
    } finally {
      stream.dispose();
    }
  });
}

/** The GPU operation of a point: issue(engine) → result (with dispose()); verify(result) → what was checked. */
function gpuOperation(ctx, point, engine) {
  const n = point.n;
  const stream = (name) => ctx.input(name, n, MAKERS[name], engine).stream;
  const data = (name) => ctx.input(name, n, MAKERS[name]).data;
  switch (point.op) {
    case 'sort': {
      const sortCase = SORT_CASES[point.sortCase];
      const keys = stream(sortCase.input);
      const values = point.withValues ? stream('values') : undefined;
      const options = { ...(values ? { values } : {}), ...(sortCase.bits ? { bits: sortCase.bits } : {}) };
      return {
        issue: () => engine.sort(keys, options),
        async verify(result) {
          const reference = sortReference(ctx, sortCase, n);
          expectSame(point, 'sorted keys', await result.keys.read(), reference.keys);
          if (values) expectSame(point, 'values moved with the keys', await result.values.read(), reference.values);
          return values ? 'keys + values (all, bit-exact, against a stable sort)' : 'keys (all, bit-exact)';
        },
      };
    }
    case 'unique': {
      const input = stream('runs');
      return {
        issue: () => engine.unique(input),
        async verify(result) {
          const want = ctx.memo(`unique:${n}`, () => { const out = new Uint32Array(n); return out.subarray(0, cpuUnique(data('runs'), out)); });
          const count = await result.count();
          if (count !== want.length) throw new VerificationError(`${describe(point)}: GPU kept ${count} elements, the CPU loop ${want.length}`);
          expectSame(point, 'unique elements', await result.read(), want);
          return { verified: 'count + values (all, bit-exact)', count };
        },
      };
    }
    case 'runLengthEncode': {
      const input = stream('runs');
      return {
        issue: () => engine.runLengthEncode(input),
        async verify(result) {
          const want = ctx.memo(`rle:${n}`, () => {
            const values = new Uint32Array(n);
            const counts = new Uint32Array(n);
            const k = cpuRunLengthEncode(data('runs'), values, counts);
            return { values: values.subarray(0, k), counts: counts.subarray(0, k) };
          });
          const count = await result.count();
          if (count !== want.values.length) throw new VerificationError(`${describe(point)}: GPU found ${count} runs, the CPU loop ${want.values.length}`);
          expectSame(point, 'run values', await result.values.read(), want.values);
          expectSame(point, 'run lengths', await result.counts.read(), want.counts);
          return { verified: 'count + values + counts (all, bit-exact)', count };
        },
      };
    }
    case 'reduce': {
      const input = stream('uint32Keys');
      return {
        issue: () => engine.reduce(input, { op: point.reduceOp }),
        async verify(result) {
          const want = cpuReduce(data('uint32Keys'), point.reduceOp);
          const got = (await result.read())[0];
          if (got !== want) throw new VerificationError(`${describe(point)}: GPU ${point.reduceOp} ${got}, CPU loop ${want}`);
          return { verified: 'value (bit-exact)', value: got };
        },
      };
    }
    case 'scan-segments': {
      const input = stream('bytes');
      const segments = stream('segmentHeads');
      return {
        issue: () => engine.scan(input, { segments }),
        async verify(result) {
          const want = new Uint32Array(n);
          cpuSegmentedScan(data('bytes'), data('segmentHeads'), want);
          expectSame(point, 'segmented sums', await result.read(), want);
          return { verified: 'values (all, bit-exact)' };
        },
      };
    }
    case 'partition': {
      const input = stream('floats');
      const keep = { lessEqual: PARTITION_THRESHOLD };
      return {
        issue: () => engine.partition(input, { keep }),
        async verify(result) {
          const want = new Float32Array(n);
          const kept = cpuPartition(data('floats'), Math.fround(PARTITION_THRESHOLD), want);
          const count = await result.count();
          if (count !== kept) throw new VerificationError(`${describe(point)}: GPU kept ${count}, the CPU loop ${kept}`);
          expectSame(point, 'partitioned values', await result.read(), want);
          return { verified: 'count + values (all, bit-exact, in order)', count };
        },
      };
    }
    default:
      throw new Error(`internal: unknown family operation ${point.op}`);
  }
}

/** The host code of a point: once() runs it (timed); check() compares its output with the reference. */
function cpuOperation(ctx, point) {
  const n = point.n;
  const data = (name) => ctx.input(name, n, MAKERS[name]).data;
  switch (point.op) {
    case 'sort': {
      const sortCase = SORT_CASES[point.sortCase];
      const keys = data(sortCase.input);
      if (point.method === 'cpu-native-sort') {
        const copy = new keys.constructor(n);
        return {
          once: () => { copy.set(keys); copy.sort(); },
          check: () => { expectSame(point, `${sortCase.native} keys`, copy, sortReference(ctx, sortCase, n).keys); return 'keys equal the reference (bit-exact)'; },
        };
      }
      const values = data('values');
      const buffers = lsdBuffers(n, true);
      const mapped = sortCase.float ? new Uint32Array(n) : undefined;
      return {
        once: sortCase.float ? () => lsdSortFloat32(bitsOf(keys), values, buffers, mapped) : () => lsdSort(keys, values, sortCase.lsdPasses, buffers),
        check: () => {
          const reference = sortReference(ctx, sortCase, n); // checked against TypedArray.prototype.sort and for stability
          expectSame(point, 'host LSD keys', buffers.keys, reference.keys);
          expectSame(point, 'host LSD values', buffers.values, reference.values);
          return `the reference: keys equal ${sortCase.native}'s, values a stable permutation`;
        },
      };
    }
    case 'unique': {
      const input = data('runs');
      const out = new Uint32Array(n);
      let k = 0;
      return { once: () => { k = cpuUnique(input, out); }, check: () => ({ verified: 'reference', count: k }) };
    }
    case 'runLengthEncode': {
      const input = data('runs');
      const values = new Uint32Array(n);
      const counts = new Uint32Array(n);
      let k = 0;
      return { once: () => { k = cpuRunLengthEncode(input, values, counts); }, check: () => ({ verified: 'reference', count: k }) };
    }
    case 'reduce': {
      const input = data('uint32Keys');
      let value;
      return { once: () => { value = cpuReduce(input, point.reduceOp); }, check: () => ({ verified: 'reference', value }) };
    }
    case 'scan-segments': {
      const input = data('bytes');
      const heads = data('segmentHeads');
      const out = new Uint32Array(n);
      return { once: () => cpuSegmentedScan(input, heads, out), check: () => ({ verified: 'reference' }) };
    }
    case 'partition': {
      const input = data('floats');
      const out = new Float32Array(n);
      const threshold = Math.fround(PARTITION_THRESHOLD);
      let k = 0;
      return { once: () => { k = cpuPartition(input, threshold, out); }, check: () => ({ verified: 'reference', count: k }) };
    }
    default:
      throw new Error(`internal: unknown family operation ${point.op}`);
  }
}

function pointFields(point) {
  const { series, kind, n, x, options, op, method, operand, panel } = point;
  const how = point.sortMethod ?? (method === 'gpu' ? 'GPU' : 'JS loop');
  const extra = op === 'sort' ? { sortCase: point.sortCase, withValues: point.withValues } : op === 'reduce' ? { reduceOp: point.reduceOp } : {};
  return { series, kind, op, method, how, operand, panel, n, ...x, ...extra, options };
}

const asInfo = (v) => (typeof v === 'string' ? { verified: v } : v);

/** A trial for the runner (runner.mjs runGroup): warmUp() (verified), timeOnce(), record(times). */
export function familyTrial(ctx, point) {
  return point.method === 'gpu' ? gpuTrial(ctx, point) : cpuTrial(ctx, point);
}

function gpuTrial(ctx, point) {
  const engine = ctx.engineFor(point.engineOptions);
  const operation = gpuOperation(ctx, point, engine);
  let info;
  let cost;
  return {
    async warmUp() {
      let result;
      // The warm-up call is also the one whose GL calls are counted (wrapping gl's methods: not timed).
      const counted = countGlCalls(ctx.gl, () => { result = operation.issue(); });
      const stats = result.stats ?? (point.op === 'scan-segments' ? engine.lastScanStats : undefined);
      try {
        info = asInfo(await operation.verify(result));
      } finally {
        result.dispose();
      }
      await engine.finish();
      cost = {
        passes: stats?.passes ?? null,
        drawCalls: stats?.drawCalls ?? null,
        fragments: stats?.fragments ?? null,
        glDrawCalls: drawsIn(counted),
        glCalls: counted.total,
        statsSource: stats ? (result.stats ? 'result.stats' : 'engine.lastScanStats') : 'none exposed (glDrawCalls counted by wrapping the context)',
      };
      if (point.op === 'sort') cost.sortPasses = sortPasses(ctx, engine, point, cost.glDrawCalls);
    },
    async timeOnce() {
      const start = performance.now();
      const result = operation.issue();
      await engine.finish();
      const ms = performance.now() - start;
      result.dispose();
      return ms;
    },
    record(times) {
      return { ...pointFields(point), engineOptions: point.engineOptions, ...summarize(times), timing: 'wall+sync', sync: 'await engine.finish()', ...cost, ...info };
    },
  };
}

/**
 * engine.sort's passes (src/sort.ts): per 4-bit digit one pass packing the digits (the first digit
 * only where the select writes the next digit's planes: 5+ attachments), one making each
 * block's digit masks, one counting them per group of 4 blocks, one 4-component scan of the counts
 * (n/256 groups × 4 quads = n/64 texels: src/sort.ts SORT_COUNTS), then where passes write 4+
 * attachments a select pass, which places the pairs itself (SORT_SELECT.writes 'pairs'; the last
 * digit's writes the input positions, which the gathers read where they lie: no move pass), from 2^20 elements after a directory pass of its own
 * (SORT_SELECT.directoryFrom), else a move pass per digit (from 2^18 elements after a directory pass:
 * SORT_DIRECTORY.fromElements); then a gather per moved stream (keys, values), or, where the select
 * runs and the keys are integers (the pairs then carry the values, of one component, if any:
 * SORT_SELECT.carry), one copy out of the last select's pairs writing the keys and the values at once. The scan's passes come
 * from engine.scan of a 4-component uint32 stream of n/64 elements (the same default algorithm);
 * `formula` is compared with the draws counted. The constants are the engine's defaults, copied
 * (this file also runs in a page against the built package).
 */
function sortPasses(ctx, engine, point, counted) {
  const sortCase = SORT_CASES[point.sortCase];
  const digits = Math.ceil((sortCase.bits ?? 32) / 4);
  const moved = point.withValues ? 2 : 1;
  const scan = rgbaScanCost(ctx, engine, point.n / 64);
  // Where a pass writes 4+ attachments, a select pass per digit (SORT_SELECT), after a directory
  // pass from SORT_SELECT.directoryFrom (2^20) elements; else streams of SORT_DIRECTORY.fromElements
  // (2^18) and more add a directory pass per digit.
  const select = engine.caps.drawBuffers >= 4 ? 1 : 0;
  // From 5 attachments (8 here) the select writes the next digit's planes beside the pairs
  // (SORT_SELECT.planes): a digits pass for the first digit only.
  const packs = select && engine.caps.drawBuffers >= 5 ? 1 : digits;
  const directory = point.n >= (select ? 2 ** 20 : 2 ** 18) ? 1 : 0;
  const moves = select ? 0 : digits;
  // Integer keys' pairs carry the index values, if any (SORT_SELECT.carry): one copy out of the last
  // select's pairs writes the keys and the values.
  const copiedOnce = select && !sortCase.float;
  const outputs = copiedOnce ? 1 : moved;
  const formula = digits * (2 + scan.glDrawCalls + select + directory) + packs + moves + outputs;
  return {
    digits,
    perDigit: { masksCounts: 2, scanDraws: scan.glDrawCalls, scanAlgorithm: scan.algorithm, select, directory },
    packs,
    moves,
    gathers: copiedOnce ? 0 : moved,
    copiesOutOfPairs: copiedOnce ? 1 : 0,
    formula,
    formulaText: `${digits} digits × (2 masks/counts + ${scan.glDrawCalls} scan draws${directory ? ' + 1 directory' : ''}${select ? ' + 1 select' : ''}) + ${packs} digit pack${packs === 1 ? '' : 's'} + ${moves} move${moves === 1 ? '' : 's'} + ${copiedOnce ? '1 copy out of the pairs' : `${moved} gather${moved > 1 ? 's' : ''}`} = ${formula}`,
    countedDrawCalls: counted,
    matches: formula === counted,
  };
}

function cpuTrial(ctx, point) {
  const operation = cpuOperation(ctx, point);
  let info;
  const once = () => {
    const start = performance.now();
    operation.once();
    return performance.now() - start;
  };
  return {
    async warmUp() {
      once();
      info = asInfo(operation.check());
    },
    async timeOnce() { return once(); },
    record(times) {
      return { ...pointFields(point), ...summarize(times), timing: 'wall (CPU)', sync: null, ...info };
    },
  };
}
