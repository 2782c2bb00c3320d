#!/usr/bin/env node
// Main-thread time of the engine's calls per frame in the demo pages that call it every frame
// (Particles: compact + dispose; three.js culling: compact + dispose between the app's passes), in
// headless Chromium (Debian's, ANGLE + SwiftShader): builds the pages, runs each for --frames frames,
// drops the first --warmup (first use compiles), and prints the median and 90th percentile.
//   node bench/page-engine-time.mjs [--frames 60] [--warmup 10] [--json FILE]
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { chromiumArgs, chromiumExecutable } from '../scripts/chromium.mjs';

const { values } = parseArgs({ options: { frames: { type: 'string', default: '60' }, warmup: { type: 'string', default: '10' }, json: { type: 'string' } } });
const frames = Number(values.frames);
const warmup = Number(values.warmup);
const configFile = new URL('../examples/vite.config.mjs', import.meta.url).pathname;
const outDir = join(tmpdir(), `glcompact-page-engine-time-${process.pid}`);
await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
const server = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const pages = [
  { name: 'particles', path: `particles.html?frames=${frames}`, read: () => window.demoState.frameLog.engineMs },
  { name: 'three-culling', path: `three-culling.html?frames=${frames}`, read: () => window.demoState.engineMs },
];
const results = {};
try {
  for (const { name, path, read } of pages) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.resolvedUrls.local[0]}${path}`);
    await page.waitForFunction('window.demoState?.done === true', null, { timeout: 600_000, polling: 200 });
    const times = (await page.evaluate(read)).slice(warmup);
    const renderer = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl?.getExtension('WEBGL_debug_renderer_info');
      return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl?.getParameter(gl.RENDERER);
    });
    await page.close();
    if (errors.length) throw new Error(`${name}: ${errors.join('; ')}`);
    results[name] = { frames: times.length, medianMs: quantile(times, 0.5), p90Ms: quantile(times, 0.9), maxMs: Math.max(...times), renderer };
    console.log(`${name}: engine calls per frame, main thread: median ${results[name].medianMs.toFixed(2)} ms, p90 ${results[name].p90Ms.toFixed(2)} ms, max ${results[name].maxMs.toFixed(1)} ms over ${times.length} frames (${renderer})`);
  }
} finally {
  await browser.close();
  await server.close();
}
if (values.json) writeFileSync(values.json, `${JSON.stringify({ date: new Date().toISOString(), frames, warmup, results }, null, 1)}\n`);
