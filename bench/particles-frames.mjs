#!/usr/bin/env node
// Frame time of the Particles demo page (examples/demo/particles.html) in headless Chromium:
// builds the demo pages, opens particles.html?frames=N, and summarises the page's own per-frame log
// (window.demoState.frameLog): GPU ms of the frame's whole GL work (simulate + compact + draw) from
// EXT_disjoint_timer_query_webgl2, CPU ms from the frame's start until its draw is submitted, and
// ms between consecutive frame starts. The first `--warmup` frames are dropped.
//   node bench/particles-frames.mjs [--frames 150] [--warmup 20] [--runs 3] [--query 'n=50000']
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { chromiumArgs, chromiumExecutable } from '../scripts/chromium.mjs';

const { values } = parseArgs({ options: {
  frames: { type: 'string', default: '150' }, warmup: { type: 'string', default: '20' },
  runs: { type: 'string', default: '3' }, query: { type: 'string', default: '' },
} });
const frames = Number(values.frames);
const warmup = Number(values.warmup);
const configFile = new URL('../examples/vite.config.mjs', import.meta.url).pathname;
const outDir = join(tmpdir(), `glcompact-particles-frames-${process.pid}`);
await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
const server = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
try {
  for (let run = 0; run < Number(values.runs); run++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${server.resolvedUrls.local[0]}particles.html?frames=${frames}${values.query ? `&${values.query}` : ''}`);
    await page.waitForFunction('window.demoState?.done === true', null, { timeout: 600_000, polling: 200 });
    const state = await page.evaluate(() => ({ log: window.demoState.frameLog, renderer: document.getElementById('renderer').textContent, check: document.getElementById('check').textContent }));
    await page.close();
    if (errors.length) throw new Error(errors.join('; '));
    // GPU entries are per timed frame (frames without a free query have none): drop the first ones too.
    const gpu = state.log.gpuMs.slice(Math.round(warmup * state.log.gpuMs.length / frames));
    const step = state.log.stepMs.slice(warmup);
    const interval = state.log.intervalMs.slice(warmup);
    console.log(JSON.stringify({
      run, renderer: state.renderer, frames, warmup,
      gpuMs: { median: +median(gpu).toFixed(2), mean: +mean(gpu).toFixed(2), timedFrames: gpu.length },
      stepMs: { median: +median(step).toFixed(2), mean: +mean(step).toFixed(2) },
      frameIntervalMs: { median: +median(interval).toFixed(2), mean: +mean(interval).toFixed(2) },
      check: state.check.slice(0, 80),
    }));
  }
} finally {
  await browser.close();
  await server.close();
}
