import { FAMILY_ENGINE_OPTIONS, FAMILY_INPUTS, FAMILY_SEEDS, SORT_CASES } from './family.mjs';

// The sweeps: which points each one measures. A point is one operation at one x value; the
// runner (runner.mjs) times it. Points are ordered x-major so the series interleave in time
// (slow drift on a shared machine then hits every series alike).

const DENSITIES = [...Array.from({ length: 21 }, (_, i) => i * 5).filter((d) => d < 100), 99, 100]; // % invalid
// --quick: steps of 10, finer from 70 % (around the paper's ~78 % crossover), so the whole quick run
// stays well under 3 minutes on a loaded 2-core llvmpipe machine.
const QUICK_DENSITIES = [0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95, 99, 100];
const BLOCK_SIZES = [16, 32, 64, 128, 256, 512, 1024, 2048];

/** The keep threshold for a given invalid density on uniform [0,1) data: keep x <= 1 - density. */
export function keptFraction(invalidPercent) {
  return Math.round((100 - invalidPercent) * 1e6) / 1e8;
}

export const SWEEPS = {
  density: {
    title: 'Compaction time vs invalid density (paper Fig. 11)',
    describe: (c) => `n = 2^${Math.log2(c.n)}, block ${c.blockSize}, uniform [0,1) float32 keep x <= 1 - density; Jumping Jack vs Horn (block) vs Horn (global) vs the HistoPyramid vs the bitmask vs auto (the default call), and the block hybrid with each concatenation path, plus the CPU filter loop`,
    config: (quick) => ({ n: quick ? 2 ** 20 : 2 ** 22, blockSize: 256, densities: quick ? QUICK_DENSITIES : DENSITIES }),
    points(c) {
      const series = [
        ['jumping-jack', { algorithm: 'jumping-jack' }],
        ['horn (block)', { algorithm: 'horn' }],
        ['horn (global)', { algorithm: 'horn', global: true }],
        ['histopyramid', { algorithm: 'histopyramid' }],
        ['bitmask', { algorithm: 'bitmask' }],
        // What a call with no algorithm option runs (the bitmask since issue 13).
        ['auto', { algorithm: 'auto' }],
        // The paper's block pipeline, as 'auto' runs it when given block options and order 'any' (the
        // per-block hybrid), with the two ways to get the concatenation lines' endpoints.
        ['auto, transform-feedback', { algorithm: 'auto', order: 'any', concat: 'transform-feedback' }],
        ['auto, vertex-fetch', { algorithm: 'auto', order: 'any', concat: 'vertex-fetch' }],
      ];
      const points = [];
      for (const density of c.densities) {
        const keep = { lessEqual: keptFraction(density) };
        const x = { density };
        const verifyValues = c.n <= 2 ** 20 || [0, 25, 50, 75, 95, 99, 100].includes(density);
        for (const [name, opts] of series) {
          const blocks = opts.algorithm === 'jumping-jack' || opts.algorithm === 'horn' ? !opts.global : opts.concat !== undefined;
          const options = { keep, ...opts, ...(blocks ? { blockSize: c.blockSize } : {}) };
          points.push({ sweep: 'density', series: name, kind: 'compact', n: c.n, x, options, verifyValues });
        }
        points.push({ sweep: 'density', series: 'cpu filter loop', kind: 'cpu-filter', n: c.n, x, options: { keep } });
      }
      return points;
    },
  },

  'block-size': {
    title: 'Block size: compaction and intra-block scan (paper Figs. 9, 10)',
    describe: (c) => `n = 2^${Math.log2(c.n)}, 50 % kept (uniform [0,1) float32, keep x <= 0.5); Jumping Jack compaction with each block scan, and the segmented scan alone (uint32 data)`,
    config: (quick) => ({ n: quick ? 2 ** 20 : 2 ** 22, blockSizes: BLOCK_SIZES }),
    points(c) {
      const points = [];
      for (const blockSize of c.blockSizes) {
        const x = { blockSize };
        const verifyValues = c.n <= 2 ** 20 || [16, 256, 2048].includes(blockSize);
        for (const scan of ['recursive-doubling', 'blelloch', 'reduce-then-scan']) {
          const options = { keep: { lessEqual: 0.5 }, algorithm: 'jumping-jack', blockSize, scan };
          points.push({ sweep: 'block-size', series: `compact, ${scan} scan`, kind: 'compact', n: c.n, x, options, verifyValues });
        }
        for (const algorithm of ['recursive-doubling', 'blelloch', 'reduce-then-scan']) {
          points.push({ sweep: 'block-size', series: `scan only, ${algorithm}`, kind: 'scan', n: c.n, x, options: { algorithm, blockSize } });
        }
      }
      return points;
    },
  },

  sizes: {
    title: 'Stream size: compaction and global scan vs the CPU',
    describe: (c) => `n = 2^${Math.log2(c.sizes[0])}..2^${Math.log2(c.sizes.at(-1))}, 50 % kept (uniform [0,1) float32, keep x <= 0.5), block 256 for the block algorithms; global inclusive scans of uint32 data (each algorithm and the default choice); CPU typed-array loops`,
    config: (quick) => ({ sizes: Array.from({ length: (quick ? 20 : 24) - 10 + 1 }, (_, i) => 2 ** (10 + i)) }),
    points(c) {
      const points = [];
      const keep = { lessEqual: 0.5 };
      for (const n of c.sizes) {
        const x = { log2n: Math.log2(n) };
        points.push({ sweep: 'sizes', series: 'compact, jumping-jack', kind: 'compact', n, x, options: { keep, algorithm: 'jumping-jack', blockSize: 256 }, verifyValues: true });
        points.push({ sweep: 'sizes', series: 'compact, horn (block)', kind: 'compact', n, x, options: { keep, algorithm: 'horn', blockSize: 256 }, verifyValues: true });
        points.push({ sweep: 'sizes', series: 'compact, histopyramid', kind: 'compact', n, x, options: { keep, algorithm: 'histopyramid' }, verifyValues: true });
        points.push({ sweep: 'sizes', series: 'compact, bitmask', kind: 'compact', n, x, options: { keep, algorithm: 'bitmask' }, verifyValues: true });
        points.push({ sweep: 'sizes', series: 'compact, auto (default)', kind: 'compact', n, x, options: { keep }, verifyValues: true });
        points.push({ sweep: 'sizes', series: 'scan, recursive-doubling', kind: 'scan', n, x, options: { algorithm: 'recursive-doubling' } });
        points.push({ sweep: 'sizes', series: 'scan, blelloch', kind: 'scan', n, x, options: { algorithm: 'blelloch' } });
        points.push({ sweep: 'sizes', series: 'scan, reduce-then-scan', kind: 'scan', n, x, options: { algorithm: 'reduce-then-scan' } });
        points.push({ sweep: 'sizes', series: 'scan, default', kind: 'scan', n, x, options: {} });
        points.push({ sweep: 'sizes', series: 'cpu filter loop', kind: 'cpu-filter', n, x, options: { keep } });
        points.push({ sweep: 'sizes', series: 'cpu prefix-sum loop', kind: 'cpu-scan', n, x, options: {} });
      }
      return points;
    },
  },
};

// The GL state contract's cost (issue 10): the same compaction on two engines of one context, one
// saving and restoring the app's state around every public call (the default) and one with
// `preserveState: false` (sets the state it needs, saves nothing). Small enough that the per-call
// GL queries and restores are not lost in the passes; one timed run is a loop of calls between two
// engine.finish() calls, reported per call.
SWEEPS['state-contract'] = {
  title: 'Cost of the GL state contract (preserveState true vs false)',
  describe: (c) => `n = 2^${Math.log2(c.n)}, 50 % kept (uniform [0,1) float32, keep x <= 0.5), algorithm 'auto', block 256; ` +
    `per call: median of ${c.repeats} timed runs of ${c.callsPerRun} engine.compact() + result.dispose() between two engine.finish() calls, the two engines interleaved; ` +
    'also the time to issue the calls alone (before the closing finish)',
  config: (quick) => ({ n: 2 ** 16, callsPerRun: quick ? 10 : 20, repeats: quick ? 15 : 31 }),
  points(c) {
    const x = { log2n: Math.log2(c.n) };
    const options = { keep: { lessEqual: 0.5 }, algorithm: 'auto', order: 'any', blockSize: 256 };
    return [
      ['with the contract (default)', {}],
      ['preserveState: false', { preserveState: false }],
    ].map(([series, engineOptions]) => ({
      sweep: 'state-contract', series, kind: 'compact-loop', n: c.n, x, options, engineOptions, callsPerRun: c.callsPerRun, repeats: c.repeats, verifyValues: true,
    }));
  },
};

// The new calls of the sort family (issue 22): engine.sort against host sorts, and unique,
// runLengthEncode, reduce, scan with segments and partition against plain host loops doing the same.
// Each point is checked bit-exactly against the CPU in its warm-up (bench/lib/family.mjs).
const SORT_METHODS = {
  'gpu-values': 'GPU radix sort + values',
  'gpu-keys': 'GPU radix sort, keys only',
  'cpu-lsd': 'JS LSD counting sort + values',
  'cpu-native-sort': 'TypedArray.prototype.sort, keys only',
};
const PRIMITIVES = [
  ['unique', 'unique', {}],
  ['runLengthEncode', 'runLengthEncode', {}],
  ['reduce sum', 'reduce', { reduceOp: 'sum' }],
  ['reduce min', 'reduce', { reduceOp: 'min' }],
  ['reduce max', 'reduce', { reduceOp: 'max' }],
  ['scan with segments', 'scan-segments', {}],
  ['partition', 'partition', {}],
];

SWEEPS.family = {
  title: 'Sort family: engine.sort, unique, runLengthEncode, reduce, segmented scan, partition vs the host',
  describe: (c) => `n = 2^${Math.log2(c.sizes[0])}..2^${Math.log2(c.sizes.at(-1))}; engine.sort (LSD radix, 4-bit digits) of random uint32 keys (with uint32 index values and alone), ` +
    '16-bit depth keys with index values (bits: 16) and signed float32 keys with index values, against a JS stable LSD counting sort (8-bit digits, with values) and TypedArray.prototype.sort on a copy (keys only); ' +
    'unique and runLengthEncode (runs of 1..16), reduce sum/min/max (uint32), scan with segments (heads 1/256), partition (50 % kept) against plain JS loops; GPU: call + await engine.finish()' +
    (c.gpuSortRepeats ? `; the GPU sorts: median of ${c.gpuSortRepeats} runs` : ''),
  config: (quick) => ({
    sizes: (quick ? [16, 18, 20] : [16, 18, 20, 22, 24]).map((e) => 2 ** e),
    engineOptions: FAMILY_ENGINE_OPTIONS,
    seeds: FAMILY_SEEDS,
    inputs: FAMILY_INPUTS,
    // On llvmpipe one 2^20 sort takes ~20 s: the quick run times the GPU sorts 3 times, not --repeats.
    gpuSortRepeats: quick ? 3 : undefined,
  }),
  points(c) {
    const points = [];
    const base = (n) => ({ sweep: 'family', kind: 'family', n, x: { log2n: Math.log2(n) } });
    for (const n of c.sizes) {
      for (const [caseName, sortCase] of Object.entries(SORT_CASES)) {
        const methods = caseName === 'uint32' ? ['gpu-values', 'gpu-keys', 'cpu-lsd', 'cpu-native-sort'] : ['gpu-values', 'cpu-lsd', 'cpu-native-sort'];
        for (const m of methods) {
          const gpu = m.startsWith('gpu');
          const withValues = m === 'gpu-values' || m === 'cpu-lsd';
          const options = gpu
            ? { ...(withValues ? { values: 'uint32 indices stream' } : {}), ...(sortCase.bits ? { bits: sortCase.bits } : {}) }
            : m === 'cpu-lsd' ? { passes: `${sortCase.lsdPasses} × 8 bits`, values: 'uint32 indices', ...(sortCase.float ? { orderMapped: true } : {}) } : { call: `${sortCase.native} on a copy` };
          points.push({
            ...base(n),
            series: `${SORT_METHODS[m]}, ${sortCase.operand}`,
            op: 'sort', panel: 'sort', operand: sortCase.operand, method: gpu ? 'gpu' : m, sortMethod: SORT_METHODS[m],
            sortCase: caseName, withValues, options,
            ...(gpu ? { engineOptions: c.engineOptions, repeats: c.gpuSortRepeats } : {}),
          });
        }
      }
      for (const [name, op, extra] of PRIMITIVES) {
        const options = op === 'reduce' ? { op: extra.reduceOp } : op === 'scan-segments' ? { segments: 'uint32 heads stream' } : op === 'partition' ? { keep: { lessEqual: 0.5 } } : {};
        points.push({ ...base(n), series: `GPU ${name}`, op, panel: 'primitives', operand: name, method: 'gpu', ...extra, options, engineOptions: c.engineOptions });
        points.push({ ...base(n), series: `JS loop ${name}`, op, panel: 'primitives', operand: name, method: 'cpu-loop', ...extra, options: {} });
      }
    }
    return points;
  },
};

export const SWEEP_NAMES = Object.keys(SWEEPS);
