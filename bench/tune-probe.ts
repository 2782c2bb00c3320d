// What engine.tune() costs and what it chooses (issue 20): wall time of a default tune, the longest
// stretch it kept the thread busy without yielding (an event-loop lag monitor: the longest gap
// between two 1 ms ticks), the profile, and per size and density how the built-in default and the
// tuned choice compare with the fastest path measured in the same tune (ratios from its own timings),
// and a three-term cost model fitted to the same timings (how well passes and fragments predict the winner).
// With --gpu-time, the GPU time of the calls the tune made, measured behind a long GPU task (below):
// headless-gl has no timer query, and a fence's submit-to-done is mostly host time for small calls.
// Usage: node bench/build-bundle.mjs tune-probe && bash scripts/with-display.sh node bench/tmp/tune-probe.mjs [--json FILE] [--repeats 3] [--sizes 10,12] [--sample-ms 0.5] [--second-opinion-ms 6 --second-opinion-calls 64 --second-opinion-elements 20 --second-opinion-samples 2] [--gpu-time [--spinner-log2 24]]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';
import { DROP_AFTER_FIRST_THROUGH_FINISH, optionsForPath, sizeClass, TUNE_DEFAULT_SIZES, TUNE_SAMPLING, type BitmaskPadding } from '../src/tuning.js';
import type { CompactOptions, ScanAlgorithm } from '../src/index.js';
import { applySecondOpinionFlags, secondOpinionOptions } from './lib/second-opinion-flags.js';
import { sourceOfBuild } from './probe-timing.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, repeats: { type: 'string', default: '3' }, 'gpu-time': { type: 'boolean', default: false }, 'spinner-log2': { type: 'string', default: '24' }, sizes: { type: 'string' }, 'sample-ms': { type: 'string' }, ...secondOpinionOptions } });
// --sizes 10,12: tune only these (log2; the default: engine.tune()'s own sizes).
const sizes = values.sizes?.split(',').map((v) => 2 ** Number(v));
const spinnerLog2 = Number(values['spinner-log2']);
// A bad argument: one line and exit 2, nothing measured.
if (sizes && !sizes.every((n) => Number.isInteger(n) && n >= 1 && n <= 2 ** 24)) { console.error(`tune-probe: --sizes takes log2 lengths 0..24, comma-separated; got ${values.sizes}`); process.exit(2); }
// --sample-ms 2: tune with samples of this length (src/tuning.ts TUNE_SAMPLING), to compare.
if (values['sample-ms'] !== undefined) {
  const sampleMs = Number(values['sample-ms']);
  if (!(sampleMs > 0 && sampleMs <= 50)) { console.error(`tune-probe: --sample-ms takes a length in ms, above 0 and at most 50; got ${values['sample-ms']}`); process.exit(2); }
  TUNE_SAMPLING.sampleMs = sampleMs;
}
// --second-opinion-ms / -calls / -elements / -samples: the tune's second opinions through glFinish, to compare.
const badSecondOpinion = applySecondOpinionFlags(values);
if (badSecondOpinion !== undefined) { console.error(`tune-probe: ${badSecondOpinion}`); process.exit(2); }
if (!Number.isInteger(spinnerLog2) || spinnerLog2 < 10 || spinnerLog2 > 24) { console.error(`tune-probe: --spinner-log2 takes 10..24; got ${values['spinner-log2']}`); process.exit(2); }
const gl = createHeadlessContext();
const engine = createEngine(gl);
const renderer = headlessRenderer(gl);
let last = performance.now();
let longestGap = 0;
const monitor = setInterval(() => {
  const now = performance.now();
  longestGap = Math.max(longestGap, now - last);
  last = now;
}, 1);
const start = performance.now();
const profile = await engine.tune({ repeats: Number(values.repeats), ...(sizes ? { sizes } : {}) });
const wallMs = performance.now() - start;
clearInterval(monitor);
const ordered = ['bitmask', 'horn', 'horn-global', 'histopyramid'];
const rows: Array<Record<string, unknown>> = [];
for (const [point, times] of Object.entries(profile.timings)) {
  const [key, density] = point.split('/');
  if (density === 'scan') {
    const fastest = Math.min(...Object.values(times));
    rows.push({ point, defaultScan: null, tuned: profile.scan[key], tunedRatio: times[profile.scan[key]] / fastest, times });
    continue;
  }
  const fastestKeep = Math.min(...ordered.map((p) => times[p]));
  const fastestAny = Math.min(...Object.values(times));
  rows.push({
    point,
    builtInDefaultRatio: times.bitmask / fastestKeep,
    tunedKeep: profile.compact.keep[key],
    tunedKeepRatio: times[profile.compact.keep[key]] / fastestKeep,
    tunedAny: profile.compact.any[key],
    tunedAnyRatio: times[profile.compact.any[key]] / fastestAny,
    times,
  });
}
// A cost model where measuring is too costly (issue 20, item 2): ms ≈ a·passes + b·fragments + c·line
// fragments, fitted by least squares to this tune's own compaction timings, then asked to pick the winner
// at each point. In-sample: it says how much of the ranking these three counts explain on this renderer.
const samples: Array<{ point: string; path: string; x: number[]; ms: number }> = [];
for (const [point, work] of Object.entries(profile.work)) {
  if (point.endsWith('/scan')) continue;
  for (const [path, w] of Object.entries(work)) samples.push({ point, path, x: [w.passes, w.fragments / 1e6, w.lineFragments / 1e6], ms: profile.timings[point][path] });
}
const solve = (a: number[][], b: number[]) => {
  // Gaussian elimination on the 3×3 normal equations.
  const m = a.map((row, i) => [...row, b[i]]);
  for (let i = 0; i < 3; i++) {
    let p = i;
    for (let r = i + 1; r < 3; r++) if (Math.abs(m[r][i]) > Math.abs(m[p][i])) p = r;
    [m[i], m[p]] = [m[p], m[i]];
    for (let r = 0; r < 3; r++) if (r !== i && m[i][i] !== 0) { const f = m[r][i] / m[i][i]; for (let c = i; c < 4; c++) m[r][c] -= f * m[i][c]; }
  }
  return m.map((row, i) => (row[i] === 0 ? 0 : row[3] / row[i]));
};
const ata = [0, 1, 2].map((i) => [0, 1, 2].map((j) => samples.reduce((sum, s) => sum + s.x[i] * s.x[j], 0)));
const atb = [0, 1, 2].map((i) => samples.reduce((sum, s) => sum + s.x[i] * s.ms, 0));
const [perPass, perMFragment, perMLineFragment] = solve(ata, atb);
const predict = (x: number[]) => perPass * x[0] + perMFragment * x[1] + perMLineFragment * x[2];
const model = { perPassMs: perPass, perMillionFragmentsMs: perMFragment, perMillionLineFragmentsMs: perMLineFragment, points: 0, winnerPicked: 0, worstRatio: 1 };
for (const point of new Set(samples.map((s) => s.point))) {
  const here = samples.filter((s) => s.point === point);
  const measured = here.reduce((a, b) => (b.ms < a.ms ? b : a));
  const picked = here.reduce((a, b) => (predict(b.x) < predict(a.x) ? b : a));
  model.points++;
  if (picked.path === measured.path) model.winnerPicked++;
  model.worstRatio = Math.max(model.worstRatio, picked.ms / measured.ms);
}
console.log(`renderer: ${renderer}`);
console.log(`cost model (least squares over this tune): ${perPass.toFixed(4)} ms per pass + ${perMFragment.toFixed(4)} ms per 10^6 fragments + ${perMLineFragment.toFixed(4)} ms per 10^6 line fragments; picks the measured winner at ${model.winnerPicked} of ${model.points} points, worst pick ${model.worstRatio.toFixed(2)}× the fastest`);
// What the calls tune() made cost, from its own record: per point and path, the median time per
// call (timer query: GPU time; fence: submit-to-done less the fence's own wait, an upper bound on the
// GPU's time, loose for calls of well under a millisecond; glFinish (headless-gl): submit-to-done, host
// time included, also an upper bound; blocking calls: time on the thread) times
// the calls made (the first use, the single call (which sized the samples; through glFinish the point's
// first path's sized them all), `samples` of `calls`, one untimed call before the later samples where
// there were any, and one more before a second opinion's, whose samples through glFinish hold the
// calls `secondOpinionCalls` lists).
const repeats = Number(values.repeats);
/**
 * The calls the tune made for one point and path: first use, single call, samples, the untimed call
 * before repeats, and one more before a second opinion's samples (more than `repeats` of them).
 */
const callsMade = (b: { calls: number; samples?: number; secondOpinionCalls?: number[] }) => {
  const samples = b.samples ?? repeats;
  const longer = b.secondOpinionCalls ?? [];
  return 2 + b.calls * (samples - longer.length) + longer.reduce((sum, calls) => sum + calls, 0) + (samples > 1 ? 1 : 0) + (samples > repeats ? 1 : 0);
};
/**
 * The calls of one of the bitmask's padding forms (profile.sampling.padding: timed before the class's
 * paths, tuning.ts#bitmaskPaddingForm): first use, single call, `samples` of `calls`, none untimed.
 */
const paddingCallsMade = (b: { calls: number; samples?: number }) => 2 + b.calls * (b.samples ?? repeats);
const middle = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let gpuMs = 0;
for (const [point, paths] of Object.entries(profile.sampling?.batches ?? {})) {
  for (const [path, b] of Object.entries(paths)) gpuMs += (profile.timings[point]?.[path] ?? b.oneCallMs) * callsMade(b);
}
for (const forms of Object.values(profile.sampling?.padding ?? {})) {
  for (const b of Object.values(forms)) gpuMs += (b!.samplesMs?.length ? middle(b!.samplesMs) : b!.oneCallMs) * paddingCallsMade(b!);
}
const timedAs = profile.sampling?.timer === 'query' ? 'GPU time by timer query' : profile.sampling?.timer === 'finish' ? 'submit-to-done through glFinish, host time included: at most the GPU time' : profile.sampling?.blockingCalls ? 'time on the thread (blocking calls)' : 'submit-to-done less the fence floor: at most the GPU time';
console.log(`tune(): ${wallMs.toFixed(0)} ms wall, longest stretch without yielding ${longestGap.toFixed(1)} ms; its calls ≈ ${gpuMs.toFixed(0)} ms (${timedAs}; median per call × calls made)`);
for (const row of rows) console.log(JSON.stringify(row));

/**
 * The GPU time of the tune's calls, without a timer query: calls issued while the GPU is still busy
 * with a long task (ten scans of 2^24 elements) queue behind it and then run back to back, so
 * (task + N calls) − (task alone), each waited for by gl.finish(), is the GPU time of the N calls,
 * host time excluded, as long as issuing them took less than the GPU still had of the task after it
 * was issued (checked: where they took 80 % of that or more, the difference is an upper bound and is
 * marked). Per point and path: N = 16, the median of 5 paired differences (each run's own task alone).
 */
interface GpuTimeRow { point: string; path: string; callsMade: number; gpuMsPerCall: number; issueShareOfTask: number; spinnerMs: number; issueBound: boolean }
const gpuTimeRows: GpuTimeRow[] = [];
let gpuTimeTotal: number | undefined;
if (values['gpu-time']) {
  // The long task runs on a second engine sharing the context, with a pool that keeps its 2^24-element
  // targets (with the default pool each scan allocated them anew: 220-380 ms for four, too noisy).
  const spinnerEngine = createEngine(gl, { texturePoolBytes: 2 ** 30 });
  const spinnerStream = spinnerEngine.stream(new Uint32Array(2 ** spinnerLog2));
  const spinner = () => { for (let k = 0; k < 10; k++) spinnerEngine.scan(spinnerStream).dispose(); };
  spinner();
  gl.finish();
  const finish = () => gl.finish();
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const measure = (call: () => void, n: number) => {
    call(); // first use
    finish();
    const base: number[] = [];
    const differences: number[] = [];
    const issues: number[] = [];
    for (let r = 0; r < 5; r++) {
      let t = performance.now();
      spinner();
      const spinnerIssued = performance.now() - t;
      finish();
      const alone = performance.now() - t;
      base.push(alone);
      t = performance.now();
      spinner();
      const issued = performance.now();
      for (let k = 0; k < n; k++) call();
      issues.push(performance.now() - issued);
      finish();
      // Paired: each run's own difference, so the task's drift between runs cancels.
      differences.push(performance.now() - t - alone);
      // The GPU is still busy with the task after it is issued for about (alone - its issue time).
      issues[issues.length - 1] = issues[issues.length - 1]! / Math.max(alone - spinnerIssued, 1e-3);
    }
    const spinnerMs = median(base);
    const issueShare = median(issues);
    // Negative noise is kept (a clamp at 0 would only add to the sum).
    return { gpuMsPerCall: median(differences) / n, issueShareOfTask: issueShare, spinnerMs, issueBound: issueShare >= 0.8 };
  };
  // The tune's sizes, by the size class it keyed them with (the lengths it used, not the smallest of
  // each class: every length up to 2^11 shares the class of 2^10).
  const sizeOf = new Map<string, number>();
  for (const n of sizes ?? TUNE_DEFAULT_SIZES) {
    const probe = engine.stream(new Uint32Array(n));
    sizeOf.set(String(sizeClass(probe.layout.capacity)), n);
    probe.dispose();
  }
  /** Runs `body` with a stream of `point`'s size class (tune()'s kind of data) and the point's density (or 'scan'). */
  const atPoint = (point: string, body: (stream: ReturnType<typeof engine.stream>, density: string, key: string) => void) => {
    const [key, density] = point.split('/');
    const n = sizeOf.get(key!)!;
    const stream = engine.stream(Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 0) % 1_000_000));
    try {
      body(stream, density!, key!);
    } finally {
      stream.dispose();
    }
  };
  const lessEqual = (density: string) => Math.round(Number(density) * 1_000_000) - 1;
  for (const [point, paths] of Object.entries(profile.sampling?.batches ?? {})) {
    atPoint(point, (stream, density) => {
      for (const [path, b] of Object.entries(paths)) {
        const call = density === 'scan'
          ? () => engine.scan(stream, { algorithm: path as ScanAlgorithm }).dispose()
          : () => engine.compact(stream, { keep: { lessEqual: lessEqual(density) }, ...optionsForPath(path as never) } as CompactOptions).dispose();
        gpuTimeRows.push({ point, path, callsMade: callsMade(b), ...measure(call, 16) });
      }
    });
  }
  // The bitmask's padding forms, each replayed in its own form (a profile naming it for the class).
  for (const [point, forms] of Object.entries(profile.sampling?.padding ?? {})) {
    atPoint(point, (stream, density, key) => {
      for (const [form, b] of Object.entries(forms)) {
        engine.useProfile({ ...profile, bitmaskPadding: { [key]: form as BitmaskPadding } });
        const m = measure(() => engine.compact(stream, { keep: { lessEqual: lessEqual(density) }, algorithm: 'bitmask' }).dispose(), 16);
        gpuTimeRows.push({ point: `${point} padding`, path: form, callsMade: paddingCallsMade(b!), ...m });
      }
    });
  }
  engine.useProfile(profile);
  // The tune's own questions before sampling (no timer query): the fence floor (a scan of one element,
  // 4 calls) and whether calls block (5 reduce-then-scans of up to 2^16 elements and of a sixteenth).
  if (profile.sampling?.timer === 'fence') {
    const blockingN = Math.min(2 ** 16, Math.max(...(sizes ?? TUNE_DEFAULT_SIZES)));
    engine.useProfile(null); // the floor's probe ran the built-in default scan (before any profile)
    for (const [n, calls] of [[1, 4], [blockingN, 5], [Math.max(1, blockingN >> 4), 5]] as const) {
      const stream = engine.stream(new Uint32Array(n));
      // The floor's probe is the default scan; the blocking question names reduce-then-scan.
      const m = measure(() => engine.scan(stream, n === 1 ? {} : { algorithm: 'reduce-then-scan' }).dispose(), 16);
      gpuTimeRows.push({ point: `probe/${n}`, path: n === 1 ? 'default scan' : 'reduce-then-scan', callsMade: calls, ...m });
      stream.dispose();
    }
  }
  spinnerStream.dispose();
  spinnerEngine.dispose();
  gpuTimeTotal = gpuTimeRows.reduce((sum, r) => sum + r.gpuMsPerCall * r.callsMade, 0);
  const bySize = new Map<string, number>();
  for (const r of gpuTimeRows) { const k = r.point.startsWith('probe/') ? 'probes' : `2^${r.point.split('/')[0]}`; bySize.set(k, (bySize.get(k) ?? 0) + r.gpuMsPerCall * r.callsMade); }
  const bound = gpuTimeRows.filter((r) => r.issueBound).length;
  console.log(`GPU time of the tune's calls (measured behind a long GPU task): ${gpuTimeTotal.toFixed(1)} ms; per size class ${[...bySize].map(([k, ms]) => `${k}: ${ms.toFixed(1)}`).join(', ')}; ${bound} of ${gpuTimeRows.length} points issue-bound (upper bounds)`);
}
const result = { renderer, source: sourceOfBuild, date: new Date().toISOString(), sampleMs: TUNE_SAMPLING.sampleMs, tuneSampling: { ...TUNE_SAMPLING, dropAfterFirstThroughFinish: DROP_AFTER_FIRST_THROUGH_FINISH }, wallMs, gpuMsEstimate: gpuMs, gpuTime: values['gpu-time'] ? { totalMs: gpuTimeTotal, rows: gpuTimeRows } : undefined, longestGapMs: longestGap, model, profile, rows };
if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 1)}\n`);
engine.dispose();
