// The demo pages (examples/demo, `npm run demo`), used as a person would, in each of the three
// browser engines of scripts/browsers.mjs: Chromium (playwright-core, ANGLE + SwiftShader), Firefox
// ESR (puppeteer-core over WebDriver BiDi, headed under the X display: Gecko's WebGL2 on Mesa's
// llvmpipe) and WebKitGTK (MiniBrowser through WebKitWebDriver and webdriverio, under the X display),
// all Debian packages, no browser download. The pages are built once with Vite (with the console
// capture of scripts/browsers.mjs in every page's <head>, which WebKit's classic WebDriver needs to
// see the console; `npm run demo` builds without it) and served with `vite preview` on a free
// localhost port; then, per engine, each page is opened through the same page driver, waited for,
// checked against numbers computed here on the CPU, its console required free of errors, and a
// screenshot saved to test-results/screenshots/<engine>-<name>.png (git-ignored) for a human.
// What differs per engine is in `engineExpectations` below, each with its reason.
// Node-only (it starts a server and browsers), so it runs in the 'node' project alone; Firefox and
// WebKit need DISPLAY (run it under scripts/with-display.sh, as `npm test` does).
// One engine alone: `npx vitest run --project node test/demo-pages.node.test.ts -t webkit`.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, loadConfigFromFile, preview, type PreviewServer } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserEngines, launchBrowser, type BrowserPage } from '../scripts/browsers.mjs';
import { consoleCapture } from '../examples/vite.config.mjs';
import { densities, keptCount, uniformValues } from '../examples/demo/src/shared/bench-data.js';
import { blockSizeFor, paperFigure7, traceJumps } from '../examples/demo/src/shared/jumping-jack.js';
import { simulateParticles } from '../examples/demo/src/shared/particles-sim.js';
import { baseInstances, cullOnCpu, INSTANCE_COUNT } from '../examples/demo/src/shared/three-culling-scene.js';
import { baseSpheres, HIZ_LEVELS, INSTANCE_COUNT as HIZ_INSTANCE_COUNT, inFrustumCount } from '../examples/demo/src/shared/hiz-scene.js';
import { depthKeys, makePoints, viewAt } from '../examples/demo/src/shared/splat-scene.js';
import { CHECK_DENSITIES, checkData, checkThreshold, elementsHash } from '../examples/demo/src/shared/tuning-check.js';
import { compactCandidates } from '../src/tuning.js';

type Engine = 'chromium' | 'firefox' | 'webkit';

/**
 * What each engine really reports here, and so what its pages must show. `renderer` is what the
 * pages print: WEBGL_debug_renderer_info's UNMASKED_RENDERER_WEBGL (engine.caps.renderer, and the
 * index page's line). gl.RENDERER itself is masked in Chromium and WebKit ("WebKit WebGL").
 */
const engineExpectations: Record<Engine, { renderer: RegExp; timerQuery: boolean }> = {
  // "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) …), SwiftShader driver)"
  // (--use-angle=swiftshader), with EXT_disjoint_timer_query_webgl2.
  chromium: { renderer: /SwiftShader/, timerQuery: true },
  // Gecko's WebGL on Mesa's llvmpipe; Firefox sanitizes the unmasked string to "llvmpipe, or
  // similar" and has no EXT_disjoint_timer_query_webgl2 here, so the pages show CPU time.
  firefox: { renderer: /^llvmpipe, or similar$/, timerQuery: false },
  // WebKit answers "Apple GPU" (vendor "Apple Inc.") to WEBGL_debug_renderer_info whatever the GL
  // below is (a privacy mask, also on Linux), so the pages cannot say it runs on llvmpipe; and
  // WebKitGTK has no EXT_disjoint_timer_query_webgl2, so the pages show CPU time.
  webkit: { renderer: /^Apple GPU$/, timerQuery: false },
};

const configFile = resolve('examples/vite.config.mjs');
const screenshots = resolve('test-results/screenshots');
let outDir: string;
let server: PreviewServer;
let baseUrl: string;

// One build and one server for all engines.
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'glcompact-demo-'));
  await build({ configFile, logLevel: 'error', plugins: [consoleCapture()], build: { outDir, emptyOutDir: true } });
  server = await preview({ configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  baseUrl = server.resolvedUrls!.local[0];
  mkdirSync(screenshots, { recursive: true });
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

it('`npm run demo` builds the pages without the console capture (the test build adds it)', async () => {
  const { config } = (await loadConfigFromFile({ command: 'build', mode: 'production' }, configFile))!;
  const names = (config.plugins ?? []).flat().map((plugin) => (plugin && typeof plugin === 'object' && 'name' in plugin ? plugin.name : undefined));
  expect(names).toContain('glcompact-api-reference');
  expect(names).not.toContain(consoleCapture().name);
});

/** The HTTP status of a path of the preview server, asked from Node (WebDriver does not tell it). */
async function httpStatus(path: string): Promise<number> {
  const response = await fetch(new URL(path, baseUrl));
  await response.arrayBuffer();
  return response.status;
}

// Small page functions for `evaluate` (they run in the page: no closures over this file).
const textOf = (page: BrowserPage, selector: string) => page.evaluate((s: string) => document.querySelector(s)?.textContent ?? null, selector);
const textsOf = (page: BrowserPage, selector: string) => page.evaluate((s: string) => [...document.querySelectorAll(s)].map((e) => e.textContent), selector);
const countOf = (page: BrowserPage, selector: string) => page.evaluate((s: string) => document.querySelectorAll(s).length, selector);
/** window[name] (the pages expose their state for this test as window.demoState or window.benchResults). */
const windowValue = <T>(page: BrowserPage, name: string) => page.evaluate((n: string) => (window as unknown as Record<string, unknown>)[n], name) as Promise<T>;

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
  expect(state.horn, 'Horn = CPU filter, in order').toEqual(kept);
  // Algorithm 2 traced here from our own MAS lands where the GPU's Jumping Jack pass did
  const traces = traceJumps(state.mas, invalid);
  expect(state.jumpingJackSources).toEqual(traces.map((t) => t.path[t.path.length - 1]));
  expect(state.jumpingJack).toEqual(state.jumpingJackSources.map((k) => values[k]));
  expect(state.traces).toEqual(traces);
  expect(state.checks.filter((c) => !c.ok)).toEqual([]);
}

const stepState = (page: BrowserPage) => windowValue<StepState>(page, 'demoState');

interface TuningState {
  done: boolean;
  runs: number;
  failure?: string;
  tuneMs?: number;
  source: 'tuned' | 'stored';
  where?: 'worker' | 'page';
  workerError?: string;
  storedRefused?: string;
  progress: { done: number; total: number; size: number; density?: number }[];
  profile: { renderer: string; measured: string; compact: { keep: Record<string, string>; any: Record<string, string> }; scan: Record<string, string> };
  checks: { elements: number; density: number; order: 'keep' | 'any'; algorithm: string; count: number; cpuCount: number; exact: boolean; hash: number }[];
  renderer: string;
}

/** The tuning page's profile and its checks of auto, recomputed here from the same data. */
function expectTuningChecks(state: TuningState, sizes: number[]): void {
  const keepsOrder = new Set(compactCandidates.filter((c) => c.keepsOrder).map((c) => c.path));
  const all = new Set(compactCandidates.map((c) => c.path));
  expect(state.profile.renderer).toBe(state.renderer);
  expect(Object.keys(state.profile.compact.keep)).toHaveLength(sizes.length);
  for (const path of Object.values(state.profile.compact.keep)) expect(keepsOrder, `order kept: ${path}`).toContain(path);
  for (const path of Object.values(state.profile.compact.any)) expect(all).toContain(path);
  expect(state.checks).toHaveLength(sizes.length * CHECK_DENSITIES.length * 2);
  for (const log2n of sizes) {
    const data = checkData(log2n);
    for (const density of CHECK_DENSITIES) {
      const expected = data.filter((v) => v <= checkThreshold(density));
      for (const order of ['keep', 'any'] as const) {
        const check = state.checks.find((c) => c.elements === 2 ** log2n && c.density === density && c.order === order);
        const at = `2^${log2n} ${density} ${order}`;
        expect(check, at).toBeDefined();
        expect(check!.count, at).toBe(expected.length);
        expect(check!.cpuCount, at).toBe(expected.length);
        expect(check!.exact, at).toBe(true);
        expect(check!.hash, `${at}: the elements read`).toBe(elementsHash(order === 'keep' ? expected : expected.slice().sort()));
        expect(order === 'keep' ? keepsOrder : all, `${at}: ${check!.algorithm}`).toContain(check!.algorithm);
      }
    }
  }
}

describe.each(browserEngines as Engine[])('demo pages in %s (vite preview)', (engine) => {
  const expected = engineExpectations[engine];
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    browser = await launchBrowser(engine);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    console.log(`demo pages in ${engine} ${browser?.version ?? ''}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  // Pages a failed test left open are closed after it: WebKitWebDriver holds one session (one
  // page) at a time, so a page left open would fail every later test of the engine.
  const openPages = new Set<BrowserPage>();
  afterEach(async () => {
    for (const page of openPages) await page.close().catch(() => {});
    openPages.clear();
  });

  const screenshot = (page: BrowserPage, name: string) => page.screenshot(join(screenshots, `${engine}-${name}.png`));

  async function open(path: string, ready: string, timeout = 90_000): Promise<BrowserPage> {
    expect(await httpStatus(path), `HTTP status of ${path}`).toBe(200);
    const page = await browser.newPage({ width: 1440, height: 900 });
    openPages.add(page);
    await page.goto(new URL(path, baseUrl).href);
    await page.waitForFunction(ready, timeout);
    return page;
  }

  /** The console's errors (console.error, uncaught exceptions, unhandled rejections), then the page closed. */
  async function closeAndErrors(page: BrowserPage): Promise<string[]> {
    // the page carries the capture (without it WebKit's console would read as empty, i.e. clean)
    expect(await page.evaluate(() => '__glcompactConsole' in window), 'console capture in the page').toBe(true);
    const { errors } = await page.console();
    openPages.delete(page);
    await page.close();
    return errors;
  }

  async function finish(page: BrowserPage, name: string): Promise<void> {
    await screenshot(page, name);
    expect(await closeAndErrors(page)).toEqual([]);
  }

  it('index links the seven pages', async () => {
    const page = await open('index.html', "document.getElementById('renderer').textContent !== ''");
    const links = await page.evaluate(() => [...document.querySelectorAll('.pages a')].map((a) => ({ href: a.getAttribute('href'), title: a.querySelector('h2')?.textContent })));
    expect(links).toEqual([
      { href: './step-by-step.html', title: 'Jumping Jack, step by step' },
      { href: './particles.html', title: 'Particles' },
      { href: './three-culling.html', title: 'three.js culling' },
      { href: './hiz-culling.html', title: 'Hi-Z occlusion culling' },
      { href: './splat-sort.html', title: 'Splat sort' },
      { href: './tuning.html', title: 'Self-tuning' },
      { href: './benchmark.html', title: 'Benchmark' },
    ]);
    for (const link of links) expect(await httpStatus(link.href!)).toBe(200);
    const renderer = await textOf(page, '#renderer');
    expect(renderer).toMatch(/^WebGL2 renderer: /);
    expect(renderer!.replace(/^WebGL2 renderer: /, '')).toMatch(expected.renderer);
    await finish(page, 'index');
  });

  it("the console check sees a page's errors: console.error, an uncaught exception, an unhandled rejection", async () => {
    // The step-by-step page reports values it cannot take with showError (console.error + a box)
    const page = await open('step-by-step.html?values=1,x', "document.querySelector('#errors .error-box') !== null");
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('thrown in a timer');
      });
      void Promise.reject(new Error('a rejected promise'));
    });
    // the capture in the page's <head> (all engines) has seen all three; the drivers' own events may add to it
    await page.waitForFunction('window.__glcompactConsole?.errors.length >= 3', 10_000);
    const errors = await closeAndErrors(page);
    for (const expected of [/^console\.error: .*values must be whole numbers from 0 to 4294967295; "x" is not/, /^uncaught: .*thrown in a timer/, /^uncaught: .*a rejected promise/]) {
      expect(errors.some((error) => expected.test(error)), `${expected} in ${JSON.stringify(errors)}`).toBe(true);
    }
  });

  it("step by step: the paper's Fig. 7 stream, then a random one, then values typed in", async () => {
    const page = await open('step-by-step.html', 'window.demoState?.ready === true');
    // The paper's Fig. 7: 16 elements, 6 kept; positions 0, 3 and 4 search for 2, 7 and 1 jumps.
    let state = await stepState(page);
    expectStepState(state, paperFigure7);
    expect(state.traces.map((t) => t.path.length - 1)).toEqual([2, 0, 0, 7, 1, 0]);
    expect(state.traces[0].path).toEqual([0, 15, 6]);
    expect(state.traces[3].path).toEqual([3, 14, 7, 12, 8, 11, 9, 10]);
    expect(await textOf(page, '#summary')).toContain('v = 6 kept; 10 jumps in all (bound b − v = 10)');
    expect(await textOf(page, '#trace')).toContain('i =  0: idx 0 → MAS[0] = 15 → MAS[15] = 6 → data[6] = 4  (2 jumps)');
    // the compacted row drawn in the figure shows the GPU's Jumping Jack output
    const drawn = (await textsOf(page, '#figure g.jj-cell text:first-of-type')).map(Number);
    expect(drawn).toEqual(state.jumpingJack);
    // 10 jumps: every chain drawn in full, none faint
    expect(await countOf(page, '#figure g.jump.faint, #figure g.jump.selected')).toBe(0);
    await screenshot(page, 'step-by-step-paper');
    // the jump-step slider at 1: positions still searching after one jump (0 and 3) show '?'
    await page.fill('#step', '1');
    expect(await textsOf(page, '#figure g.jj-cell text:first-of-type')).toEqual(['?', '1', '2', '?', '6', '3']);
    expect(await countOf(page, '#figure g.jump path')).toBe(3); // first jumps of 0, 3 and 4

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
    await finish(page, 'step-by-step-typed');
  });

  it('step by step: a random 64-element stream from the URL', async () => {
    const page = await open('step-by-step.html?n=64&invalid=0.7&seed=5', 'window.demoState?.ready === true');
    const state = await stepState(page);
    expect(state.values.length).toBe(64);
    expectStepState(state, state.values);
    // too many jumps to draw legibly: the longest search is drawn in full, the other chains faint
    const jumps = state.traces.map((t) => t.path.length - 1);
    const longest = jumps.indexOf(Math.max(...jumps));
    const roles = () =>
      page.evaluate(() => [...document.querySelectorAll('#figure g.jump')].map((g) => `${g.getAttribute('data-position')}:${['selected', 'faint'].filter((c) => g.classList.contains(c)).join()}`).sort());
    const expectSelected = async (position: number | undefined) => {
      const roleOf = (p: number) => (position === undefined ? '' : p === position ? 'selected' : 'faint');
      expect(await roles()).toEqual(state.traces.map((t) => `${t.position}:${roleOf(t.position)}`).sort());
    };
    await expectSelected(longest);
    expect(await textOf(page, '#figure-note')).toContain(`position ${longest}'s ${jumps[longest]} jumps (${state.traces[longest].path.join(' → ')})`);
    // clicking another compacted cell follows that one; clicking it again draws every chain alike
    const other = jumps.findIndex((j, i) => i !== longest && j > 0);
    await page.click(`#figure g.jj-cell[data-position="${other}"]`);
    await expectSelected(other);
    await page.click(`#figure g.jj-cell[data-position="${other}"]`);
    await expectSelected(undefined);
    await page.click(`#figure g.jj-cell[data-position="${longest}"]`);
    await expectSelected(longest);
    await page.mouseMove(0, 0); // off the figure, so that the screenshot shows no hover highlight
    await finish(page, 'step-by-step-random');
  });

  it('particles: drawn from the GPU-resident count, no readback in the render loop; the live count matches a CPU replay at every frame', async () => {
    const frames = 40;
    // counts=1: the page reads each frame's count after drawing it (outside the frame), for this check.
    const page = await open(`particles.html?frames=${frames}&counts=1`, 'window.demoState?.done === true');
    const state = await windowValue<{
      frame: number; liveCount: number; counts: number[]; readbacksPerFrame: number[]; algorithm: string; params: { capacity: number; emitPerFrame: number };
      timing: { source: string; ms: number }; final: { liveIds: number[]; allAlive: boolean; liveCount: number; litPixels: number };
    }>(page, 'demoState');
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
    expect(await textOf(page, '#live')).toBe(cpu.counts[frames].toLocaleString('en-US'));
    expect(await textOf(page, '#check')).toMatch(/^✓ frame 40: live counts of all 41 frames match the CPU replay/);
    // the time shown: GPU time where EXT_disjoint_timer_query_webgl2 exists, else CPU time, and the page says which
    expect(state.timing.source).toBe(expected.timerQuery ? 'gpu-timer-query' : 'cpu');
    expect(await textOf(page, '#timing-source')).toMatch(
      expected.timerQuery ? /^GPU time from EXT_disjoint_timer_query_webgl2/ : /^No EXT_disjoint_timer_query_webgl2 here: the time shown is CPU time/,
    );
    expect(state.timing.ms).toBeGreaterThan(0);
    await finish(page, 'particles');
  });

  it('particles: the same counts with horn and auto (smaller pool)', async () => {
    for (const algorithm of ['horn', 'auto']) {
      const params = { capacity: 9000, emitPerFrame: 120 };
      const page = await open(`particles.html?frames=12&counts=1&n=${params.capacity}&emit=${params.emitPerFrame}&algorithm=${algorithm}`, 'window.demoState?.done === true');
      const state = await windowValue<{ counts: number[]; readbacksPerFrame: number[]; algorithm: string; final: { liveIds: number[] } }>(page, 'demoState');
      const cpu = simulateParticles(params, 12);
      expect(state.algorithm).toBe(algorithm);
      expect(state.readbacksPerFrame).toEqual(new Array(13).fill(0));
      expect(state.counts).toEqual(cpu.counts);
      expect(state.final.liveIds).toEqual(Array.from(cpu.liveIds));
      expect(await closeAndErrors(page)).toEqual([]);
    }
  });

  it('three.js culling: drawn from the GPU-resident count, pixel-identical to CPU culling, every count checked, no readback per frame', async () => {
    const frames = 4; // frames 0..4
    const size = 256;
    interface ThreeState {
      mode: string; frame: number; done: boolean; instances: number; readbacksPerFrame: number[]; readbacksOutsideFrames: number;
      counts: number[]; pixels: string[]; glError: number; renderer: string;
    }
    // One page after the other (WebKitWebDriver has one page at a time), each read and closed.
    const run = async (query: string, name?: string) => {
      const page = await open(`three-culling.html?frames=${frames}&capture=1&size=${size}${query}`, 'window.demoState?.done === true', 110_000);
      const state = await windowValue<ThreeState>(page, 'demoState');
      if (name) await screenshot(page, name);
      const { warnings } = await page.console();
      return { state, warnings, errors: await closeAndErrors(page) };
    };
    const gpu = await run('', 'three-culling');
    const cpu = await run('&cull=cpu');
    const base = baseInstances();
    const expectedCounts = Array.from({ length: frames + 1 }, (_, f) => cullOnCpu(base, f).count);
    expect(gpu.state.mode).toBe('gpu');
    expect(cpu.state.mode).toBe('cpu');
    expect(gpu.state.instances).toBe(INSTANCE_COUNT);
    // every compaction count (read by the page after each frame was drawn) = the CPU's culling
    expect(gpu.state.counts).toEqual(expectedCounts);
    expect(cpu.state.counts).toEqual(expectedCounts);
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
    // Chromium and Firefox report WebGL errors as console warnings the page cannot see; in WebKit
    // this sees only what the page itself (three.js) logs, and glError above stands for the rest.
    for (const { warnings, errors } of [gpu, cpu]) {
      expect(warnings.filter((w) => /GL|THREE|WebGL/i.test(w))).toEqual([]);
      expect(errors).toEqual([]);
    }
  });

  it('Hi-Z culling: one compaction (frustum + pyramid) and two gathers, drawn from the GPU-resident count; pixel-identical to the CPU reference and to no culling; no readback per frame', async () => {
    const frames = 2; // frames 0..2: the camera moves every frame
    const size = 256;
    interface HizState {
      mode: string; draw: string; frame: number; done: boolean; instances: number; readbacksPerFrame: number[]; readbacksOutsideFrames: number;
      blockingPerFrame: number[]; counts: number[]; pixels: string[]; inFrustum: number[]; inexact: number[]; maxPyramid: boolean[]; glError: number; renderer: string;
    }
    // One page after the other (WebKitWebDriver has one page at a time), each read and closed.
    const run = async (query: string, name?: string) => {
      const page = await open(`hiz-culling.html?capture=1&size=${size}&${query}`, 'window.demoState?.done === true', 110_000);
      const state = await windowValue<HizState>(page, 'demoState');
      if (name) await screenshot(page, name);
      const { warnings } = await page.console();
      return { state, warnings, errors: await closeAndErrors(page) };
    };
    const gpu = await run(`frames=${frames}`, 'hiz-culling');
    const cpu = await run(`frames=${frames}&cull=cpu`);
    // Frame 0 alone: with no culling at all (the culling must not change a pixel), and drawn as an InstancedMesh.
    const none = await run('frames=0&cull=none');
    const instanced = await run('frames=0&draw=instanced');
    expect([gpu, cpu, none, instanced].map((r) => `${r.state.mode} ${r.state.draw}`)).toEqual(['gpu batched', 'cpu batched', 'none batched', 'gpu instanced']);
    expect(gpu.state.instances).toBe(HIZ_INSTANCE_COUNT);
    expect(gpu.state.renderer).toMatch(expected.renderer);
    // The GPU's count of every frame (read after it was drawn) = the CPU's test on the same pyramid
    expect(gpu.state.counts).toHaveLength(frames + 1);
    expect(gpu.state.counts).toEqual(cpu.state.counts);
    expect(instanced.state.counts).toEqual(gpu.state.counts.slice(0, 1));
    // every value the CPU computed was exact in float32 (so the GPU computed the same), and the levels read back form a MAX pyramid
    expect(cpu.state.inexact).toEqual(new Array(frames + 1).fill(0));
    expect(cpu.state.maxPyramid).toEqual(new Array(frames + 1).fill(true));
    // the frustum half of the test, recomputed here; the walls hide a good part of what is in the frustum
    const spheres = baseSpheres();
    expect(cpu.state.inFrustum).toEqual(Array.from({ length: frames + 1 }, (_, f) => inFrustumCount(spheres, f)));
    for (let f = 0; f <= frames; f++) {
      expect(gpu.state.counts[f], `frame ${f}: kept`).toBeGreaterThan(0.1 * HIZ_INSTANCE_COUNT);
      expect(gpu.state.counts[f], `frame ${f}: kept of ${cpu.state.inFrustum[f]} in the frustum`).toBeLessThan(0.5 * cpu.state.inFrustum[f]);
    }
    expect(new Set(gpu.state.counts).size, 'the kept set changes as the camera moves').toBe(frames + 1);
    // The frames: GPU = CPU culling, and frame 0 = no culling = the instanced draw, pixel for pixel; not empty
    const pixelsOf = (state: HizState, f: number) => Buffer.from(state.pixels[f], 'base64');
    const differing = (a: Buffer, b: Buffer) => {
      let count = 0;
      for (let k = 0; k < a.length; k += 4) if (a[k] !== b[k] || a[k + 1] !== b[k + 1] || a[k + 2] !== b[k + 2] || a[k + 3] !== b[k + 3]) count++;
      return count;
    };
    for (let f = 0; f <= frames; f++) {
      const a = pixelsOf(gpu.state, f);
      expect(a.length).toBe(size * size * 4);
      expect(differing(a, pixelsOf(cpu.state, f)), `frame ${f}: pixels differing from the CPU-culled reference`).toBe(0);
      let lit = 0;
      for (let k = 0; k < a.length; k += 4) if (a[k] + a[k + 1] + a[k + 2] > 60) lit++;
      expect(lit, `frame ${f}: lit pixels`).toBeGreaterThan(size * size * 0.3);
    }
    expect(differing(pixelsOf(gpu.state, 0), pixelsOf(none.state, 0)), 'frame 0: pixels differing from no culling').toBe(0);
    expect(differing(pixelsOf(gpu.state, 0), pixelsOf(instanced.state, 0)), 'frame 0: pixels differing from the InstancedMesh draw').toBe(0);
    // no readPixels/getBufferSubData while any GPU-culled frame was rendered; the CPU reference reads each pyramid level every frame
    expect(gpu.state.readbacksPerFrame).toEqual(new Array(frames + 1).fill(0));
    expect(instanced.state.readbacksPerFrame).toEqual([0]);
    expect(cpu.state.readbacksPerFrame).toEqual(new Array(frames + 1).fill(HIZ_LEVELS));
    // and no state or status query (getParameter, getError, ...: each waits for the GPU) once the first frame has compiled the programs
    expect(gpu.state.blockingPerFrame.slice(1)).toEqual(new Array(frames).fill(0));
    // ... while the counter does see the reads made outside the frames (pixels, counts)
    expect(gpu.state.readbacksOutsideFrames).toBeGreaterThanOrEqual(2 * (frames + 1));
    for (const { state, warnings, errors } of [gpu, cpu, none, instanced]) {
      expect(state.glError).toBe(0);
      expect(warnings.filter((w) => /GL|THREE|WebGL/i.test(w))).toEqual([]);
      expect(errors).toEqual([]);
    }
  });

  it('splat sort: engine.argsort orders the splats back to front every frame (= the CPU\'s stable sort of the same keys); pixel-identical to the worker\'s order; no readback per frame', async () => {
    const n = 65_536;
    const frames = 2; // frames 0..2: the camera orbits
    const size = 256;
    interface SplatState {
      mode: string; keys: string; n: number; size: number; frame: number; done: boolean; readbacksPerFrame: number[]; readbacksOutsideFrames: number;
      blockingPerFrame: number[]; captured: number; glError: number; renderer: string;
    }
    type Kind = 'pixels' | 'keys' | 'order';
    // One page after the other (WebKitWebDriver has one page at a time), each read and closed; the
    // captured frames (base64, window.splatCapture) are fetched one string at a time.
    const run = async (query: string, name?: string) => {
      const page = await open(`splat-sort.html?n=${n}&capture=1&size=${size}&${query}`, 'window.demoState?.done === true', 110_000);
      const state = await windowValue<SplatState>(page, 'demoState');
      const captured: Record<Kind, Buffer[]> = { pixels: [], keys: [], order: [] };
      for (let f = 0; f < state.captured; f++) {
        for (const kind of ['pixels', 'keys', 'order'] as const) {
          const text = await page.evaluate(({ kind, f }: { kind: Kind; f: number }) => (window as unknown as { splatCapture: Record<Kind, string[]> }).splatCapture[kind][f], { kind, f });
          captured[kind].push(Buffer.from(text, 'base64'));
        }
      }
      if (name) await screenshot(page, name);
      const { warnings } = await page.console();
      return { state, captured, warnings, errors: await closeAndErrors(page) };
    };
    const gpu = await run(`frames=${frames}`, 'splat-sort');
    const cpu = await run(`frames=${frames}&sort=cpu`);
    // Frame 0 alone: unsorted, and sorted by float32 depths (all 32 key bits) instead of 16-bit keys.
    const none = await run('frames=0&sort=none');
    const float = await run('frames=0&keys=float');
    expect([gpu, cpu, none, float].map((r) => `${r.state.mode} ${r.state.keys} ${r.state.n} ${r.state.captured}`)).toEqual([
      `gpu u16 ${n} ${frames + 1}`, `cpu u16 ${n} ${frames + 1}`, `none u16 ${n} 1`, `gpu float ${n} 1`,
    ]);
    expect(gpu.state.renderer).toMatch(expected.renderer);
    const words = (buffer: Buffer) => new Uint32Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
    /** The stable descending order of `keys` (equal keys in index order), by a comparison sort. */
    const stableDescending = (keys: ArrayLike<number>) => Array.from({ length: keys.length }, (_, i) => i).sort((a, b) => keys[b] - keys[a] || a - b);
    const points = makePoints(n);
    const differing = (a: Buffer, b: Buffer) => {
      let count = 0;
      for (let k = 0; k < a.length; k += 4) if (a[k] !== b[k] || a[k + 1] !== b[k + 1] || a[k + 2] !== b[k + 2] || a[k + 3] !== b[k + 3]) count++;
      return count;
    };
    for (let f = 0; f <= frames; f++) {
      // The keys the GPU's pass wrote, and the worker's, are the keys computed here (exact arithmetic: shared/splat-scene.ts)
      const keys = depthKeys(points, n, viewAt(f, size), 'u16');
      expect(Array.from(words(gpu.captured.keys[f])), `frame ${f}: GPU keys`).toEqual(Array.from(keys));
      expect(Array.from(words(cpu.captured.keys[f])), `frame ${f}: worker keys`).toEqual(Array.from(keys));
      expect(new Set(keys).size, `frame ${f}: distinct keys`).toBeGreaterThan(n / 4);
      // engine.argsort's order = the CPU's stable descending sort of the same keys; the worker's too
      const order = stableDescending(keys);
      expect(Array.from(words(gpu.captured.order[f])), `frame ${f}: GPU order`).toEqual(order);
      expect(Array.from(words(cpu.captured.order[f])), `frame ${f}: worker order`).toEqual(order);
      // the same order drawn: the same pixels, exactly; and a galaxy on the canvas
      const pixels = gpu.captured.pixels[f];
      expect(pixels.length).toBe(size * size * 4);
      expect(differing(pixels, cpu.captured.pixels[f]), `frame ${f}: pixels differing from the worker-sorted draw`).toBe(0);
      let lit = 0;
      for (let k = 0; k < pixels.length; k += 4) if (pixels[k] + pixels[k + 1] + pixels[k + 2] > 60) lit++;
      expect(lit, `frame ${f}: lit pixels`).toBeGreaterThan(size * size * 0.2);
    }
    expect(gpu.captured.order[0].equals(gpu.captured.order[1]), 'the order changes as the camera moves').toBe(false);
    // Unsorted, the blending comes out differently over much of the galaxy
    expect(Array.from(words(none.captured.order[0]))).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(differing(gpu.captured.pixels[0], none.captured.pixels[0]), 'frame 0: pixels differing unsorted').toBeGreaterThan(size * size * 0.05);
    // Float32 depths: the keys are the depths computed here, the order their stable descending sort,
    // and within that order the 16-bit keys never increase (the 16-bit order differs only among equal keys)
    const floatKeys = depthKeys(points, n, viewAt(0, size), 'float');
    expect(Array.from(words(float.captured.keys[0]))).toEqual(Array.from(floatKeys));
    const floatOrder = Array.from(words(float.captured.order[0]));
    expect(floatOrder).toEqual(stableDescending(new Float32Array(floatKeys.buffer)));
    const keys0 = depthKeys(points, n, viewAt(0, size), 'u16');
    expect(floatOrder.findIndex((i, k) => k > 0 && keys0[i] > keys0[floatOrder[k - 1]]), 'a 16-bit key rising along the float order').toBe(-1);
    // No readPixels/getBufferSubData while any frame was drawn (the captures above were read after each
    // frame), and no state or status query once the first GPU frame has compiled the sort's programs
    for (const run of [gpu, cpu, none, float]) expect(run.state.readbacksPerFrame).toEqual(new Array(run.state.frame + 1).fill(0));
    expect(gpu.state.blockingPerFrame.slice(1)).toEqual(new Array(frames).fill(0));
    expect(cpu.state.blockingPerFrame).toEqual(new Array(frames + 1).fill(0));
    // ... while the counter does see the reads made outside the frames (pixels, keys, order)
    expect(gpu.state.readbacksOutsideFrames).toBeGreaterThanOrEqual(3 * (frames + 1));
    for (const { state, warnings, errors } of [gpu, cpu, none, float]) {
      expect(state.glError).toBe(0);
      // Chromium may warn "GPU stall due to ReadPixels" once, of createEngine's start-up probe (its
      // synchronous reads, before any frame: the frames' readbacks are counted above)
      expect(warnings.filter((w) => /GL|WebGL/i.test(w) && !/GPU stall due to ReadPixels/.test(w))).toEqual([]);
      expect(errors).toEqual([]);
    }
  });

  it('self-tuning: tunes (in a worker where the browser gives workers WebGL2), stores the profile, takes it back on the next visit; auto exact at every size', async () => {
    const sizes = [10, 12];
    const finished = 'window.demoState?.done === true || window.demoState?.failure !== undefined';
    const page = await open(`tuning.html?sizes=${sizes.join(',')}&fresh=1`, finished, 110_000);
    // (Fields a page left undefined come back as null through WebKit's classic WebDriver.)
    const first = await windowValue<TuningState>(page, 'demoState');
    expect(first.failure ?? null).toBeNull();
    expect(first.source).toBe('tuned');
    // WebKitGTK 2.50 has OffscreenCanvas in workers but no WebGL2 there: the worker tune rejects
    // saying so, and the page tunes on its own thread.
    if (engine === 'webkit') {
      expect(first.where).toBe('page');
      expect(first.workerError).toMatch(/WebGL2/);
    } else {
      expect(first.workerError ?? null).toBeNull();
      expect(first.where).toBe('worker');
    }
    // Progress after every timed point: sizes × (3 densities + the scans), counting up to the total.
    expect(first.progress.map((p) => p.done)).toEqual(Array.from({ length: sizes.length * 4 }, (_, k) => k + 1));
    expect(new Set(first.progress.map((p) => p.total))).toEqual(new Set([sizes.length * 4]));
    expectTuningChecks(first, sizes);
    expect(await textOf(page, '#where')).toMatch(first.where === 'worker' ? /in a Web Worker/ : /on the page/);
    // Each visit's console (WebKit's capture lives in the page: a navigation starts it anew).
    expect((await page.console()).errors, 'the first visit\'s console').toEqual([]);
    // The next visit takes the stored profile back instead of tuning.
    await page.goto(new URL(`tuning.html?sizes=${sizes.join(',')}`, baseUrl).href);
    await page.waitForFunction(finished, 110_000);
    const second = await windowValue<TuningState>(page, 'demoState');
    expect(second.failure ?? null).toBeNull();
    expect(second.source).toBe('stored');
    expect(second.storedRefused ?? null).toBeNull();
    expect(second.progress).toEqual([]);
    expect(second.profile).toEqual(first.profile);
    expectTuningChecks(second, sizes);
    expect(await textOf(page, 'body')).not.toContain('✗');
    await screenshot(page, 'tuning');
    expect((await page.console()).errors, 'the second visit\'s console').toEqual([]);
    // A stored profile this engine refuses (another renderer's) is reported, and the page tunes.
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('glcompact-demo-profile')!);
      stored.profile.renderer = 'another GPU';
      localStorage.setItem('glcompact-demo-profile', JSON.stringify(stored));
    });
    await page.goto(new URL('tuning.html?sizes=10', baseUrl).href);
    await page.waitForFunction(finished, 110_000);
    const third = await windowValue<TuningState>(page, 'demoState');
    expect(third.failure ?? null).toBeNull();
    expect(third.source).toBe('tuned');
    expect(third.storedRefused).toMatch(/another GPU/);
    expect(await textOf(page, '#where')).toMatch(/stored profile was refused/);
    expectTuningChecks(third, [10]);
    // Tune again: a fresh tune, its profile shown, checked and stored.
    await page.click('#tune');
    // A new run, not a changed tuneMs: WebKit's clock ticks in whole milliseconds, so two tunes of
    // one size can take the same time (the likely cause of a CI run that waited 110 s here after
    // the third visit's tune took 994 ms).
    expect(third.runs).toBe(1);
    await page.waitForFunction(`window.demoState?.runs === 2 && (window.demoState.done === true || window.demoState.failure !== undefined)`, 110_000);
    const fourth = await windowValue<TuningState>(page, 'demoState');
    expect(fourth.failure ?? null).toBeNull();
    expect(fourth.source).toBe('tuned');
    expect(fourth.storedRefused ?? null).toBeNull();
    expect(fourth.progress.at(-1)).toMatchObject({ done: 4, total: 4 });
    expectTuningChecks(fourth, [10]);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('glcompact-demo-profile')!).profile.measured)).toBe(fourth.profile.measured);
    // Forget: the stored profile goes, and the engine is back on its built-in defaults.
    await page.click('#forget');
    expect(await page.evaluate(() => localStorage.getItem('glcompact-demo-profile'))).toBeNull();
    expect(await textOf(page, '#where')).toMatch(/forgotten/);
    expect(await closeAndErrors(page)).toEqual([]);
  });

  it('self-tuning: a bad ?sizes or ?where is shown on the page, and nothing runs', async () => {
    for (const query of ['sizes=10,x', 'sizes=30', 'where=worker']) {
      const page = await open(`tuning.html?${query}`, 'window.demoState?.failure !== undefined');
      const state = await windowValue<TuningState>(page, 'demoState');
      expect(state.failure, query).toMatch(query.startsWith('sizes') ? /\?sizes must be log2 sizes from 4 to 22/ : /\?where must be page/);
      expect(state.progress, query).toEqual([]);
      expect(await textOf(page, '#errors'), query).toContain(state.failure!);
      // The console has showError's console.error: the in-page capture's text names the message
      // (a driver's own event may name only the Error object, e.g. Puppeteer's 'JSHandle@error').
      const errors = await closeAndErrors(page);
      expect(errors.some((error) => error.includes(state.failure!)), `${query}: ${JSON.stringify(errors)}`).toBe(true);
    }
  });

  it('benchmark (?quick=1): a result for every algorithm and density, each checked; tfjs and JS peers', async () => {
    const page = await open('benchmark.html?quick=1', 'window.benchResults?.done === true || window.benchResults?.error !== undefined', 110_000);
    const results = await windowValue<{
      done: boolean; error?: string; n: number; renderer: string; tfBackend: string;
      sweep: { algorithm: string; invalidDensity: number; count: number; expectedCount: number; ms: number; verified: boolean; path: string }[];
      peers: { operation: string; implementation: string; n: number; ms: number; verified: boolean }[];
    }>(page, 'benchResults');
    expect(results.error).toBeUndefined();
    expect(results.done).toBe(true);
    expect(results.n).toBe(2 ** 14);
    expect(results.renderer).toMatch(expected.renderer);
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
    for (const peer of ['scan: tf.cumsum (tfjs WebGL)', 'scan: engine.scan (recursive-doubling)', 'scan: engine.scan (reduce-then-scan)', 'scan: JS loop (Float32Array)',
      'compact: tf.greater + tf.booleanMaskAsync (tfjs WebGL)', 'compact: engine.compact (auto)', 'compact: JS loop (Float32Array)']) {
      expect(implementations).toContain(peer);
    }
    expect(results.peers).toHaveLength(14);
    expect(results.peers.filter((p) => !p.verified)).toEqual([]);
    // the page shows it: 11 table rows with four ✓ each, a drawn chart, no ✗ anywhere
    expect(await countOf(page, '#sweep tr')).toBe(12);
    expect(await countOf(page, '#sweep .tick.ok')).toBe(44);
    expect(await textOf(page, 'body')).not.toContain('✗');
    expect(await textOf(page, '#status')).toMatch(/all checked against the CPU/);
    const chartDrawn = await page.evaluate(() => {
      const canvas = document.querySelector('#chart') as HTMLCanvasElement;
      return canvas.width > 0 && canvas.toDataURL().length > 10_000;
    });
    expect(chartDrawn).toBe(true);
    await finish(page, 'benchmark-quick');
  });
});
