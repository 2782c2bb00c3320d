// bench/tuned-sweep.ts in a browser page (issue 20): `auto` after engine.tune() against every path.
// The engine tunes at ?tuneSizes (its wall time and the longest stretch it kept the main thread
// without yielding are recorded), then at each size of ?sizes and density of ?densities every
// compaction path and `auto` (order 'keep', the default, and 'any') are timed: a sample is a batch of
// back-to-back calls (each result disposed at once) between two `await engine.finish()`, the series
// interleaved in rounds (a fresh seeded order per round), the median per call counts. Every series'
// count is checked against the CPU first. Per point: auto ('keep') over the fastest order-keeping
// path and auto ('any') over the fastest path of all (targets: ≤ 1.15).
// Results: window.tunedSweep (polled by bench/tuned-sweep-browser.mjs, which builds and opens this page).
//
// URL: ?sizes=10,12,14,16,18 (log2), ?densities=0.05,0.25,0.5,0.75,0.95 (kept fractions),
//      ?tuneSizes=10,12,14,16,18 (log2), ?tuneRepeats=N (tune()'s samples per path; its default 3), ?rounds=3, ?batch=N (calls per sample; default 16 up to 2^14, 8 above),
//      ?traceGaps=1 (time every WebGL method during tune(): the longest stretches, and where they went),
//      ?ticks=message (the stretch monitor ticks at every task boundary, not by a clamped 1 ms timer),
//      ?idleBaselineMs=N (the idle baseline's length, default 500: as long as the tune for a fair floor),
//      ?tuneOnly=1 (the tune alone: state.done after it, no rows),
//      ?timerQuery=off (the context hides EXT_disjoint_timer_query_webgl2: the tune times by fence),
//      ?tuneIn=worker (engine.tune({ worker }): the samples in a Web Worker of this page, ./tune.worker.ts,
//      on its own OffscreenCanvas context; the page only takes the profile. The worker starts with the
//      page, 2.5 s before the idle baseline, so bench/tuned-sweep-browser.mjs --pin, polling every 2 s,
//      has moved its thread off the main thread's core before anything is measured).
import { createEngine, type CompactOptions } from 'glcompact';
import { compactCandidates, densitySwitchMargin, optionsForPath } from '../../src/tuning.js';
import { formatScanRow, sweepScans, type ScanSweep } from '../lib/scan-sweep.js';
import { random, shuffler } from '../lib/seeded-order.js';

interface Row {
  log2n: number;
  density: number;
  batch: number;
  kept: number;
  /** Median ms per call of each series. */
  ms: Record<string, number>;
  /** Every sample (ms per call) of each series, in round order. */
  runsMs: Record<string, number[]>;
  /** Median ms of an `await engine.finish()` with nothing queued: what each sample carries besides its calls. */
  syncMs: number;
  /** The path each series took (result.stats.algorithm). */
  paths: Record<string, string>;
  autoKeepPath: string;
  autoAnyPath: string;
  fastestKeep: string;
  fastestAny: string;
  /** Whether auto ran the very path it is compared with (then a ratio off 1 is noise, not a wrong choice). */
  keepSamePath: boolean;
  anySamePath: boolean;
  /** auto (keep) / the fastest order-keeping path; auto (any) / the fastest path. */
  keepRatio: number;
  anyRatio: number;
  /** The same with one sync's share per call (syncMs / batch) taken off every series. */
  keepRatioNet: number;
  anyRatioNet: number;
}

interface SweepState {
  done: boolean;
  error?: string;
  status: string;
  progress: number;
  userAgent: string;
  renderer: { caps: string; masked: string; unmasked: string | null; vendor: string | null };
  timerQuery?: boolean;
  parallelShaderCompile?: boolean;
  config: { sizes: number[]; densities: number[]; tuneSizes: number[]; rounds: number; batch: number | null; seed: number; tuneIn: 'page' | 'worker'; timerQueryOff: boolean; tuneRepeats: number | null };
  tune?: {
    wallMs: number;
    /** Longest gap between two ticks during tune(): of a 1 ms setInterval (its clamp included: see idleLongestGapMs), or with ?ticks=message of a message posted to itself. */
    longestGapMs: number;
    /** The same monitor over ?idleBaselineMs (500) of idle page before tune(), 1 s after it started (3.5 s with ?tuneIn=worker): the floor of that figure. */
    idleLongestGapMs: number;
    /** Gaps over 4, 8 and 16 ms during the idle baseline and during tune(). */
    idleGapsOver: Record<4 | 8 | 16, number>;
    gapsOver: Record<4 | 8 | 16, number>;
    /** How long the idle baseline ran (ms; ?idleBaselineMs). */
    idleBaselineMs: number;
    longTasks: { supported: boolean; count: number; maxMs: number; totalMs: number };
    /** With ?traceGaps=1: the longest stretches and the WebGL methods that took their time. */
    gaps: Gap[];
    profile: unknown;
    /** The margin auto's switch at a known density takes with this profile (tuning.ts#densitySwitchMargin). */
    switchMargin: number;
  };
  rows: Row[];
  worst?: { keep: { ratio: number; log2n: number; density: number }; any: { ratio: number; log2n: number; density: number }; keepNet: number; anyNet: number };
  /** The default scan against every scan algorithm at each size (bench/lib/scan-sweep.ts). */
  scans?: ScanSweep;
  seconds?: number;
}

declare global {
  interface Window {
    tunedSweep?: SweepState;
  }
}

const params = new URLSearchParams(location.search);
const list = (name: string, fallback: string) => (params.get(name) ?? fallback).split(',').map(Number);
const sizes = list('sizes', '10,12,14,16,18');
const densities = list('densities', '0.05,0.25,0.5,0.75,0.95');
const tuneSizes = list('tuneSizes', '10,12,14,16,18');
const rounds = Number(params.get('rounds') ?? 3);
// ?tuneRepeats=N: engine.tune({ repeats: N }) (its default, 3, where absent).
const tuneRepeats = params.get('tuneRepeats') === null ? undefined : Number(params.get('tuneRepeats'));
if (tuneRepeats !== undefined && !(Number.isInteger(tuneRepeats) && tuneRepeats > 0)) throw new Error(`?tuneRepeats must be a positive integer; got ${params.get('tuneRepeats')}`);
const batchParam = params.get('batch') === null ? null : Number(params.get('batch'));
const seed = Number(params.get('seed') ?? 20);
/**
 * ?ticks=message: the stretch monitor ticks by a message posted to itself (every task boundary) instead of a 1 ms timer (4 ms clamps);
 * ?ticks=none: no ticks during the tune (its longest gap not measured: NaN), to see what the monitor's own wake-ups cost the tune's readings.
 */
const messageTicks = params.get('ticks') === 'message';
const noTicks = params.get('ticks') === 'none';
if (params.get('ticks') !== null && !messageTicks && !noTicks) throw new Error(`?ticks must be message or none; got ${params.get('ticks')}`);
if (noTicks && params.get('traceGaps') === '1') throw new Error('?traceGaps=1 keeps the stretches between the monitor\'s ticks, which ?ticks=none turns off');
/** ?tuneOnly=1: the tune alone, no sweep after it (a profiled run keeps only the tune in its buffer). */
const tuneOnly = params.get('tuneOnly') === '1';
/** ?idleBaselineMs=N: how long the idle baseline of the monitor runs before the tune (default 500 ms). */
const idleBaselineMs = Number(params.get('idleBaselineMs') ?? 500);
if (!(Number.isInteger(idleBaselineMs) && idleBaselineMs > 0)) throw new Error(`?idleBaselineMs must be a positive integer; got ${params.get('idleBaselineMs')}`);
const tuneIn = params.get('tuneIn') ?? 'page';
if (tuneIn !== 'page' && tuneIn !== 'worker') throw new Error(`?tuneIn must be page or worker; got ${tuneIn}`);
const worker = tuneIn === 'worker' ? new Worker(new URL('./tune.worker.ts', import.meta.url), { type: 'module' }) : undefined;

const statusText = document.getElementById('status')!;
const progressBar = document.getElementById('progress') as HTMLProgressElement;
const log = document.getElementById('log')!;
const canvas = document.getElementById('canvas') as HTMLCanvasElement;
const gl = canvas.getContext('webgl2');
/**
 * ?timerQuery=off: the context offers no EXT_disjoint_timer_query_webgl2, so the tune times its samples
 * by fence (submit to done, the wall time the sweep measures) instead of the timer query's GPU time.
 */
const timerQueryOff = params.get('timerQuery') === 'off';
if (params.get('timerQuery') !== null && !timerQueryOff) throw new Error(`?timerQuery must be off; got ${params.get('timerQuery')}`);
if (gl && timerQueryOff) {
  const getExtension = gl.getExtension.bind(gl);
  gl.getExtension = ((name: string) => (name === 'EXT_disjoint_timer_query_webgl2' ? null : getExtension(name))) as typeof gl.getExtension;
}
const info = gl?.getExtension('WEBGL_debug_renderer_info');
const state: SweepState = {
  done: false,
  status: 'starting',
  progress: 0,
  userAgent: navigator.userAgent,
  renderer: {
    caps: '',
    masked: gl ? String(gl.getParameter(gl.RENDERER)) : '',
    unmasked: gl && info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : null,
    vendor: gl && info ? String(gl.getParameter(info.UNMASKED_VENDOR_WEBGL)) : null,
  },
  config: { sizes, densities, tuneSizes, rounds, batch: batchParam, seed, tuneIn, timerQueryOff, tuneRepeats: tuneRepeats ?? null },
  rows: [],
};
window.tunedSweep = state;

const status = (text: string, progress?: number) => {
  state.status = text;
  statusText.textContent = text;
  if (progress !== undefined) progressBar.value = state.progress = progress;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** A stretch of the main thread without a tick, and the WebGL methods that took its time (?traceGaps=1). */
interface Gap {
  /** ms since the monitor started. */
  atMs: number;
  gapMs: number;
  /** ms spent in the context's methods during the gap, by method (the 4 longest), and in all of them. */
  gl: Record<string, number>;
  glMs: number;
}

/**
 * Wraps every method of the context so that each call's time adds up by name, until `restore()`:
 * where a stretch without a tick goes (a link waited for, an upload, or the page's own JavaScript:
 * the gap less the GL time).
 */
function timeContextMethods(context: WebGL2RenderingContext) {
  const spent = new Map<string, number>();
  // Each wrapped name and what the context had as its own property before (the engine's state
  // interceptors), put back by restore().
  const wrapped = new Map<string, PropertyDescriptor | undefined>();
  for (let proto = Object.getPrototypeOf(context); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (!descriptor || typeof descriptor.value !== 'function' || name === 'constructor' || wrapped.has(name)) continue;
      wrapped.set(name, Object.getOwnPropertyDescriptor(context, name));
      const inner = (context as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
      (context as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
        const start = performance.now();
        try {
          return inner.apply(context, args);
        } finally {
          spent.set(name, (spent.get(name) ?? 0) + performance.now() - start);
        }
      };
    }
  }
  return {
    /** The time by method since the last take, then zeroed. */
    take(): Map<string, number> {
      const copy = new Map(spent);
      spent.clear();
      return copy;
    },
    restore(): void {
      for (const [name, before] of wrapped) {
        delete (context as unknown as Record<string, unknown>)[name];
        if (before) Object.defineProperty(context, name, before);
      }
    },
  };
}

/**
 * The longest gap between ticks of a 1 ms interval, and long tasks where the browser reports them
 * (Chromium). Traced, the ticks are a message posted to itself again and again instead (a timer's
 * ticks come 4 ms apart at best in Chromium, more than the 2 ms asked of a task), so a gap is one
 * task of the page's; stretches over 2 ms are kept with the WebGL methods that took their time.
 */
function stretchMonitor(trace?: ReturnType<typeof timeContextMethods>, ticking = true) {
  const begin = performance.now();
  let last = begin;
  let longest = 0;
  let running = true;
  const gaps: Gap[] = [];
  /** How many gaps were longer than 4, 8 and 16 ms (a frame's budget and its quarter and half). */
  const over = { 4: 0, 8: 0, 16: 0 };
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    for (const ms of [4, 8, 16] as const) if (now - last > ms) over[ms]++;
    const glTimes = trace?.take();
    if (glTimes && now - last > 2) {
      const top = [...glTimes].sort((a, b) => b[1] - a[1]);
      gaps.push({ atMs: last - begin, gapMs: now - last, gl: Object.fromEntries(top.slice(0, 4)), glMs: top.reduce((sum, [, ms]) => sum + ms, 0) });
    }
    last = now;
  };
  const channel = ticking && (trace || messageTicks) ? new MessageChannel() : undefined;
  if (channel) {
    channel.port1.onmessage = () => {
      tick();
      if (running) channel.port2.postMessage(0);
    };
    channel.port2.postMessage(0);
  }
  const timer = channel || !ticking ? undefined : setInterval(tick, 1);
  const supported = typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes ?? []).includes('longtask');
  const durations: number[] = [];
  const observer = supported ? new PerformanceObserver((entries) => entries.getEntries().forEach((e) => durations.push(e.duration))) : undefined;
  observer?.observe({ type: 'longtask' });
  return {
    stop() {
      running = false;
      channel?.port1.close();
      clearInterval(timer);
      longest = ticking ? Math.max(longest, performance.now() - last) : NaN;
      observer?.takeRecords().forEach((e) => durations.push(e.duration));
      observer?.disconnect();
      return {
        longestGapMs: longest,
        gapsOver: { ...over },
        /** The 12 longest stretches over 2 ms, where they were traced. */
        gaps: gaps.sort((a, b) => b.gapMs - a.gapMs).slice(0, 12),
        longTasks: { supported, count: durations.length, maxMs: Math.max(0, ...durations), totalMs: durations.reduce((a, b) => a + b, 0) },
      };
    },
  };
}

async function run(): Promise<void> {
  const started = performance.now();
  if (!gl) throw new Error('this browser gives no WebGL2 context');
  const engine = createEngine(gl);
  state.renderer.caps = engine.caps.renderer;
  state.timerQuery = engine.caps.timerQuery;
  state.parallelShaderCompile = gl.getExtension('KHR_parallel_shader_compile') !== null;

  status('idle baseline of the tick monitor', 0);
  await sleep(worker ? 3500 : 1000); // past the page's load and first paints (and the pinner's next poll after the worker started)
  const idle = stretchMonitor();
  performance.mark('idle-start'); // the idle baseline in a Gecko profile too (bench/lib/gecko-profile.mjs)
  await sleep(idleBaselineMs);
  performance.mark('idle-end');
  const idleStretches = idle.stop();
  const idleLongestGapMs = idleStretches.longestGapMs;
  status(`engine.tune({ sizes: 2^${tuneSizes.join(', 2^')} })`, 0.01);
  const trace = params.get('traceGaps') === '1' ? timeContextMethods(gl) : undefined;
  const monitor = stretchMonitor(trace, !noTicks);
  performance.mark('tune-start'); // where a Chromium trace finds the tune (bench/tuned-sweep-browser.mjs --chrome-trace)
  const tuneStart = performance.now();
  let profile: Awaited<ReturnType<typeof engine.tune>>;
  let wallMs: number;
  let stretches: ReturnType<ReturnType<typeof stretchMonitor>['stop']>;
  try {
    profile = await engine.tune({ sizes: tuneSizes.map((s) => 2 ** s), worker, ...(tuneRepeats === undefined ? {} : { repeats: tuneRepeats }) });
    wallMs = performance.now() - tuneStart;
    performance.mark('tune-end');
    await sleep(0); // let the last long task be reported
  } finally {
    // Also when tune() throws: the context unwrapped, the monitor's ticks stopped.
    trace?.restore();
    stretches = monitor.stop();
  }
  state.tune = { wallMs, idleLongestGapMs, idleGapsOver: idleStretches.gapsOver, idleBaselineMs, ...stretches, profile, switchMargin: densitySwitchMargin(profile.sampling) };
  log.textContent += `tune ${wallMs.toFixed(0)} ms, longest gap ${state.tune.longestGapMs.toFixed(1)} ms: keep ${JSON.stringify(profile.compact.keep)} any ${JSON.stringify(profile.compact.any)} bitmask padding ${JSON.stringify(profile.bitmaskPadding ?? {})}\n`;
  if (tuneOnly) {
    status('done (?tuneOnly=1: no sweep)', 1);
    state.done = true;
    return;
  }

  const series: Array<[string, Record<string, unknown>, boolean]> = [
    ...compactCandidates.map(({ path, keepsOrder }) => [path, optionsForPath(path), keepsOrder] as [string, Record<string, unknown>, boolean]),
    ['auto (tuned, keep)', {}, true],
    ['auto (tuned, any)', { order: 'any' }, false],
  ];
  const pathsKeep = series.filter(([name, , keeps]) => keeps && !name.startsWith('auto')).map(([name]) => name);
  const pathsAll = series.filter(([name]) => !name.startsWith('auto')).map(([name]) => name);
  const order = shuffler(random(seed));
  const points = sizes.length * densities.length;
  const worst = { keep: { ratio: 0, log2n: 0, density: 0 }, any: { ratio: 0, log2n: 0, density: 0 }, keepNet: 0, anyNet: 0 };
  for (const log2n of sizes) {
    const n = 2 ** log2n;
    const data = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + 7, 2654435761) >>> 0) % 1_000_000);
    const stream = engine.stream(data);
    for (const density of densities) {
      status(`2^${log2n}, ${density * 100} % kept`, 0.05 + (0.95 * state.rows.length) / points);
      const threshold = Math.round(density * 1_000_000) - 1;
      const keep = { lessEqual: threshold };
      const kept = data.filter((v) => v <= threshold).length;
      const batch = batchParam ?? (n <= 2 ** 14 ? 16 : 8);
      const paths = new Map<string, string>();
      for (const [name, options] of series) {
        const r = engine.compact(stream, { keep, ...options } as CompactOptions);
        const count = await r.count();
        if (count !== kept) throw new Error(`count mismatch: ${name} at n=2^${log2n}, density ${density}: count ${count}, the CPU says ${kept}`);
        paths.set(name, r.stats.algorithm);
        r.dispose();
      }
      const runsMs: Record<string, number[]> = Object.fromEntries(series.map(([name]) => [name, []]));
      const syncRuns: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const roundOrder = order(series);
        for (const [name, options] of roundOrder) {
          await engine.finish();
          const start = performance.now();
          for (let k = 0; k < batch; k++) engine.compact(stream, { keep, ...options } as CompactOptions).dispose();
          await engine.finish();
          runsMs[name].push((performance.now() - start) / batch);
        }
        await engine.finish();
        const start = performance.now();
        await engine.finish();
        syncRuns.push(performance.now() - start);
      }
      const ms = Object.fromEntries(Object.entries(runsMs).map(([name, t]) => [name, median(t)]));
      const syncMs = median(syncRuns);
      const fastest = (names: string[]) => names.reduce((a, b) => (ms[b] < ms[a] ? b : a));
      const fastestKeep = fastest(pathsKeep);
      const fastestAny = fastest(pathsAll);
      const net = (name: string) => ms[name] - syncMs / batch;
      const row: Row = {
        log2n, density, batch, kept, ms, runsMs, syncMs, paths: Object.fromEntries(paths),
        autoKeepPath: paths.get('auto (tuned, keep)')!, autoAnyPath: paths.get('auto (tuned, any)')!, fastestKeep, fastestAny,
        keepSamePath: paths.get('auto (tuned, keep)') === paths.get(fastestKeep), anySamePath: paths.get('auto (tuned, any)') === paths.get(fastestAny),
        keepRatio: ms['auto (tuned, keep)'] / ms[fastestKeep], anyRatio: ms['auto (tuned, any)'] / ms[fastestAny],
        keepRatioNet: net('auto (tuned, keep)') / net(fastestKeep), anyRatioNet: net('auto (tuned, any)') / net(fastestAny),
      };
      if (row.keepRatio > worst.keep.ratio) worst.keep = { ratio: row.keepRatio, log2n, density };
      if (row.anyRatio > worst.any.ratio) worst.any = { ratio: row.anyRatio, log2n, density };
      worst.keepNet = Math.max(worst.keepNet, row.keepRatioNet);
      worst.anyNet = Math.max(worst.anyNet, row.anyRatioNet);
      state.rows.push(row);
      log.textContent += `2^${log2n} ${String(density).padEnd(5)} keep → ${row.autoKeepPath} ×${row.keepRatio.toFixed(2)} | any → ${row.autoAnyPath} ×${row.anyRatio.toFixed(2)}\n`;
    }
    stream.dispose();
  }
  state.worst = worst;
  status('the default scan against every scan algorithm', 0.97);
  state.scans = await sweepScans(engine, sizes, {
    rounds,
    sync: () => engine.finish(),
    batchFor: (n) => batchParam ?? (n <= 2 ** 14 ? 16 : 8),
    order: (names) => order(names),
    onRow: (row) => (log.textContent += `${formatScanRow(row)}\n`),
  });
  engine.dispose();
  state.seconds = (performance.now() - started) / 1000;
  status('done', 1);
  state.done = true;
}

run().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  state.error = message;
  status(`failed: ${message}`);
  statusText.className = 'error';
  console.error(error);
});
