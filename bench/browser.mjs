#!/usr/bin/env node
// The browser half of the benchmarks (`npm run bench:browser`): builds the demo pages, serves them
// on localhost, opens the Benchmark page in one of the three engines of scripts/browsers.mjs
// (Debian's Chromium, Firefox ESR or WebKitGTK; never a browser download), waits for it to finish,
// and writes its results in the format of bench/cli.mjs:
// <out>/<engine>-<renderer-slug>-<date>-browser.json plus SVG charts. The page runs
// the paper's Fig. 11 density sweep with glcompact and, on the same data in the same session,
// TensorFlow.js peers (tf.cumsum, tf.booleanMaskAsync) and a plain JS loop; every result is
// checked against the CPU on the page, and a mismatch aborts here.
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { build, preview } from 'vite';
import { launchBrowser } from '../scripts/browsers.mjs';
import { chromiumArgs } from '../scripts/chromium.mjs';
import { autoCheck, densityCrossover } from './lib/analyze.mjs';
import { exitOnHelpOrUnknownBrowser } from './lib/bench-page.mjs';
import { chartSpec, renderSvg } from './lib/charts.mjs';
import { formatJson, rendererShort, rendererSlug } from './lib/format.mjs';
import { summarize } from './lib/stats.mjs';

const USAGE = `Usage: npm run bench:browser -- [--browser chromium] [--quick] [--n 1048576] [--repeats 5] [--out bench/results]

Runs examples/demo/benchmark.html in one browser engine and writes
<out>/<engine>-<renderer-slug>-<YYYY-MM-DD>-browser[-quick].json plus two SVG charts (density sweep, peers).
  --browser E  chromium (headless, ANGLE + SwiftShader here), firefox (Firefox ESR, Gecko's WebGL on
               Mesa llvmpipe) or webkit (WebKitGTK MiniBrowser; renderer masked): default chromium.
               Firefox and WebKit need an X display (the npm script runs under one).
  --quick      2^14 elements, 3 repeats, for a smoke test (output git-ignored)
  --n N        elements of the density sweep (default 2^20; peers run at 2^20 and 2^22)
  --repeats N  timed runs per point after one warm-up (default 5)
  --out DIR    output folder (default bench/results)`;


const { values } = parseArgs({ options: {
  help: { type: 'boolean', default: false }, quick: { type: 'boolean', default: false }, browser: { type: 'string', default: 'chromium' },
  n: { type: 'string' }, repeats: { type: 'string' }, out: { type: 'string', default: 'bench/results' },
} });
exitOnHelpOrUnknownBrowser(values, USAGE);
const engineName = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' }[values.browser];
const n = Number(values.n ?? (values.quick ? 2 ** 14 : 2 ** 20));
const repeats = Number(values.repeats ?? (values.quick ? 3 : 5));
if (!Number.isInteger(Math.log2(n)) || !(repeats >= 3)) {
  console.error(`--n must be a power of two and --repeats >= 3\n\n${USAGE}`);
  process.exit(2);
}

const configFile = new URL('../examples/vite.config.mjs', import.meta.url).pathname;
const outDir = join(tmpdir(), `glcompact-bench-pages-${process.pid}`);
console.error('building the demo pages…');
await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
const server = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
const browser = await launchBrowser(values.browser);
const started = performance.now();
let results;
try {
  const page = await browser.newPage();
  const url = `${server.resolvedUrls.local[0]}benchmark.html?n=${n}&repeats=${repeats}${values.quick ? '&quick=1' : ''}`;
  await page.goto(url);
  const bar = new cliProgress.SingleBar({ stream: process.stderr, format: '{bar} {percentage}% | {label}', noTTYOutput: !process.stderr.isTTY, notTTYSchedule: 15000 }, cliProgress.Presets.shades_classic);
  bar.start(100, 0, { label: `running in ${engineName}` });
  for (;;) {
    const state = await page.evaluate(() => ({ done: window.benchResults?.done, error: window.benchResults?.error, progress: document.querySelector('progress')?.value ?? 0, status: document.getElementById('status')?.textContent ?? '' }));
    bar.update(Math.round(Number(state.progress) * 100), { label: state.status.slice(0, 60) });
    if (state.error) throw new Error(`the benchmark page failed: ${state.error}`);
    if (state.done) break;
    const { errors } = await page.console();
    if (errors.length) throw new Error(`console errors on the benchmark page: ${errors.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  bar.stop();
  results = await page.evaluate(() => window.benchResults);
} finally {
  await browser.close();
  await server.close();
}
const unverified = [...results.sweep, ...results.peers].filter((p) => !p.verified);
if (unverified.length) {
  console.error(`bench aborted: ${unverified.length} result(s) did not match the CPU on the page: ${JSON.stringify(unverified.slice(0, 3))}`);
  process.exit(1);
}

const browserDescription = {
  chromium: 'Debian chromium (/usr/bin/chromium) via playwright-core, headless, ANGLE + SwiftShader',
  firefox: 'Debian firefox-esr via puppeteer-core (WebDriver BiDi), headed under Xvfb',
  webkit: 'Debian WebKitGTK MiniBrowser via WebKitWebDriver + webdriverio, under Xvfb',
};
const pkg = JSON.parse(await (await import('node:fs/promises')).readFile(new URL('../package.json', import.meta.url), 'utf8'));
const date = new Date().toISOString().slice(0, 10);
// The page's 'auto' runs with the block size (the hybrid); its 'bitmask' is what 'auto' runs by default.
const seriesName = { 'jumping-jack': 'jumping-jack', horn: 'horn (block)', bitmask: 'bitmask', auto: 'auto, block hybrid' };
const densityPoints = results.sweep.map((p) => ({
  series: seriesName[p.algorithm], kind: 'compact', n: p.n, density: Math.round(p.invalidDensity * 100),
  options: { keep: { greaterThan: p.invalidDensity }, algorithm: p.algorithm, ...(p.algorithm === 'bitmask' ? {} : { blockSize: results.blockSize }) },
  ...summarize(p.runsMs), timing: 'wall+sync', sync: 'count()+finish()', passes: p.passes, drawCalls: p.drawCalls,
  fragments: p.fragments, count: p.count, path: { algorithm: p.path },
}));
const densitySweep = {
  name: 'density',
  title: `Compaction vs invalid density (paper Fig. 11), in ${engineName}`,
  description: `n = ${n} uniform [0,1) float32, block ${results.blockSize}, keep x > density; Jumping Jack vs Horn (block) vs auto`,
  config: { n, blockSize: results.blockSize, densities: [...new Set(densityPoints.map((p) => p.density))] },
  points: densityPoints,
};
densitySweep.crossover = densityCrossover(densityPoints);
// What 'auto' runs by default is the bitmask series: check it against every path the page measured.
densitySweep.autoCheck = autoCheck(densityPoints.map((p) => (p.series === 'bitmask' ? { ...p, series: 'auto' } : p)));
const peers = {
  name: 'peers',
  title: `glcompact vs TensorFlow.js (WebGL backend) vs a JS loop, same data, same ${engineName} session`,
  description: 'prefix sum of 0/1 floats and compaction at 50 % invalid; "until" says where each timing stops',
  config: { sizes: [...new Set(results.peers.map((p) => p.n))], tfBackend: results.tfBackend, tfRenderer: results.tfRenderer },
  points: results.peers.map((p) => ({ series: p.implementation, kind: p.operation, n: p.n, log2n: Math.log2(p.n), until: p.until, ...summarize(p.runsMs), timing: 'wall' })),
};
const meta = {
  tool: 'glcompact bench/browser.mjs', schemaVersion: 1,
  renderer: results.renderer, rendererShort: rendererShort(results.renderer), rendererSlug: rendererSlug(results.renderer),
  package: pkg.name, packageVersion: pkg.version, engine: values.browser, engineVersion: browser.version,
  browser: browserDescription[values.browser], ...(values.browser === 'chromium' ? { chromiumArgs } : {}),
  node: process.version, date, quick: values.quick, repeats, warmupRuns: 1, timing: 'wall+sync',
  timingNote: 'wall time in the page (performance.now); compactions until await result.count() and await engine.finish() (a fence polled between tasks), scans until engine.finish() or until read back (see each peer point\'s "until")',
  timerQuery: results.timerQuery, seconds: Math.round((performance.now() - started) / 100) / 10,
};
await mkdir(values.out, { recursive: true });
const base = join(values.out, `${values.browser}-${meta.rendererSlug}-${date}-browser${values.quick ? '-quick' : ''}`);
await writeFile(`${base}.json`, formatJson({ ...meta, sweeps: { density: densitySweep, peers } }));
await writeFile(`${base}-density.svg`, await renderSvg(chartSpec(meta, densitySweep)));
await writeFile(`${base}-peers.svg`, await renderSvg(chartSpec(meta, peers)));

const fmt = (ms) => ms.toFixed(ms >= 100 ? 0 : 1);
console.log(`engine: ${engineName} ${browser.version}; renderer: ${meta.renderer}`);
for (const p of peers.points) console.log(`${p.kind.padEnd(8)} n=2^${p.log2n}  ${fmt(p.medianMs).padStart(7)} ms  ${p.series} (${p.until})`);
console.log(`crossover: ${densitySweep.crossover?.densityPercent ?? '-'} % invalid (${densitySweep.crossover?.note ?? ''}); auto (the bitmask, its default path) worst ${densitySweep.autoCheck?.worst.autoOverBest}× the fastest path at ${densitySweep.autoCheck?.worst.density} %, the fastest path at ${densitySweep.autoCheck?.rows.filter((r) => r.tookFastestPath).length} of ${densitySweep.autoCheck?.rows.length} densities`);
console.log(`wrote ${base}.json, -density.svg, -peers.svg`);
