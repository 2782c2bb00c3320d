#!/usr/bin/env node
// Frame times of the Splat sort demo page (examples/demo/splat-sort.html) in headless Chromium: builds
// the demo pages, opens splat-sort.html?compare=1 (each mode in turn: GPU sort, worker sort, no sort)
// and prints the page's own timing table (window.demoState.timings: median ms between frames, main
// thread ms per frame, GPU ms per phase where the timer query exists, the worker's ms per order).
// CPU renderers draw on the same cores as the worker: rough figures, say which renderer gave them.
//   node bench/splat-frames.mjs [--n 65536] [--size 512] [--compare-frames 20] [--keys u16|float] [--json FILE]
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { chromiumArgs, chromiumExecutable } from '../scripts/chromium.mjs';

const { values } = parseArgs({ options: {
  n: { type: 'string', default: '65536' }, size: { type: 'string', default: '512' },
  'compare-frames': { type: 'string', default: '20' }, keys: { type: 'string', default: 'u16' }, json: { type: 'string' },
} });
for (const name of ['n', 'size', 'compare-frames']) {
  if (!/^[1-9][0-9]*$/.test(values[name])) throw new Error(`--${name} must be a positive integer; got ${values[name]}`);
}
if (values.keys !== 'u16' && values.keys !== 'float') throw new Error(`--keys must be u16 or float; got ${values.keys}`);
const configFile = new URL('../examples/vite.config.mjs', import.meta.url).pathname;
const outDir = join(tmpdir(), `glcompact-splat-frames-${process.pid}`);
await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
const server = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const query = `n=${values.n}&size=${values.size}&compare=1&compareFrames=${values['compare-frames']}${values.keys === 'float' ? '&keys=float' : ''}`;
  await page.goto(`${server.resolvedUrls.local[0]}splat-sort.html?${query}`);
  process.stderr.write(`splat-sort.html?${query}: comparing the three modes...\n`);
  await page.waitForFunction('window.demoState?.compared === true', null, { timeout: 1_800_000, polling: 500 });
  const state = await page.evaluate(() => window.demoState);
  await page.close();
  if (errors.length) throw new Error(errors.join('; '));
  const result = {
    date: new Date().toISOString(), query, renderer: state.renderer, timings: state.timings,
    // Per frame: the first (compiles, probes) and the most in any later one.
    readbacksPerFrame: { first: state.readbacksPerFrame[0], mostAfterFirst: Math.max(0, ...state.readbacksPerFrame.slice(1)) },
    blockingPerFrame: { first: state.blockingPerFrame[0], mostAfterFirst: Math.max(0, ...state.blockingPerFrame.slice(1)) },
  };
  console.log(JSON.stringify(result, null, 2));
  if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await browser.close();
  await server.close();
}
