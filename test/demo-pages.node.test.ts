// The demo pages (examples/demo, `npm run demo`), used as a person would: build them with Vite,
// serve the build with `vite preview` on a free localhost port, open each page in Debian's
// Chromium (playwright-core, ANGLE + SwiftShader; no browser download), wait until it has finished,
// check what it shows against numbers computed here on the CPU, require a clean console, and save
// a screenshot per page to test-results/screenshots/ (git-ignored) for a human to look at.
// Node-only (it starts a server and a browser), so it runs in the 'node' project alone.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from '../scripts/chromium.mjs';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { densities, keptCount, uniformValues } from '../examples/demo/src/shared/bench-data.js';
import { blockSizeFor, paperFigure7, traceJumps } from '../examples/demo/src/shared/jumping-jack.js';
import { simulateParticles } from '../examples/demo/src/shared/particles-sim.js';
import { baseInstances, cullOnCpu, INSTANCE_COUNT } from '../examples/demo/src/shared/three-culling-scene.js';

const configFile = resolve('examples/vite.config.mjs');
const screenshots = resolve('test-results/screenshots');
let outDir: string;
let server: PreviewServer;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'glcompact-demo-'));
  await build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  server = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  baseUrl = server.resolvedUrls!.local[0];
  browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
  mkdirSync(screenshots, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

interface OpenPage {
  page: Page;
  /** Console errors and uncaught exceptions so far. */
  errors: string[];
  /** Console warnings so far (Chromium reports WebGL errors as warnings: "[.WebGL-…]GL_INVALID_…"). */
  warnings: string[];
}

async function open(path: string, ready: string, timeout = 90_000): Promise<OpenPage> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  const response = await page.goto(new URL(path, baseUrl).href);
  expect(response?.status(), `HTTP status of ${path}`).toBe(200);
  await page.waitForFunction(ready, null, { timeout, polling: 100 });
  return { page, errors, warnings };
}

async function finish({ page, errors }: OpenPage, screenshot: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${screenshot}.png`), fullPage: true });
  await page.close();
  expect(errors).toEqual([]);
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

interface StepState {
  ready: boolean;
  runs: number;
  values: number[];
  b: number;
  v: number;
  invalid: number[];
  mas: number[];
  jumpingJack: number[];
  jumpingJackSources: number[];
  horn: number[];
  traces: { position: number; path: number[] }[];
  checks: { name: string; ok: boolean }[];
}

/** Everything the step-by-step page shows for `values`, recomputed here from `values` alone. */
function expectStepState(state: StepState, values: number[]): void {
  const b = blockSizeFor(values.length);
  const kept = values.filter((x) => x !== 0);
  expect(state.values).toEqual(values);
  expect(state.b).toBe(b);
  expect(state.v).toBe(kept.length);
  const invalid = Array.from({ length: b }, (_, k) => (k < values.length && values[k] !== 0 ? 0 : 1));
  expect(state.invalid).toEqual(invalid);
  let invalidSoFar = 0;
  expect(state.mas).toEqual(invalid.map((flag) => b - (invalidSoFar += flag))); // Eq. 1
  expect(sorted(state.jumpingJack), 'Jumping Jack = CPU filter as a multiset').toEqual(sorted(kept));
  expect(state.horn, "Horn = CPU filter, in order").toEqual(kept);
  // Algorithm 2 traced here from our own MAS lands where the GPU's Jumping Jack pass did
  const traces = traceJumps(state.mas, invalid);
  expect(state.jumpingJackSources).toEqual(traces.map((t) => t.path[t.path.length - 1]));
  expect(state.jumpingJack).toEqual(state.jumpingJackSources.map((k) => values[k]));
  expect(state.traces).toEqual(traces);
  expect(state.checks.filter((c) => !c.ok)).toEqual([]);
}

const stepState = (page: Page) => page.evaluate(() => (window as unknown as { demoState: StepState }).demoState);

describe('demo pages (vite preview + Chromium)', () => {
  it('index links the four pages', async () => {
    const opened = await open('index.html', "document.getElementById('renderer').textContent !== ''");
    const links = await opened.page.$$eval('.pages a', (as) => as.map((a) => ({ href: a.getAttribute('href'), title: a.querySelector('h2')?.textContent })));
    expect(links).toEqual([
      { href: './step-by-step.html', title: 'Jumping Jack, step by step' },
      { href: './particles.html', title: 'Particles' },
      { href: './three-culling.html', title: 'three.js culling' },
      { href: './benchmark.html', title: 'Benchmark' },
    ]);
    for (const link of links) expect((await opened.page.request.get(new URL(link.href!, baseUrl).href)).status()).toBe(200);
    expect(await opened.page.textContent('#renderer')).toMatch(/^WebGL2 renderer: /);
    await finish(opened, 'index');
  });

  it("step by step: the paper's Fig. 7 stream, then a random one, then values typed in", async () => {
    const opened = await open('step-by-step.html', 'window.demoState?.ready === true');
    const { page } = opened;
    // The paper's Fig. 7: 16 elements, 6 kept; positions 0, 3 and 4 search for 2, 7 and 1 jumps.
    let state = await stepState(page);
    expectStepState(state, paperFigure7);
    expect(state.traces.map((t) => t.path.length - 1)).toEqual([2, 0, 0, 7, 1, 0]);
    expect(state.traces[0].path).toEqual([0, 15, 6]);
    expect(state.traces[3].path).toEqual([3, 14, 7, 12, 8, 11, 9, 10]);
    expect(await page.textContent('#summary')).toContain('v = 6 kept; 10 jumps in all (bound b − v = 10)');
    expect(await page.textContent('#trace')).toContain('i =  0: idx 0 → MAS[0] = 15 → MAS[15] = 6 → data[6] = 4  (2 jumps)');
    // the compacted row drawn in the figure shows the GPU's Jumping Jack output
    const drawn = await page.$$eval('#figure g.jj-cell text:first-of-type', (texts) => texts.map((t) => Number(t.textContent)));
    expect(drawn).toEqual(state.jumpingJack);
    // 10 jumps: every chain drawn in full, none faint
    expect(await page.$$eval('#figure g.jump.faint, #figure g.jump.selected', (gs) => gs.length)).toBe(0);
    await page.screenshot({ path: join(screenshots, 'step-by-step-paper.png'), fullPage: true });
    // the jump-step slider at 1: positions still searching after one jump (0 and 3) show '?'
    await page.fill('#step', '1');
    const afterOneJump = await page.$$eval('#figure g.jj-cell text:first-of-type', (texts) => texts.map((t) => t.textContent));
    expect(afterOneJump).toEqual(['?', '1', '2', '?', '6', '3']);
    expect(await page.$$eval('#figure g.jump path', (arcs) => arcs.length)).toBe(3); // first jumps of 0, 3 and 4

    // Randomise, as a person would
    await page.click('#randomise');
    await page.waitForFunction('window.demoState?.runs === 2');
    state = await stepState(page);
    expect(state.values.length).toBe(32); // the length slider's value
    expectStepState(state, state.values);

    // type values (with padding: 40 elements in a block of 64) and press Enter
    const typed = Array.from({ length: 40 }, (_, k) => (k % 3 === 0 || k % 7 === 0 ? 0 : k));
    await page.fill('#values', typed.join(', '));
    await page.press('#values', 'Enter');
    await page.waitForFunction('window.demoState?.runs === 3');
    state = await stepState(page);
    expectStepState(state, typed);
    expect(state.b).toBe(64);
    await finish(opened, 'step-by-step-typed');
  });

  it('step by step: a random 64-element stream from the URL', async () => {
    const opened = await open('step-by-step.html?n=64&invalid=0.7&seed=5', 'window.demoState?.ready === true');
    const state = await stepState(opened.page);
    expect(state.values.length).toBe(64);
    expectStepState(state, state.values);
    // too many jumps to draw legibly: the longest search is drawn in full, the other chains faint
    const { page } = opened;
    const jumps = state.traces.map((t) => t.path.length - 1);
    const longest = jumps.indexOf(Math.max(...jumps));
    const roles = () => page.$$eval('#figure g.jump', (gs) => gs.map((g) => `${g.getAttribute('data-position')}:${['selected', 'faint'].filter((c) => g.classList.contains(c)).join()}`).sort());
    const expectSelected = async (position: number | undefined) => {
      const expected = state.traces.map((t) => `${t.position}:${position === undefined ? '' : t.position === position ? 'selected' : 'faint'}`).sort();
      expect(await roles()).toEqual(expected);
    };
    await expectSelected(longest);
    expect(await page.textContent('#figure-note')).toContain(`position ${longest}'s ${jumps[longest]} jumps (${state.traces[longest].path.join(' → ')})`);
    // clicking another compacted cell follows that one; clicking it again draws every chain alike
    const other = jumps.findIndex((j, i) => i !== longest && j > 0);
    await page.click(`#figure g.jj-cell[data-position="${other}"]`);
    await expectSelected(other);
    await page.click(`#figure g.jj-cell[data-position="${other}"]`);
    await expectSelected(undefined);
    await page.click(`#figure g.jj-cell[data-position="${longest}"]`);
    await expectSelected(longest);
    await page.mouse.move(0, 0);
    await finish(opened, 'step-by-step-random');
  });

  it("particles: drawn from the GPU-resident count, no readback in the render loop; the live count matches a CPU replay at every frame", async () => {
    const frames = 40;
    // counts=1: the page reads each frame's count after drawing it (outside the frame), for this check.
    const opened = await open(`particles.html?frames=${frames}&counts=1`, 'window.demoState?.done === true');
    const state = await opened.page.evaluate(() => (window as unknown as { demoState: {
      frame: number; liveCount: number; counts: number[]; readbacksPerFrame: number[]; algorithm: string; params: { capacity: number; emitPerFrame: number };
      timing: { source: string; ms: number }; final: { liveIds: number[]; allAlive: boolean; liveCount: number; litPixels: number };
    } }).demoState);
    expect(state.readbacksPerFrame).toEqual(new Array(frames + 1).fill(0)); // readPixels/getBufferSubData while rendering
    expect(state.params).toEqual({ capacity: 50_000, emitPerFrame: 450 });
    const cpu = simulateParticles(state.params, frames);
    expect(state.frame).toBe(frames);
    expect(state.counts).toEqual(cpu.counts);
    expect(state.liveCount).toBe(cpu.counts[frames]);
    expect(state.final.liveCount).toBe(cpu.counts[frames]);
    expect(state.final.allAlive).toBe(true);
    expect(state.final.liveIds).toEqual(Array.from(cpu.liveIds));
    expect(state.final.litPixels).toBeGreaterThan(20_000); // tens of thousands of points on the canvas
    expect(state.algorithm).toBe('jumping-jack');
    // what the page shows
    expect(await opened.page.textContent('#live')).toBe(cpu.counts[frames].toLocaleString('en-US'));
    expect(await opened.page.textContent('#check')).toMatch(/^✓ frame 40: live counts of all 41 frames match the CPU replay/);
    const timingText = await opened.page.textContent('#timing-source');
    if (state.timing.source === 'gpu-timer-query') expect(timingText).toMatch(/^GPU time from EXT_disjoint_timer_query_webgl2/);
    else expect(timingText).toMatch(/^No EXT_disjoint_timer_query_webgl2 here: the time shown is CPU time/);
    expect(state.timing.ms).toBeGreaterThan(0);
    await finish(opened, 'particles');
  });

  it('particles: the same counts with horn and auto (smaller pool)', async () => {
    for (const algorithm of ['horn', 'auto']) {
      const params = { capacity: 9000, emitPerFrame: 120 };
      const opened = await open(`particles.html?frames=12&counts=1&n=${params.capacity}&emit=${params.emitPerFrame}&algorithm=${algorithm}`, 'window.demoState?.done === true');
      const state = await opened.page.evaluate(() => (window as unknown as { demoState: { counts: number[]; readbacksPerFrame: number[]; algorithm: string; final: { liveIds: number[] } } }).demoState);
      const cpu = simulateParticles(params, 12);
      expect(state.algorithm).toBe(algorithm);
      expect(state.readbacksPerFrame).toEqual(new Array(13).fill(0));
      expect(state.counts).toEqual(cpu.counts);
      expect(state.final.liveIds).toEqual(Array.from(cpu.liveIds));
      await opened.page.close();
      expect(opened.errors).toEqual([]);
    }
  });

  it('three.js culling: drawn from the GPU-resident count, pixel-identical to CPU culling, every count checked, no readback per frame', async () => {
    const frames = 4; // frames 0..4
    const size = 256;
    interface ThreeState {
      mode: string; frame: number; done: boolean; instances: number; readbacksPerFrame: number[]; readbacksOutsideFrames: number;
      counts: number[]; pixels: string[]; glError: number; renderer: string;
    }
    const run = async (query: string) => {
      const opened = await open(`three-culling.html?frames=${frames}&capture=1&size=${size}${query}`, 'window.demoState?.done === true', 110_000);
      const state = await opened.page.evaluate(() => (window as unknown as { demoState: ThreeState }).demoState);
      return { opened, state };
    };
    const gpu = await run('');
    const cpu = await run('&cull=cpu');
    const base = baseInstances();
    const expected = Array.from({ length: frames + 1 }, (_, f) => cullOnCpu(base, f).count);
    expect(gpu.state.mode).toBe('gpu');
    expect(cpu.state.mode).toBe('cpu');
    expect(gpu.state.instances).toBe(INSTANCE_COUNT);
    // every compaction count (read by the page after each frame was drawn) = the CPU's culling
    expect(gpu.state.counts).toEqual(expected);
    expect(cpu.state.counts).toEqual(expected);
    // the frames: pixel-identical to the reference, and not empty
    expect(gpu.state.pixels).toHaveLength(frames + 1);
    for (let f = 0; f <= frames; f++) {
      const a = Buffer.from(gpu.state.pixels[f], 'base64');
      const b = Buffer.from(cpu.state.pixels[f], 'base64');
      expect(a.length).toBe(size * size * 4);
      let differing = 0;
      let lit = 0;
      for (let k = 0; k < a.length; k += 4) {
        if (a[k] !== b[k] || a[k + 1] !== b[k + 1] || a[k + 2] !== b[k + 2] || a[k + 3] !== b[k + 3]) differing++;
        if (a[k] + a[k + 1] + a[k + 2] > 60) lit++;
      }
      expect(differing, `frame ${f}: pixels differing from the CPU-culled reference`).toBe(0);
      expect(lit, `frame ${f}: lit pixels`).toBeGreaterThan(size * size * 0.05);
    }
    // no readPixels/getBufferSubData while any frame was rendered (the counts and pixels above were read after)
    expect(gpu.state.readbacksPerFrame).toEqual(new Array(frames + 1).fill(0));
    // ... while the counter does see the reads made outside the frames (pixels, and the counts' readPixels into a buffer)
    expect(gpu.state.readbacksOutsideFrames).toBeGreaterThanOrEqual(2 * (frames + 1));
    expect(gpu.state.glError).toBe(0);
    expect(cpu.state.glError).toBe(0);
    for (const { opened } of [gpu, cpu]) {
      expect(opened.warnings.filter((w) => /GL|THREE|WebGL/i.test(w))).toEqual([]);
    }
    await cpu.opened.page.close();
    expect(cpu.opened.errors).toEqual([]);
    await finish(gpu.opened, 'three-culling');
  });

  it('benchmark (?quick=1): a result for every algorithm and density, each checked; tfjs and JS peers', async () => {
    const opened = await open('benchmark.html?quick=1', 'window.benchResults?.done === true || window.benchResults?.error !== undefined', 110_000);
    const results = await opened.page.evaluate(() => (window as unknown as { benchResults: {
      done: boolean; error?: string; n: number; renderer: string; tfBackend: string;
      sweep: { algorithm: string; invalidDensity: number; count: number; expectedCount: number; ms: number; verified: boolean; path: string }[];
      peers: { operation: string; implementation: string; n: number; ms: number; verified: boolean }[];
    } }).benchResults);
    expect(results.error).toBeUndefined();
    expect(results.done).toBe(true);
    expect(results.n).toBe(2 ** 14);
    expect(results.renderer).toMatch(/SwiftShader/);
    const values = uniformValues(results.n);
    for (const algorithm of ['jumping-jack', 'horn', 'bitmask', 'auto']) {
      for (const d of densities) {
        const point = results.sweep.find((p) => p.algorithm === algorithm && p.invalidDensity === d);
        expect(point, `${algorithm} at ${d}`).toBeDefined();
        expect(point!.count).toBe(keptCount(values, d));
        expect(point!.expectedCount).toBe(keptCount(values, d));
        expect(point!.verified).toBe(true);
        expect(point!.ms).toBeGreaterThan(0);
        expect(point!.path).toBe(algorithm === 'auto' ? 'hybrid' : algorithm);
      }
    }
    expect(results.sweep).toHaveLength(44);
    expect(results.tfBackend).toBe('webgl');
    const implementations = results.peers.map((p) => `${p.operation}: ${p.implementation}`);
    for (const expected of ['scan: tf.cumsum (tfjs WebGL)', 'scan: engine.scan (recursive-doubling)', 'scan: engine.scan (reduce-then-scan)', 'scan: JS loop (Float32Array)',
      'compact: tf.greater + tf.booleanMaskAsync (tfjs WebGL)', 'compact: engine.compact (auto)', 'compact: JS loop (Float32Array)']) {
      expect(implementations).toContain(expected);
    }
    expect(results.peers).toHaveLength(14);
    expect(results.peers.filter((p) => !p.verified)).toEqual([]);
    // the page shows it: 11 table rows with four ✓ each, a drawn chart, no ✗ anywhere
    expect(await opened.page.$$eval('#sweep tr', (rows) => rows.length)).toBe(12);
    expect(await opened.page.$$eval('#sweep .tick.ok', (ticks) => ticks.length)).toBe(44);
    expect(await opened.page.textContent('body')).not.toContain('✗');
    expect(await opened.page.textContent('#status')).toMatch(/all checked against the CPU/);
    const chartDrawn = await opened.page.$eval('#chart', (canvas) => (canvas as HTMLCanvasElement).width > 0 && (canvas as HTMLCanvasElement).toDataURL().length > 10_000);
    expect(chartDrawn).toBe(true);
    await finish(opened, 'benchmark-quick');
  });
});
