// Runs benchmark points: per point a warm-up run that is also verified against the CPU, then
// `repeats` timed runs. GPU timing is wall time around the operation plus a one-texel sync
// (`await result.count()` then `await engine.finish()` for compactions, `await engine.finish()`
// for scans).
import { cpuFilter, cpuPrefixSum, cpuSegmentedPrefixSum, uniformBytes, uniformFloats } from './data.mjs';
import { familyTrial } from './family.mjs';
import { summarize } from './stats.mjs';

export class VerificationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'VerificationError';
  }
}

const FLOAT_SEED = 2009; // the paper's year; any fixed seed will do
const BYTE_SEED = 1986;

/** The page's clock tick (ms): the least step of performance.now() seen in three spins. */
function clockTickMs() {
  let tick = Infinity;
  for (let i = 0; i < 3; i++) {
    const from = performance.now();
    let to = from;
    for (let reads = 0; to === from && reads < 20_000; reads++) to = performance.now();
    if (to !== from) tick = Math.min(tick, to - from);
  }
  return Number.isFinite(tick) ? tick : 0;
}

/** Owns the engine-side inputs of a run: one seeded dataset (CPU array + GPU stream) per kind and size. */
export class BenchContext {
  /** `makeEngine(options)`: another engine on the same context, for points that set `engineOptions`. */
  constructor(engine, { repeats, onRun, makeEngine, gl, gpuWarmMs = 0 }) {
    this.engine = engine;
    // Before each timed sample of a GPU point, its operation runs untimed for this long (0: not at
    // all). A GPU left idle while the host baselines ran (the family sweep's host sorts take up to 3 s
    // at 2^24) drops its clocks, and the next sample pays for it: H200 egl, 2026-11-28, a 2^20 sort of
    // uint32 keys + values read 20.8-28.7 ms in the family sweep against 4.7 ms after 1.5 s of calls.
    this.gpuWarmMs = gpuWarmMs;
    this.gl = gl; // the context, for counting GL calls (state-contract sweep)
    this.repeats = repeats;
    this.onRun = onRun; // called after every run (warm-up included), for the progress bar
    this.makeEngine = makeEngine;
    /** Engines made for points with `engineOptions`, by their JSON (disposed by release()). */
    this.otherEngines = new Map();
    this.datasets = new Map();
    this.memos = new Map();
    this.expectedFilter = undefined; // the last CPU filter reference (points are ordered so it is reused)
    this.orderState = 12345; // seed of the per-round order of the timed runs
    // A timed sample lasts at least two ticks of the page's clock (timeSample): 2 ms in Firefox and
    // WebKitGTK, whose clocks tick by whole ms; microseconds in Node and Chromium.
    this.minSampleMs = 2 * clockTickMs();
    warmUpCpuLoops();
  }

  static get seeds() {
    return { uniformFloat32: FLOAT_SEED, uniformUint8AsUint32: BYTE_SEED };
  }

  /** The engine a point runs on: the default one, or one made with its `engineOptions`. */
  engineFor(engineOptions) {
    if (!engineOptions || Object.keys(engineOptions).length === 0) return this.engine;
    const key = JSON.stringify(engineOptions);
    let engine = this.otherEngines.get(key);
    if (!engine) {
      if (!this.makeEngine) throw new Error('internal: BenchContext was given no makeEngine for points with engineOptions');
      engine = this.makeEngine(engineOptions);
      this.otherEngines.set(key, engine);
    }
    return engine;
  }

  /** The seeded input of `kind` ('floats' or 'bytes') and size `n`, and its stream on `engine` (streams belong to one engine). */
  dataset(kind, n, engine = this.engine) {
    return this.input(kind, n, (size) => (kind === 'floats' ? uniformFloats(size, FLOAT_SEED) : uniformBytes(size, BYTE_SEED)), engine);
  }

  /**
   * The CPU array `name` of size `n` (made once by `make(n)`) and, when `engine` is given, its stream
   * on that engine (made on first use; streams belong to one engine). Freed by release().
   */
  input(name, n, make, engine) {
    const key = `${name}:${n}`;
    let entry = this.datasets.get(key);
    if (!entry) {
      entry = { data: make(n), streams: new Map() };
      this.datasets.set(key, entry);
    }
    if (!engine) return { data: entry.data };
    if (!entry.streams.has(engine)) entry.streams.set(engine, engine.stream(entry.data));
    return { data: entry.data, stream: entry.streams.get(engine) };
  }

  /** A value computed once per key until release() (CPU references of the family sweep). */
  memo(key, compute) {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key);
  }

  /** Frees the GPU streams, the engine's idle pooled textures, the other engines and the CPU arrays (between sweeps). */
  release() {
    for (const { streams } of this.datasets.values()) for (const stream of streams.values()) stream.dispose();
    if (!this.engine.isDisposed) this.engine.trim(); // idle pooled textures of this sweep's sizes
    for (const engine of this.otherEngines.values()) engine.dispose();
    this.otherEngines.clear();
    this.datasets.clear();
    this.memos.clear();
    this.expectedFilter = undefined;
  }

  filterReference(n, threshold) {
    const cached = this.expectedFilter;
    if (cached && cached.n === n && cached.threshold === threshold) return cached;
    const { data } = this.dataset('floats', n);
    const out = new Float32Array(n);
    const count = cpuFilter(data, threshold, out);
    const values = out.subarray(0, count);
    let sorted;
    this.expectedFilter = { n, threshold, count, values, sorted: () => (sorted ??= values.slice().sort()) };
    return this.expectedFilter;
  }

  /**
   * Measures a group of points that share an x value: each one's warm-up (verified) first, then
   * the timed runs in rounds (each point once per round, in a shuffled order), so load from other
   * processes on a shared machine falls on every series alike instead of on whichever ran during
   * a busy spell.
   */
  async runGroup(points) {
    const trials = [];
    for (const point of points) {
      const trial = this.trial(point);
      await trial.warmUp();
      await this.onRun();
      trials.push(trial);
    }
    const times = trials.map(() => []);
    // A point may ask for its own number of timed runs (the state-contract sweep: many short ones).
    const rounds = Math.max(...points.map((point) => point.repeats ?? this.repeats));
    for (let r = 0; r < rounds; r++) {
      // A fresh (seeded) order each round: an operation's time depends on what ran just before
      // it (measured on llvmpipe: Jumping Jack ~10 % faster right after a Horn (global) run), so
      // no series may always follow the same neighbour.
      for (const i of this.shuffledIndices(trials.length)) {
        if (r >= (points[i].repeats ?? this.repeats)) continue;
        if (this.gpuWarmMs > 0 && WARMABLE(points[i])) await this.warmGpu(trials[i], r);
        times[i].push(await this.timeSample(trials[i], r));
        await this.onRun();
      }
    }
    return trials.map((trial, i) => trial.record(times[i]));
  }

  /** Runs a GPU trial's operation untimed for gpuWarmMs (see the constructor). */
  async warmGpu(trial, r) {
    for (const start = performance.now(); performance.now() - start < this.gpuWarmMs; ) await trial.timeOnce(r);
  }

  /**
   * One timed sample of a trial, in ms per call: its timeOnce(), repeated until the sample lasts
   * minSampleMs, and then the sample's whole time over its calls. A call faster than the clock's tick
   * read 0 ms (WebKitGTK's Benchmark page failed a CI run on it once reads stopped waiting 4 ms between
   * polls); where one call lasts long enough (Node, Chromium, every larger point), its own time as before.
   */
  async timeSample(trial, r) {
    const start = performance.now();
    const own = await trial.timeOnce(r);
    let calls = 1;
    while (performance.now() - start < this.minSampleMs) {
      await trial.timeOnce(r);
      calls++;
    }
    return calls === 1 ? own : (performance.now() - start) / calls;
  }

  shuffledIndices(length) {
    const order = Array.from({ length }, (_, i) => i);
    for (let i = length - 1; i > 0; i--) {
      this.orderState = (Math.imul(this.orderState, 1664525) + 1013904223) >>> 0; // LCG, seeded: runs repeat
      const j = Math.floor((this.orderState / 4294967296) * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }

  trial(point) {
    switch (point.kind) {
      case 'compact': return this.compactionTrial(point);
      case 'compact-loop': return this.compactionLoopTrial(point);
      case 'scan': return this.scanTrial(point);
      case 'cpu-filter': return this.cpuFilterTrial(point);
      case 'cpu-scan': return this.cpuScanTrial(point);
      case 'family': return familyTrial(this, point);
      default: throw new Error(`internal: unknown point kind ${point.kind}`);
    }
  }

  compactionTrial(point) {
    const { engine } = this;
    const { stream } = this.dataset('floats', point.n);
    const threshold = Math.fround(point.options.keep.lessEqual);
    const expected = this.filterReference(point.n, threshold);
    const expectedCount = expected.count;
    let stats;
    let count;
    return {
      async warmUp() {
        const warm = engine.compact(stream, point.options);
        count = await warm.count();
        stats = warm.stats;
        try {
          if (count !== expectedCount) {
            throw new VerificationError(`${describePoint(point)}: GPU kept ${count} elements, the CPU filter keeps ${expectedCount}`);
          }
          if (point.verifyValues) {
            const got = await warm.read();
            const ordered = isOrdered(stats.algorithm);
            const mismatch = ordered ? firstMismatch(got, expected.values) : firstMismatch(got.slice().sort(), expected.sorted());
            if (mismatch !== undefined) {
              throw new VerificationError(
                `${describePoint(point)}: compacted values differ from the CPU filter ` +
                  `(${ordered ? 'in input order' : 'as sorted multisets'}) at position ${mismatch.index}: GPU ${mismatch.got}, CPU ${mismatch.want}`,
              );
            }
          }
        } finally {
          warm.dispose();
        }
      },
      async timeOnce(r) {
        const start = performance.now();
        const result = engine.compact(stream, point.options);
        const runCount = await result.count();
        // count() waits only for the passes the count depends on (engine.finish docs); finish()
        // makes sure the concatenation draws are inside the timed region too (~0.1 ms on llvmpipe).
        await engine.finish();
        const ms = performance.now() - start;
        result.dispose();
        if (runCount !== expectedCount) {
          throw new VerificationError(`${describePoint(point)}: timed run ${r + 1} kept ${runCount} elements, the CPU filter keeps ${expectedCount}`);
        }
        return ms;
      },
      record(times) {
        return {
          ...pointFields(point),
          ...summarize(times),
          timing: 'wall+sync',
          sync: 'await result.count(); await engine.finish()',
          ...passFields(stats),
          path: { algorithm: stats.algorithm, requestedAlgorithm: stats.requestedAlgorithm, concat: stats.concat, scan: stats.scan, radix: stats.radix ?? null, blockSize: stats.blockSize ?? null, output: stats.output },
          count,
          keptFraction: count / point.n,
          verified: point.verifyValues ? (isOrdered(stats.algorithm) ? 'count + values (in order)' : 'count + values (multiset)') : 'count',
        };
      },
    };
  }

  /**
   * Many compactions per timed run, on the engine `point.engineOptions` asks for: engine.finish(),
   * then `callsPerRun` × (engine.compact() + result.dispose()), then engine.finish(); the time per
   * call. The warm-up checks one result (count and values) and runs the loop once untimed.
   */
  compactionLoopTrial(point) {
    const engine = this.engineFor(point.engineOptions);
    const { stream } = this.dataset('floats', point.n, engine);
    const threshold = Math.fround(point.options.keep.lessEqual);
    const expected = this.filterReference(point.n, threshold);
    const calls = point.callsPerRun;
    let stats;
    let count;
    /** Per timed run: the time per call to issue the calls alone (before the closing finish()). */
    const submitTimes = [];
    const { gl } = this;
    let glCalls;
    const loop = async () => {
      await engine.finish();
      const start = performance.now();
      for (let i = 0; i < calls; i++) engine.compact(stream, point.options).dispose();
      const issued = performance.now();
      await engine.finish();
      return { total: (performance.now() - start) / calls, submit: (issued - start) / calls };
    };
    return {
      async warmUp() {
        const warm = engine.compact(stream, point.options);
        try {
          count = await warm.count();
          stats = warm.stats;
          if (count !== expected.count) throw new VerificationError(`${describePoint(point)}: GPU kept ${count} elements, the CPU filter keeps ${expected.count}`);
          const got = await warm.read();
          const ordered = isOrdered(stats.algorithm);
          const mismatch = ordered ? firstMismatch(got, expected.values) : firstMismatch(got.slice().sort(), expected.sorted());
          if (mismatch !== undefined) {
            throw new VerificationError(`${describePoint(point)}: compacted values differ from the CPU filter (${ordered ? 'in input order' : 'as sorted multisets'}) at position ${mismatch.index}: GPU ${mismatch.got}, CPU ${mismatch.want}`);
          }
        } finally {
          warm.dispose();
        }
        await loop();
        if (gl) {
          glCalls = countGlCalls(gl, () => engine.compact(stream, point.options).dispose());
          await engine.finish();
        }
      },
      async timeOnce() {
        const { total, submit } = await loop();
        submitTimes.push(submit);
        return total;
      },
      record(times) {
        return {
          ...pointFields(point),
          engineOptions: point.engineOptions,
          callsPerRun: calls,
          ...summarize(times),
          // The CPU time to issue one call (the GL state contract's queries and restores are CPU
          // work): the same runs, up to the last compact() call, before the closing finish().
          submit: summarize(submitTimes),
          // GL calls one engine.compact() + result.dispose() makes (counted once, untimed).
          glCalls,
          timing: 'wall per call',
          sync: `await engine.finish(); ${calls} × (engine.compact(); result.dispose()); await engine.finish() — time / ${calls}`,
          ...passFields(stats),
          path: { algorithm: stats.algorithm, requestedAlgorithm: stats.requestedAlgorithm, concat: stats.concat, scan: stats.scan, radix: stats.radix ?? null, blockSize: stats.blockSize ?? null, output: stats.output },
          count,
          keptFraction: count / point.n,
          verified: isOrdered(stats.algorithm) ? 'count + values (in order), warm-up' : 'count + values (multiset), warm-up',
        };
      },
    };
  }

  scanTrial(point) {
    const { engine } = this;
    const { data, stream } = this.dataset('bytes', point.n);
    let stats;
    return {
      async warmUp() {
        const expected = new Uint32Array(point.n);
        const blockSize = point.options.blockSize;
        if (blockSize === undefined) cpuPrefixSum(data, expected);
        else cpuSegmentedPrefixSum(data, blockSize, expected);
        const warm = engine.scan(stream, point.options);
        await engine.finish();
        stats = engine.lastScanStats;
        try {
          const got = await warm.read();
          const mismatch = firstMismatch(got, expected);
          if (mismatch !== undefined) {
            throw new VerificationError(`${describePoint(point)}: prefix sum differs from the CPU at element ${mismatch.index}: GPU ${mismatch.got}, CPU ${mismatch.want}`);
          }
        } finally {
          warm.dispose();
        }
      },
      async timeOnce() {
        const start = performance.now();
        const result = engine.scan(stream, point.options);
        await engine.finish();
        const ms = performance.now() - start;
        result.dispose();
        return ms;
      },
      record(times) {
        return { ...pointFields(point), ...summarize(times), timing: 'wall+sync', sync: 'await engine.finish()', ...passFields(stats), count: point.n, verified: 'values (all, bit-exact)' };
      },
    };
  }

  cpuFilterTrial(point) {
    const { data } = this.dataset('floats', point.n);
    const threshold = Math.fround(point.options.keep.lessEqual);
    const out = new Float32Array(point.n);
    let count = 0;
    const once = () => {
      const start = performance.now();
      count = cpuFilter(data, threshold, out);
      return performance.now() - start;
    };
    return {
      async warmUp() { once(); },
      async timeOnce() { return once(); },
      record(times) {
        return { ...pointFields(point), ...summarize(times), timing: 'wall (CPU)', sync: null, count, keptFraction: count / point.n, verified: 'reference' };
      },
    };
  }

  cpuScanTrial(point) {
    const { data } = this.dataset('bytes', point.n);
    const out = new Uint32Array(point.n);
    const once = () => {
      const start = performance.now();
      cpuPrefixSum(data, out);
      return performance.now() - start;
    };
    return {
      async warmUp() { once(); },
      async timeOnce() { return once(); },
      record(times) {
        return { ...pointFields(point), ...summarize(times), timing: 'wall (CPU)', sync: null, count: point.n, verified: 'reference' };
      },
    };
  }
}

/**
 * Points whose samples gpuWarmMs warms: one GPU operation per timeOnce(). Not the host loops, and not
 * compact-loop (its timeOnce() is a loop of calls that records each loop's submit time).
 */
const WARMABLE = (point) => point.kind === 'compact' || point.kind === 'scan' || (point.kind === 'family' && point.method === 'gpu');

/** Queries among the GL calls (the state contract reads the app's state with these). */
const GL_QUERIES = new Set(['getParameter', 'isEnabled', 'getIndexedParameter', 'getVertexAttrib', 'getError']);

/**
 * The GL calls `body` makes on `gl`: { total, queries, byMethod }. Wraps the context's own methods
 * (a headless-gl context has them as own properties) and puts them back afterwards.
 */
export function countGlCalls(gl, body) {
  const byMethod = {};
  const restore = [];
  let proto = gl;
  const names = new Set();
  while (proto && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
    proto = Object.getPrototypeOf(proto);
  }
  for (const name of names) {
    if (name === 'constructor') continue;
    const descriptor = Object.getOwnPropertyDescriptor(gl, name);
    const original = descriptor ? descriptor.value : undefined;
    let fn;
    try {
      fn = gl[name];
    } catch {
      continue; // an accessor that throws off its object
    }
    if (typeof fn !== 'function') continue;
    gl[name] = function (...args) {
      byMethod[name] = (byMethod[name] ?? 0) + 1;
      return fn.apply(gl, args);
    };
    restore.push(() => (descriptor ? Object.defineProperty(gl, name, { ...descriptor, value: original }) : delete gl[name]));
  }
  try {
    body();
  } finally {
    for (const r of restore) r();
  }
  const total = Object.values(byMethod).reduce((a, b) => a + b, 0);
  const queries = Object.entries(byMethod).filter(([name]) => GL_QUERIES.has(name)).reduce((a, [, n]) => a + n, 0);
  return { total, queries, byMethod: Object.fromEntries(Object.entries(byMethod).sort((a, b) => b[1] - a[1])) };
}

/** Lets the JIT optimise the CPU loops before any is timed, so the first (smallest) point is not a cold-code figure. */
function warmUpCpuLoops() {
  const floats = uniformFloats(4096, 1);
  const bytes = uniformBytes(4096, 1);
  const outF = new Float32Array(4096);
  const outU = new Uint32Array(4096);
  for (let i = 0; i < 300; i++) {
    cpuFilter(floats, 0.5, outF);
    cpuPrefixSum(bytes, outU);
  }
}

/** Horn (block or global) and the HistoPyramid keep input order; Jumping Jack and the per-block hybrid ('auto') do not. */
function isOrdered(algorithm) {
  return algorithm === 'horn' || algorithm === 'horn-global' || algorithm === 'histopyramid';
}

function pointFields(point) {
  const { series, kind, n, x, options } = point;
  return { series, kind, n, ...x, options };
}

function passFields(stats) {
  return { passes: stats.passes, drawCalls: stats.drawCalls, fragments: stats.fragments, lineFragmentsAtMost: stats.lineFragmentsAtMost };
}

export function describePoint(point) {
  const x = Object.entries(point.x).map(([k, v]) => `${k}=${v}`).join(', ');
  return `sweep "${point.sweep}", ${point.series} (${x}, n=${point.n}, options ${JSON.stringify(point.options)})`;
}

function firstMismatch(got, want) {
  if (got.length !== want.length) return { index: Math.min(got.length, want.length), got: `length ${got.length}`, want: `length ${want.length}` };
  for (let i = 0; i < want.length; i++) {
    if (got[i] !== want[i]) return { index: i, got: got[i], want: want[i] };
  }
  return undefined;
}
