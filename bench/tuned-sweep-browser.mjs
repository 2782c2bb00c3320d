#!/usr/bin/env node
// bench/tuned-sweep.ts in a browser (issue 20): builds bench/tuned-sweep-page/ with vite (the engine
// from src/, as the demo pages import it), serves it on localhost, opens it in one engine of
// scripts/browsers.mjs, prints each point as it comes, and writes
// <out>/tuned-sweep-<engine>-<renderer-slug>-<date>[-quick].json: the renderer, what engine.tune()
// cost (wall time, longest stretch without yielding), the profile, every point's timings and the
// worst auto/fastest ratios, then the default scan against every scan algorithm per size
// (bench/lib/scan-sweep.ts: `scanRows`, `worstScan`). A count or scan that differs from the CPU's
// fails the run (exit 1).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromiumArgs } from '../scripts/chromium.mjs';
import { exitOnHelpOrUnknownBrowser, openBenchPage } from './lib/bench-page.mjs';
import { rendererSlug, writeNewFile } from './lib/format.mjs';
import { formatSameWork, sameWorkTwice } from './lib/same-work.mjs';
import { pinBrowser } from './lib/pin-cores.mjs';
import { sourceState } from './lib/source-state.mjs';
import { TRACE_CATEGORIES, tuneTasks } from './lib/chrome-trace.mjs';
import { tuneAwake } from './lib/gecko-profile.mjs';

const USAGE = `Usage: bash scripts/with-display.sh node bench/tuned-sweep-browser.mjs --browser chromium|firefox|webkit
         [--out bench/results/issue-20] [--sizes 10,12,14,16,18] [--densities 0.05,0.25,0.5,0.75,0.95]
         [--tune-sizes 10,12,14,16,18] [--tune-repeats N] [--rounds 3] [--batch N] [--tag T] [--quick] [--trace-gaps] [--pin] [--chrome-trace]
         [--tune-in page|worker] [--ticks message|none] [--idle-baseline-ms N] [--no-timer-query] [--gecko-profile]
Sizes are log2. --quick: sizes 10,14, densities 0.05,0.5,0.95, tune sizes 10,14, 2 rounds (output bench/results/*-quick.json, git-ignored).
--batch N: calls per sample (default 16 up to 2^14 elements, 8 above); --tag T: appended to the file name (a repeat run);
--trace-gaps: time every WebGL method during tune() and keep the longest stretches with where they went (slows the tune).
--pin: the page's main thread alone on core 0, every other thread of the browser on core 1 (Linux, taskset;
bench/lib/pin-cores.mjs says why), so its stretches hold no time spent waiting for a core the renderer draws on.
--tune-in worker: engine.tune({ worker }), the samples in a Web Worker of the page on its own OffscreenCanvas context
(the longest stretch is then the page's thread's while the worker tunes); the file name gets -worker-tune.
--ticks message: the page's stretch monitor ticks at every task boundary (a message to itself) instead of a 1 ms timer;
--ticks none: no ticks during the tune (its longest stretch is not measured), to see what the monitor's wake-ups cost the tune's readings.
--idle-baseline-ms N: the monitor's idle baseline before the tune runs N ms (default 500); gaps over 4/8/16 ms are counted in both.
--no-timer-query: the page's context hides EXT_disjoint_timer_query_webgl2, so tune() times by fence (the file name gets -no-timer-query).
--chrome-trace (chromium): Chromium's own trace of the tune: each long task of the page's main thread with its
CPU time and what ran inside (bench/lib/chrome-trace.mjs).
--gecko-profile (firefox): the tune alone (no sweep), under Firefox's own profiler: the page's main thread's awake
stretches during the tune and the idle baseline before it, their CPU time, the busiest frame (bench/lib/gecko-profile.mjs);
writes <out>/tune-main-thread-firefox-<renderer>-<date>[-worker-tune][-tag].json instead of a sweep.`;

const { values } = parseArgs({ options: {
  help: { type: 'boolean', default: false }, quick: { type: 'boolean', default: false }, browser: { type: 'string', default: 'chromium' },
  out: { type: 'string' }, sizes: { type: 'string' }, densities: { type: 'string' },
  'tune-sizes': { type: 'string' }, 'tune-repeats': { type: 'string' }, rounds: { type: 'string' }, batch: { type: 'string' }, tag: { type: 'string' }, 'trace-gaps': { type: 'boolean', default: false },
  pin: { type: 'boolean', default: false }, 'chrome-trace': { type: 'boolean', default: false }, 'tune-in': { type: 'string', default: 'page' },
  ticks: { type: 'string' }, 'idle-baseline-ms': { type: 'string' }, 'no-timer-query': { type: 'boolean', default: false },
  'gecko-profile': { type: 'boolean', default: false },
} });
if (values.ticks !== undefined && values.ticks !== 'message' && values.ticks !== 'none') {
  console.error(`--ticks must be message or none (the default is a 1 ms timer); got '${values.ticks}'`);
  process.exit(2);
}
if (values['idle-baseline-ms'] !== undefined && !(Number.isInteger(Number(values['idle-baseline-ms'])) && Number(values['idle-baseline-ms']) > 0)) {
  console.error(`--idle-baseline-ms must be a positive integer; got '${values['idle-baseline-ms']}'`);
  process.exit(2);
}
if (values['tune-repeats'] !== undefined && !(Number.isInteger(Number(values['tune-repeats'])) && Number(values['tune-repeats']) > 0)) {
  console.error(`--tune-repeats must be a positive integer (tune()'s samples per path); got '${values['tune-repeats']}'`);
  process.exit(2);
}
if (values['trace-gaps'] && values.ticks === 'none') {
  console.error('--trace-gaps keeps the stretches between the monitor\'s ticks, which --ticks none turns off');
  process.exit(2);
}
if (values['trace-gaps'] && values['tune-in'] === 'worker') {
  console.error('--trace-gaps times the page\'s context, which a tune in a worker does not use: use --chrome-trace (chromium) or --ticks message');
  process.exit(2);
}
if (values['no-timer-query'] && values['tune-in'] === 'worker') {
  console.error('--no-timer-query hides the extension on the page\'s context; a tune in a worker has its own');
  process.exit(2);
}
if (!['page', 'worker'].includes(values['tune-in'])) {
  console.error(`--tune-in must be page or worker; got '${values['tune-in']}'`);
  process.exit(2);
}
if (values['chrome-trace'] && values.browser !== 'chromium') {
  console.error('--chrome-trace needs --browser chromium');
  process.exit(2);
}
if (values['gecko-profile'] && values.browser !== 'firefox') {
  console.error('--gecko-profile needs --browser firefox');
  process.exit(2);
}
exitOnHelpOrUnknownBrowser(values, USAGE);
const q = values.quick;
/** A longest stretch as printed: with --ticks none the monitor did not tick, and it is not measured (NaN, null in JSON). */
const gapText = (ms, digits) => (typeof ms === 'number' && Number.isFinite(ms) ? `${ms.toFixed(digits)} ms` : 'not measured (--ticks none)');
// Quick runs go where bench/results/*-quick* is git-ignored.
const out = values.out ?? (q ? 'bench/results' : 'bench/results/issue-20');
const query = new URLSearchParams({
  sizes: values.sizes ?? (q ? '10,14' : '10,12,14,16,18'),
  densities: values.densities ?? (q ? '0.05,0.5,0.95' : '0.05,0.25,0.5,0.75,0.95'),
  tuneSizes: values['tune-sizes'] ?? (q ? '10,14' : '10,12,14,16,18'),
  rounds: values.rounds ?? (q ? '2' : '3'),
  ...(values.batch ? { batch: values.batch } : {}),
  ...(values['tune-repeats'] ? { tuneRepeats: values['tune-repeats'] } : {}),
  ...(values['trace-gaps'] ? { traceGaps: '1' } : {}),
  ...(values['tune-in'] === 'worker' ? { tuneIn: 'worker' } : {}),
  ...(values.ticks ? { ticks: values.ticks } : {}),
  ...(values['idle-baseline-ms'] ? { idleBaselineMs: values['idle-baseline-ms'] } : {}),
  ...(values['no-timer-query'] ? { timerQuery: 'off' } : {}),
  ...(values['gecko-profile'] ? { tuneOnly: '1' } : {}),
});

// What the page runs: src/ and glsl/ of this working tree (the commit, and files changed since, as the build starts).
const { commit, uncommitted } = sourceState();
// Traced, the page is not minified, so the profile's samples name the engine's functions.
const geckoProfileFile = values['gecko-profile'] ? join(tmpdir(), `glcompact-gecko-profile-${process.pid}.json`) : undefined;
const opened = await openBenchPage(new URL('./tuned-sweep-page/', import.meta.url), values.browser, { minify: !values['chrome-trace'] && !values['gecko-profile'], geckoProfile: geckoProfileFile });
const { browser } = opened;
const started = performance.now();
const loadAverageAtStart = loadavg();
const load1m = []; // the 1-minute load average at every poll: other processes on this host skew the timings
const fmtRow = (r) => `2^${r.log2n} ${String(r.density).padEnd(4)} keep → ${r.autoKeepPath.padEnd(12)} ×${r.keepRatio.toFixed(2)} (fastest ${r.fastestKeep}) | any → ${r.autoAnyPath.padEnd(12)} ×${r.anyRatio.toFixed(2)} (fastest ${r.fastestAny}) | sync ${r.syncMs.toFixed(1)} ms, batch ${r.batch}`;
let results;
let chromeTrace;
let pinnedThreads;
try {
  if (values['chrome-trace']) await browser.startTracing(TRACE_CATEGORIES);
  const page = await browser.newPage();
  await page.goto(opened.url(`index.html?${query}`));
  console.error(`running in ${values.browser} ${browser.version}: ${query}`);
  if (values.pin) {
    pinnedThreads = pinBrowser(values.browser);
    console.error(`pinned: ${JSON.stringify(pinnedThreads)}`);
  }
  let printed = 0;
  let tunePrinted = false;
  const deadline = Date.now() + 40 * 60_000; // a full run takes about a minute here
  for (;;) {
    if (Date.now() > deadline) throw new Error('the page did not finish within 40 minutes');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    load1m.push(loadavg()[0]);
    if (values.pin) pinBrowser(values.browser); // threads made since the last poll
    const s = await page.evaluate((from) => {
      const st = window.tunedSweep;
      return st && { done: st.done, error: st.error, status: st.status, tune: st.tune && { wallMs: st.tune.wallMs, longestGapMs: st.tune.longestGapMs, profile: { compact: st.tune.profile.compact, bitmaskPadding: st.tune.profile.bitmaskPadding } }, rows: st.rows.slice(from) };
    }, printed);
    if (!s) continue;
    if (s.tune && !tunePrinted) {
      tunePrinted = true;
      console.error(`tune(): ${(s.tune.wallMs / 1000).toFixed(1)} s, longest gap ${gapText(s.tune.longestGapMs, 0)}; keep ${JSON.stringify(s.tune.profile.compact.keep)} any ${JSON.stringify(s.tune.profile.compact.any)} bitmask padding ${JSON.stringify(s.tune.profile.bitmaskPadding ?? {})}`);
      if (values['chrome-trace']) {
        const raw = await browser.stopTracing();
        const rawFile = join(tmpdir(), `glcompact-chrome-trace-${process.pid}.json`);
        await writeFile(rawFile, raw); // for another look (not kept: tens of MB)
        chromeTrace = tuneTasks(raw);
        console.error(`chrome trace: ${rawFile}`);
        console.error(`chrome trace: ${chromeTrace.tasks} tasks in the tune, ${chromeTrace.over} over 2 ms of wall time (${chromeTrace.overCpu} over 2 ms of CPU time); longest ${chromeTrace.longestMs.toFixed(1)} ms wall, ${chromeTrace.longestCpuMs.toFixed(1)} ms CPU`);
        for (const t of chromeTrace.long) console.error(`  at ${t.atMs.toFixed(0)} ms: ${t.ms.toFixed(1)} ms (CPU ${t.cpuMs.toFixed(1)}) ${JSON.stringify(t.inside)} samples ${JSON.stringify(t.samples)}`);
      }
    }
    for (const r of s.rows) console.error(fmtRow(r));
    printed += s.rows.length;
    if (s.error) throw new Error(`the page failed: ${s.error}`);
    if (s.done) break;
    const { errors } = await page.console();
    if (errors.length) throw new Error(`console errors on the page: ${errors.join('; ')}`);
  }
  results = await page.evaluate(() => window.tunedSweep);
} catch (error) {
  console.error(`tuned sweep failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  await opened.close();
}
if (!results) process.exit(1);
if (geckoProfileFile) {
  await writeGeckoProfileResult(results);
  process.exit(0);
}

const renderer = results.renderer.unmasked ?? results.renderer.caps;
const date = new Date().toISOString().slice(0, 10);
const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const { rows, worst, tune } = results;
const within = (key) => rows.filter((r) => r[key] <= 1.15).length;
// Misses (> 1.15) where auto ran the very path it is compared with: the two series of one path differ by this much (noise).
const samePathMisses = (key, same) => rows.filter((r) => r[key] > 1.15 && r[same]).length;
const document = {
  tool: 'glcompact bench/tuned-sweep-browser.mjs', engine: values.browser, engineVersion: browser.version,
  ...(values.browser === 'chromium' ? { chromiumArgs } : {}), userAgent: results.userAgent,
  renderer, rendererStrings: results.renderer, timerQuery: results.timerQuery, parallelShaderCompile: results.parallelShaderCompile,
  package: pkg.name, packageVersion: pkg.version, commit, uncommitted, node: process.version, date, quick: q, config: results.config,
  pinned: values.pin ? { how: 'the page\'s main thread alone on core 0, the browser\'s other threads on core 1 (bench/lib/pin-cores.mjs)', atStart: pinnedThreads } : false,
  timing: 'wall: a batch of back-to-back compact()+dispose() (or scan()+dispose()) calls between two await engine.finish(), per call; series interleaved in seeded rounds; median of the rounds',
  loadAverageAtStart, loadAverageAtEnd: loadavg(), load1mDuringRun: { max: Math.max(...load1m), mean: load1m.reduce((a, b) => a + b, 0) / load1m.length, samples: load1m.length }, seconds: Math.round((performance.now() - started) / 100) / 10,
  ...(chromeTrace ? { chromeTrace } : {}),
  tune: { wallMs: tune.wallMs, longestGapMs: tune.longestGapMs, idleLongestGapMs: tune.idleLongestGapMs, gapsOver: tune.gapsOver, idleGapsOver: tune.idleGapsOver, idleBaselineMs: tune.idleBaselineMs, tuneIn: results.config.tuneIn, ticks: values.ticks ?? 'timer', longTasks: tune.longTasks, ...(tune.gaps?.length ? { gaps: tune.gaps } : {}), sizes: results.config.tuneSizes.map((s) => 2 ** s) },
  choices: { keep: tune.profile.compact.keep, any: tune.profile.compact.any, scan: tune.profile.scan, bitmaskPadding: tune.profile.bitmaskPadding ?? {} },
  worst: { ...worst, keepWithin115: within('keepRatio'), anyWithin115: within('anyRatio'), points: rows.length,
    keepMissesOnTheSamePath: samePathMisses('keepRatio', 'keepSamePath'), anyMissesOnTheSamePath: samePathMisses('anyRatio', 'anySamePath') },
  sameWorkTwice: sameWorkTwice(rows),
  rows, profile: tune.profile, switchMargin: tune.switchMargin,
  ...(results.scans ? { scanRows: results.scans.rows, worstScan: { ...results.scans.worst, within115: results.scans.within115, sizes: results.scans.rows.length } } : {}),
};
await mkdir(out, { recursive: true });
const file = await writeNewFile(join(out, `tuned-sweep-${values.browser}-${rendererSlug(renderer)}-${date}${q ? '-quick' : ''}${values['tune-in'] === 'worker' ? '-worker-tune' : ''}${values['no-timer-query'] ? '-no-timer-query' : ''}${values.tag ? `-${values.tag}` : ''}.json`), `${JSON.stringify(document, null, 1)}\n`);

console.log(`${values.browser} ${browser.version}; renderer: ${renderer}${results.renderer.masked !== renderer ? ` (masked: ${results.renderer.masked})` : ''}`);
console.log(`tune() (${results.config.tuneIn === 'worker' ? 'in a worker' : 'on the page'}): ${tune.wallMs.toFixed(0)} ms wall, longest stretch without yielding ${gapText(tune.longestGapMs, 1)} (idle floor ${tune.idleLongestGapMs.toFixed(1)} ms over ${tune.idleBaselineMs} ms), gaps over 4/8/16 ms ${Object.values(tune.gapsOver).join('/')} (idle ${Object.values(tune.idleGapsOver).join('/')})${tune.longTasks.supported ? `, long tasks ${tune.longTasks.count} (max ${tune.longTasks.maxMs.toFixed(0)} ms)` : ''}`);
console.log(`tuned: keep ${JSON.stringify(document.choices.keep)}, any ${JSON.stringify(document.choices.any)}, scan ${JSON.stringify(document.choices.scan)}, bitmask padding ${JSON.stringify(document.choices.bitmaskPadding)}`);
console.log(`worst auto (keep) / fastest order-keeping: ×${worst.keep.ratio.toFixed(2)} at 2^${worst.keep.log2n}, ${worst.keep.density * 100} % kept; within 1.15 at ${document.worst.keepWithin115} of ${rows.length} points, ${document.worst.keepMissesOnTheSamePath} of the misses on the fastest path itself (net of the sync: worst ×${worst.keepNet.toFixed(2)})`);
console.log(`worst auto (any) / fastest path:            ×${worst.any.ratio.toFixed(2)} at 2^${worst.any.log2n}, ${worst.any.density * 100} % kept; within 1.15 at ${document.worst.anyWithin115} of ${rows.length} points, ${document.worst.anyMissesOnTheSamePath} of the misses on the fastest path itself (net of the sync: worst ×${worst.anyNet.toFixed(2)})`);
console.log(formatSameWork(document.sameWorkTwice));
if (results.scans) console.log(`worst default scan / fastest scan: ×${results.scans.worst.ratio.toFixed(2)} at 2^${results.scans.worst.log2n}; within 1.15 at ${results.scans.within115} of ${results.scans.rows.length} sizes (${results.scans.rows.map((r) => `2^${r.log2n} ${r.defaultPath} ×${r.ratio.toFixed(2)}`).join(', ')})`);
console.log(`load average ${loadAverageAtStart.map((x) => x.toFixed(2)).join(' ')} at start, ${document.loadAverageAtEnd.map((x) => x.toFixed(2)).join(' ')} at end, 1-min max ${document.load1mDuringRun.max.toFixed(2)} (mean ${document.load1mDuringRun.mean.toFixed(2)}) on ${cpus().length} cores; ${document.seconds} s; wrote ${file}`);

/** --gecko-profile: the page's main thread during the tune, from the profile Firefox wrote as it closed. */
async function writeGeckoProfileResult(results) {
  const awake = tuneAwake(await readGeckoProfile(geckoProfileFile));
  console.error(`gecko profile: ${geckoProfileFile} (for another look; tens of MB, not committed)`);
  const renderer = results.renderer.unmasked ?? results.renderer.caps;
  const date = new Date().toISOString().slice(0, 10);
  const { commit, uncommitted } = sourceState();
  const tune = results.tune;
  const document = {
    tool: 'glcompact bench/tuned-sweep-browser.mjs --gecko-profile', engine: values.browser, engineVersion: opened.browser.version, userAgent: results.userAgent,
    renderer, commit, uncommitted, node: process.version, date, config: results.config,
    pinned: values.pin ? { how: 'the page\'s main thread alone on core 0, the browser\'s other threads on core 1 (bench/lib/pin-cores.mjs)' } : false,
    timing: 'Firefox\'s Gecko profiler (1 ms samples, Awake markers with CPU time) over the page\'s main thread between performance.mark tune-start and tune-end, and the idle baseline before it (idle-start, idle-end); frames of 1000/60 ms from each window\'s start',
    loadAverageAtEnd: loadavg(), tune: { wallMs: tune.wallMs, longestGapMs: tune.longestGapMs, idleLongestGapMs: tune.idleLongestGapMs, tuneIn: results.config.tuneIn, sizes: results.config.tuneSizes.map((s) => 2 ** s) },
    mainThread: awake,
  };
  await mkdir(out, { recursive: true });
  const file = await writeNewFile(join(out, `tune-main-thread-firefox-${rendererSlug(renderer)}-${date}${q ? '-quick' : ''}${values['tune-in'] === 'worker' ? '-worker-tune' : ''}${values.tag ? `-${values.tag}` : ''}.json`), `${JSON.stringify(document, null, 1)}\n`);
  const line = (name, w) => `${name}: ${w.ms.toFixed(0)} ms, ${w.stretches} awake stretches (${w.awakeMs.toFixed(0)} ms awake, ${w.cpuMs.toFixed(0)} ms CPU), over 2 ms: ${w.over} of wall, ${w.overCpu} of CPU (${Object.entries(w.overCpuBy).map(([k, n]) => `${k} ${n}`).join(', ')}); longest ${w.longestMs.toFixed(1)} ms wall, ${w.longestCpuMs.toFixed(1)} ms CPU; busiest frame ${w.busiestFrameMs.toFixed(1)} ms awake, ${w.busiestFrameCpuMs.toFixed(1)} ms CPU; frames over 2 ms of CPU ${w.framesOverCpu} of ${w.frames}`;
  console.log(`${values.browser} ${opened.browser.version}; renderer: ${renderer}; tune ${results.config.tuneIn === 'worker' ? 'in a worker' : 'on the page'}, ${tune.wallMs.toFixed(0)} ms`);
  if (awake.idle) console.log(line('idle baseline', awake.idle));
  console.log(line('tune', awake.tune));
  console.log(`tasks in the last 5 ms before the tune's end: ${awake.tasksBeforeEnd.map((t) => `${t.name} at ${t.atMs.toFixed(2)} ms, ${t.ms.toFixed(2)} ms`).join('; ')}`);
  for (const t of awake.tune.long) console.log(`  at ${t.atMs.toFixed(0)} ms: ${t.ms.toFixed(1)} ms (CPU ${t.cpuMs.toFixed(1)}, ${t.whose}) ${JSON.stringify(t.samples)}`);
  console.log(`wrote ${file}`);
}

/**
 * The profile Firefox writes as it shuts down. Puppeteer's close waits a few seconds for Firefox to exit
 * and then kills it, so the file may still be being written, or never come: read it once it parses,
 * for up to 30 s.
 */
async function readGeckoProfile(file) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`Firefox wrote no complete profile to ${file} within 30 s of closing (${error.message}); was it killed before it finished?`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
