#!/usr/bin/env node
// The CLI's `family` sweep (issue 22: engine.sort, unique, runLengthEncode, reduce, the segmented
// scan and partition against host code) in a browser: builds bench/family-page/ with vite (the engine
// from src/, as the demo pages import it), serves it on localhost, opens it in one engine of
// scripts/browsers.mjs and writes <out>/family-<engine>-<renderer-slug>-<date>.json in the CLI's
// format (bench/README.md "The family sweep") plus its SVG chart, and prints the CLI's tables. A GPU
// result that differs from the CPU fails the run (exit 1).
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { familyRatios } from './lib/analyze.mjs';
import { exitOnHelpOrUnknownBrowser, openBenchPage } from './lib/bench-page.mjs';
import { chartSpec, renderSvg } from './lib/charts.mjs';
import { formatJson, rendererShort, rendererSlug } from './lib/format.mjs';
import { summaryText } from './lib/summary.mjs';

const USAGE = `Usage: bash scripts/with-display.sh node bench/family-browser.mjs [--browser chromium|firefox|webkit]
         [--sizes 16,18,20] [--repeats 5] [--out bench/results/issue-22]
Sizes are log2 (default the quick run's 16,18,20: a 2^20 sort takes about a second on the CPU renderers here).`;

const { values } = parseArgs({ options: {
  help: { type: 'boolean', default: false }, browser: { type: 'string', default: 'chromium' },
  sizes: { type: 'string', default: '16,18,20' }, repeats: { type: 'string', default: '5' }, out: { type: 'string', default: 'bench/results/issue-22' },
} });
exitOnHelpOrUnknownBrowser(values, USAGE);
const sizes = values.sizes.split(',').map(Number);
if (!sizes.every((e) => Number.isInteger(e) && e >= 10 && e <= 24) || !(Number(values.repeats) >= 3)) {
  console.error(`--sizes must be log2 sizes from 10 to 24 and --repeats at least 3\n\n${USAGE}`);
  process.exit(2);
}

const page = await openBenchPage(new URL('./family-page/', import.meta.url), values.browser);
const { browser } = page;
const loadAverageAtStart = loadavg();
const started = performance.now();
let results;
const bar = new cliProgress.SingleBar({ stream: process.stderr, format: '{bar} {percentage}% | {label}', noTTYOutput: !process.stderr.isTTY, notTTYSchedule: 15000 }, cliProgress.Presets.shades_classic);
try {
  const tab = await browser.newPage();
  await tab.goto(page.url(`index.html?sizes=${sizes.join(',')}&repeats=${values.repeats}`));
  bar.start(100, 0, { label: `running in ${values.browser} ${browser.version}` });
  const deadline = Date.now() + 60 * 60_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error('the page did not finish within 60 minutes');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const s = await tab.evaluate(() => window.familySweep && { done: window.familySweep.done, error: window.familySweep.error, status: window.familySweep.status, progress: window.familySweep.progress });
    if (!s) continue;
    bar.update(Math.round(s.progress * 100), { label: s.status.slice(0, 60) });
    if (s.error) throw new Error(`the page failed: ${s.error}`);
    if (s.done) break;
    const { errors } = await tab.console();
    if (errors.length) throw new Error(`console errors on the page: ${errors.join('; ')}`);
  }
  results = await tab.evaluate(() => window.familySweep);
} catch (error) {
  console.error(`\nfamily sweep failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  bar.stop();
  await page.close();
}
if (!results) process.exit(1);

const renderer = results.renderer.unmasked ?? results.renderer.caps;
const date = new Date().toISOString().slice(0, 10);
const sweep = {
  name: 'family', title: `Sort family in ${values.browser} ${browser.version}: engine.sort, unique, runLengthEncode, reduce, segmented scan, partition vs the host`,
  description: results.description, config: results.config, seconds: results.seconds, points: results.points, sortRatios: familyRatios(results.points),
};
const meta = {
  tool: 'glcompact bench/family-browser.mjs', schemaVersion: 1, engine: values.browser, engineVersion: browser.version, userAgent: results.userAgent,
  renderer, rendererShort: rendererShort(renderer), rendererSlug: rendererSlug(renderer), rendererStrings: results.renderer,
  cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`, date, repeats: Number(values.repeats), warmupRuns: 1,
  timing: 'wall+sync: the call and await engine.finish() (GPU); the loop or sort alone (host, in the same page)',
  loadAverageAtStart: loadAverageAtStart.map((x) => Math.round(x * 100) / 100), loadAverageAtEnd: loadavg().map((x) => Math.round(x * 100) / 100),
  seconds: Math.round((performance.now() - started) / 100) / 10,
};
await mkdir(values.out, { recursive: true });
const base = join(values.out, `family-${values.browser}-${rendererSlug(renderer)}-${date}`);
await writeFile(`${base}.json`, formatJson({ ...meta, sweeps: { family: sweep } }));
await writeFile(`${base}.svg`, await renderSvg(chartSpec(meta, sweep)));
console.log(`${values.browser} ${browser.version}; renderer: ${renderer}`);
console.log(summaryText([sweep]));
console.log(`all GPU results matched the CPU; ${results.seconds} s of measurement; load average (1 min) ${meta.loadAverageAtStart[0]} at start, ${meta.loadAverageAtEnd[0]} at end`);
console.log(`wrote:\n  ${base}.json\n  ${base}.svg`);
