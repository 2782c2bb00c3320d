// "Benchmark": an invalid-density sweep (paper Fig. 11) for bitmask, jumping-jack, horn and auto, charted
// with Chart.js, then TensorFlow.js (WebGL backend) and a plain JS loop on the same data.
// Everything is timed with performance.now() around a call and the await that makes its result
// ready, median of the timed runs after one untimed warm-up run (shader compiles, allocations).
// Every result is read back and checked against the CPU; window.benchResults holds it all.
//
// URL: ?quick=1 (2^14 elements: for the page test), ?n=1048576, ?repeats=3,
//      ?peers=0 (skip the TensorFlow.js section).
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-webgl';
import { CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Title, Tooltip } from 'chart.js';
import type { CompactResult, Engine, Stream } from 'glcompact';
import { BENCH_SEED, densities, keptCount, uniformValues } from './shared/bench-data.js';
import { element, engineOn, showError, yieldToBrowser } from './shared/page.js';
import { numberParam, seededRandom } from './shared/random.js';

Chart.register(CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Title, Tooltip);

// 'auto' runs here with the block size given and order: 'any', i.e. as the paper's per-block hybrid; 'bitmask' (what
// 'auto' runs without block options) has no blocks.
type Algorithm = 'jumping-jack' | 'horn' | 'bitmask' | 'auto';
const algorithms: Algorithm[] = ['jumping-jack', 'horn', 'bitmask', 'auto'];
const blockOption = (algorithm: Algorithm) => (algorithm === 'bitmask' ? {} : algorithm === 'auto' ? { blockSize: BLOCK_SIZE, order: 'any' as const } : { blockSize: BLOCK_SIZE });
const BLOCK_SIZE = 256;
/** The design target for 'auto': within 10 % of the faster of Jumping Jack and Horn at every density. */
const AUTO_TOLERANCE = 0.1;

interface SweepPoint {
  algorithm: Algorithm;
  invalidDensity: number;
  n: number;
  expectedCount: number;
  count: number;
  ms: number;
  /** Every timed run (ms), for medians and spreads in bench/browser.mjs's JSON. */
  runsMs: number[];
  verified: boolean;
  /** The path taken ('hybrid' for auto) and what it cost, from result.stats. */
  path: string;
  passes: number;
  drawCalls: number;
  fragments: number;
}

interface PeerResult {
  operation: 'scan' | 'compact';
  implementation: string;
  n: number;
  ms: number;
  runsMs: number[];
  verified: boolean;
  /** What the timing includes. */
  until: string;
}

interface BenchResults {
  done: boolean;
  quick: boolean;
  n: number;
  repeats: number;
  blockSize: number;
  seed: number;
  renderer: string;
  timerQuery: boolean;
  tfBackend?: string;
  tfRenderer?: string;
  sweep: SweepPoint[];
  peers: PeerResult[];
  error?: string;
}

declare global {
  interface Window {
    benchResults?: BenchResults;
  }
}

const params = new URLSearchParams(location.search);
const quick = params.get('quick') === '1';
const sizeSelect = element<HTMLSelectElement>('size');
const repeatsInput = element<HTMLInputElement>('repeats');
sizeSelect.value = String(numberParam(params, 'n', quick ? 2 ** 14 : 2 ** 20));
repeatsInput.value = String(numberParam(params, 'repeats', 3));
const runPeers = params.get('peers') !== '0';

const canvas = document.createElement('canvas');
const { engine } = engineOn(canvas); // the engine's context; nothing is drawn on it
element('renderer').textContent =
  `glcompact renderer: ${engine.caps.renderer} — timer queries ${engine.caps.timerQuery ? 'available' : 'not available'}, ` +
  `transform feedback ${engine.caps.transformFeedback ? 'yes' : 'no'}, texture limit ${engine.caps.maxTextureSize} (MAX_TEXTURE_SIZE ${engine.caps.contextMaxTextureSize}).`;
element('method').textContent =
  `Wall-clock ms, median of the timed runs after one warm-up: from engine.compact() until the count is on the CPU (await result.count(), one texel) and the GPU has finished (await engine.finish()). ` +
  `Block size ${BLOCK_SIZE}. On a CPU renderer (SwiftShader, llvmpipe) these times rank algorithms only roughly.`;

let chart: Chart | undefined;
let running = false;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 0.1 ? ms.toFixed(2) : '< 0.1');

/** Runs `once` (1 + repeats) times; returns the median time of the timed runs and the last result. */
async function timed<T>(repeats: number, once: () => Promise<T>, release: (value: T) => void): Promise<{ ms: number; runsMs: number[]; value: T }> {
  release(await once()); // warm-up
  const times: number[] = [];
  let value!: T;
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    value = await once();
    times.push(performance.now() - start);
    if (r < repeats - 1) release(value);
    await yieldToBrowser();
  }
  return { ms: median(times), runsMs: times, value };
}

function sameOrder(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function sameMultiset(a: Float32Array, b: Float32Array): boolean {
  return a.length === b.length && sameOrder(Float32Array.from(a).sort(), Float32Array.from(b).sort());
}

function cpuFilter(values: Float32Array, threshold: number): Float32Array {
  const out = new Float32Array(values.length);
  let k = 0;
  for (let i = 0; i < values.length; i++) if (values[i] > threshold) out[k++] = values[i];
  return out.subarray(0, k);
}

function setStatus(text: string, progress?: number): void {
  element('status').textContent = text;
  if (progress !== undefined) element<HTMLProgressElement>('progress').value = progress;
}

// --- the sweep ---

async function sweep(engine: Engine, values: Float32Array, repeats: number, results: BenchResults, steps: { done: number; total: number }): Promise<void> {
  const stream = engine.stream(values);
  try {
    // one untimed compaction per algorithm first, so the first point is not the one that pays for
    // the renderer's first use of the big textures and programs
    for (const algorithm of algorithms) {
      const r = engine.compact(stream, { keep: { greaterThan: 0.5 }, algorithm, ...blockOption(algorithm) });
      await r.count();
      r.dispose();
    }
    for (const d of densities) {
      const threshold = Math.fround(d);
      const expected = cpuFilter(values, threshold);
      for (const algorithm of algorithms) {
        setStatus(`${algorithm} at ${Math.round(d * 100)} % invalid…`, steps.done / steps.total);
        const { ms, runsMs, value: result } = await timed<CompactResult>(
          repeats,
          async () => {
            const r = engine.compact(stream, { keep: { greaterThan: d }, algorithm, ...blockOption(algorithm) });
            await r.count();
            await engine.finish(); // count() waits only for the passes the count needs
            return r;
          },
          (r) => r.dispose(),
        );
        const count = await result.count();
        const got = (await result.read()) as Float32Array;
        const verified = count === expected.length && (algorithm === 'horn' || algorithm === 'bitmask' ? sameOrder(got, expected) : sameMultiset(got, expected));
        results.sweep.push({
          algorithm, invalidDensity: d, n: values.length, expectedCount: keptCount(values, d), count, ms, runsMs, verified,
          path: result.stats.algorithm, passes: result.stats.passes, drawCalls: result.stats.drawCalls, fragments: result.stats.fragments,
        });
        result.dispose();
        steps.done += 1;
        renderSweep(results);
        await yieldToBrowser();
      }
    }
  } finally {
    stream.dispose();
  }
}

const colors: Record<Algorithm, string> = { 'jumping-jack': '#d9480f', horn: '#1c7ed6', bitmask: '#7048e8', auto: '#2b8a3e' };

function renderSweep(results: BenchResults): void {
  const labels = densities.map((d) => `${Math.round(d * 100)} %`);
  const series = algorithms.map((algorithm) => ({
    label: algorithm,
    data: densities.map((d) => results.sweep.find((p) => p.algorithm === algorithm && p.invalidDensity === d)?.ms ?? null),
    borderColor: colors[algorithm],
    backgroundColor: colors[algorithm],
    borderWidth: 2,
    pointRadius: 3,
    tension: 0,
    spanGaps: false,
  }));
  if (!chart) {
    chart = new Chart(element<HTMLCanvasElement>('chart'), {
      type: 'line',
      data: { labels, datasets: series },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: {
          x: { title: { display: true, text: 'invalid density (share of elements not kept)' } },
          y: { title: { display: true, text: 'ms (median)' }, beginAtZero: true },
        },
        plugins: {
          title: { display: true, text: `${results.n.toLocaleString('en-US')} float32 elements, block size ${BLOCK_SIZE} — ${results.renderer}` },
          legend: { position: 'bottom' },
        },
      },
    });
  } else {
    chart.data.datasets = series;
    chart.options.plugins!.title!.text = `${results.n.toLocaleString('en-US')} float32 elements, block size ${BLOCK_SIZE} — ${results.renderer}`;
    chart.update();
  }

  const rows = densities.map((d) => {
    const cells = algorithms.map((algorithm) => {
      const p = results.sweep.find((q) => q.algorithm === algorithm && q.invalidDensity === d);
      if (!p) return '<td class="ms muted">…</td>';
      const tick = `<span class="tick ${p.verified ? 'ok' : 'bad'}">${p.verified ? '✓' : '✗'}</span>`;
      return `<td class="ms" title="${p.path}: ${p.passes} passes, ${p.drawCalls} draw calls, ${p.fragments.toLocaleString('en-US')} fragments">${fmt(p.ms)}${tick}</td>`;
    });
    const jj = results.sweep.find((q) => q.algorithm === 'jumping-jack' && q.invalidDensity === d);
    const horn = results.sweep.find((q) => q.algorithm === 'horn' && q.invalidDensity === d);
    const auto = results.sweep.find((q) => q.algorithm === 'auto' && q.invalidDensity === d);
    const ratio = jj && horn ? (jj.ms / horn.ms).toFixed(2) : '';
    // auto's time over the faster of Jumping Jack and Horn (bench/lib/analyze.mjs autoCheck): target ≤ 1 + AUTO_TOLERANCE
    const autoOverBest = jj && horn && auto ? auto.ms / Math.min(jj.ms, horn.ms) : undefined;
    const best = autoOverBest === undefined ? '<td></td>'
      : `<td class="${autoOverBest > 1 + AUTO_TOLERANCE ? 'bad' : ''}" title="auto ${fmt(auto!.ms)} ms ÷ ${jj!.ms <= horn!.ms ? 'jumping-jack' : 'horn'} ${fmt(Math.min(jj!.ms, horn!.ms))} ms">${autoOverBest.toFixed(2)}</td>`;
    const kept = keptFor(d, results);
    return `<tr><td>${Math.round(d * 100)} %</td><td>${kept}</td>${cells.join('')}<td>${ratio}</td>${best}</tr>`;
  });
  element('sweep').innerHTML =
    '<tr><th>invalid</th><th>kept</th>' + algorithms.map((a) => `<th>${a} ms</th>`).join('') +
    '<th>jumping-jack / horn</th><th>auto / faster</th></tr>' + rows.join('');
}

function keptFor(d: number, results: BenchResults): string {
  const p = results.sweep.find((q) => q.invalidDensity === d);
  return p ? p.expectedCount.toLocaleString('en-US') : '';
}

// --- peers: TensorFlow.js and a plain JS loop ---

async function peers(engine: Engine, sizes: number[], repeats: number, results: BenchResults, steps: { done: number; total: number }): Promise<void> {
  for (const n of sizes) {
    // scan: 0/1 values, so float32 sums stay exact (≤ 2^24) for every implementation
    const random = seededRandom(BENCH_SEED + n);
    const ones = new Float32Array(n);
    for (let i = 0; i < n; i++) ones[i] = random() < 0.5 ? 1 : 0;
    const expectedScan = new Float32Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) expectedScan[i] = sum += ones[i];

    const add = (operation: PeerResult['operation'], implementation: string, timing: { ms: number; runsMs: number[] }, verified: boolean, until: string) => {
      results.peers.push({ operation, implementation, n, ms: timing.ms, runsMs: timing.runsMs, verified, until });
      steps.done += 1;
      setStatus(`${operation} at ${n.toLocaleString('en-US')}: ${implementation}…`, steps.done / steps.total);
      renderPeers(results);
    };

    setStatus(`scan at ${n.toLocaleString('en-US')}…`);
    {
      const stream = engine.stream(ones);
      for (const algorithm of ['recursive-doubling', 'blelloch', 'reduce-then-scan'] as const) {
        const onGpu = await timed<Stream>(repeats, async () => {
          const s = engine.scan(stream, { algorithm });
          await engine.finish();
          return s;
        }, (s) => s.dispose());
        const onGpuOk = sameOrder((await onGpu.value.read()) as Float32Array, expectedScan);
        onGpu.value.dispose();
        add('scan', `engine.scan (${algorithm})`, onGpu, onGpuOk, 'on the GPU (engine.finish)');
        const readBack = await timed<Float32Array>(repeats, async () => {
          const s = engine.scan(stream, { algorithm });
          const values = (await s.read()) as Float32Array;
          s.dispose();
          return values;
        }, () => {});
        add('scan', `engine.scan (${algorithm})`, readBack, sameOrder(readBack.value, expectedScan), 'read back to the CPU');
        await yieldToBrowser();
      }
      stream.dispose();
    }
    {
      const x = tf.tensor1d(ones, 'float32');
      const r = await timed<Float32Array>(repeats, async () => {
        const y = tf.cumsum(x);
        const values = (await y.data()) as Float32Array;
        y.dispose();
        return values;
      }, () => {});
      x.dispose();
      add('scan', 'tf.cumsum (tfjs WebGL)', r, sameOrder(r.value, expectedScan), 'read back to the CPU (tensor.data)');
    }
    {
      const out = new Float32Array(n);
      const r = await timed<Float32Array>(repeats, async () => {
        let s = 0;
        for (let i = 0; i < n; i++) out[i] = s += ones[i];
        return out;
      }, () => {});
      add('scan', 'JS loop (Float32Array)', r, sameOrder(r.value, expectedScan), 'on the CPU');
    }

    // compaction at 50 % invalid: keep values > 0.5
    const values = uniformValues(n, BENCH_SEED + 1);
    const expected = cpuFilter(values, 0.5);
    {
      const stream = engine.stream(values);
      for (const algorithm of ['auto', 'horn'] as const) {
        const onGpu = await timed<CompactResult>(repeats, async () => {
          const c = engine.compact(stream, { keep: { greaterThan: 0.5 }, algorithm });
          await c.count();
          await engine.finish();
          return c;
        }, (c) => c.dispose());
        const got = (await onGpu.value.read()) as Float32Array;
        onGpu.value.dispose();
        add('compact', `engine.compact (${algorithm})`, onGpu, algorithm === 'horn' ? sameOrder(got, expected) : sameMultiset(got, expected), 'on the GPU (count + engine.finish)');
        const readBack = await timed<Float32Array>(repeats, async () => {
          const c = engine.compact(stream, { keep: { greaterThan: 0.5 }, algorithm });
          const v = (await c.read()) as Float32Array;
          c.dispose();
          return v;
        }, () => {});
        add('compact', `engine.compact (${algorithm})`, readBack, algorithm === 'horn' ? sameOrder(readBack.value, expected) : sameMultiset(readBack.value, expected), 'read back to the CPU');
        await yieldToBrowser();
      }
      stream.dispose();
    }
    {
      const x = tf.tensor1d(values, 'float32');
      const r = await timed<Float32Array>(repeats, async () => {
        const kept = tf.tidy(() => tf.greater(x, tf.scalar(0.5)));
        const compacted = await tf.booleanMaskAsync(x, kept);
        const v = (await compacted.data()) as Float32Array;
        kept.dispose();
        compacted.dispose();
        return v;
      }, () => {});
      x.dispose();
      add('compact', 'tf.greater + tf.booleanMaskAsync (tfjs WebGL)', r, sameOrder(r.value, expected), 'read back to the CPU (tensor.data)');
    }
    {
      const out = new Float32Array(n);
      const r = await timed<Float32Array>(repeats, async () => {
        let k = 0;
        for (let i = 0; i < n; i++) if (values[i] > 0.5) out[k++] = values[i];
        return out.subarray(0, k);
      }, () => {});
      add('compact', 'JS loop (Float32Array)', r, sameOrder(r.value, expected), 'on the CPU');
    }
  }
}

function renderPeers(results: BenchResults): void {
  const byOp = (op: string, n: number) => results.peers.filter((p) => p.operation === op && p.n === n);
  const rows: string[] = [];
  for (const n of [...new Set(results.peers.map((p) => p.n))]) {
    for (const op of ['scan', 'compact']) {
      const list = byOp(op, n);
      const tfRow = list.find((p) => p.implementation.startsWith('tf.'));
      for (const p of list) {
        // only rows timed to the same point as tfjs (values on the CPU) are compared with it
        const comparable = p.until.startsWith('read back') || p.until === 'on the CPU';
        const vsTf = tfRow && p !== tfRow && comparable ? (p.ms > 0 ? `${(tfRow.ms / p.ms).toFixed(1)}×` : '> 100×') : '';
        rows.push(
          `<tr><td class="left">${op === 'scan' ? 'prefix sum' : 'compaction, 50 % invalid'}</td><td>${n.toLocaleString('en-US')}</td>` +
            `<td class="left mono">${p.implementation}</td><td class="left">${p.until}</td><td class="ms">${fmt(p.ms)}</td>` +
            `<td>${vsTf}</td><td class="${p.verified ? 'ok' : 'bad'}">${p.verified ? '✓' : '✗'}</td></tr>`,
        );
      }
    }
  }
  element('peers').innerHTML =
    '<tr><th class="left">operation</th><th>elements</th><th class="left">implementation</th><th class="left">timed until the result is</th>' +
    '<th>ms (median)</th><th>tfjs time / this</th><th>checked</th></tr>' + rows.join('');
}

// --- run ---

async function setUpTensorFlow(results: BenchResults): Promise<void> {
  if (!(await tf.setBackend('webgl'))) throw new Error('TensorFlow.js: the WebGL backend did not initialise');
  await tf.ready();
  results.tfBackend = tf.getBackend();
  const backend = tf.backend() as unknown as { gpgpu?: { gl?: WebGL2RenderingContext } };
  const tfgl = backend.gpgpu?.gl;
  if (tfgl) {
    const info = tfgl.getExtension('WEBGL_debug_renderer_info');
    results.tfRenderer = String(info ? tfgl.getParameter(info.UNMASKED_RENDERER_WEBGL) : tfgl.getParameter(tfgl.RENDERER));
  }
}

async function run(): Promise<void> {
  if (running) return;
  running = true;
  element<HTMLButtonElement>('run').disabled = true;
  const n = Number(sizeSelect.value);
  const repeats = Math.max(1, Math.round(Number(repeatsInput.value) || 1));
  const peerSizes = !runPeers ? [] : quick ? [n] : n >= 2 ** 20 ? [2 ** 20, 2 ** 22] : [n];
  const results: BenchResults = {
    done: false, quick, n, repeats, blockSize: BLOCK_SIZE, seed: BENCH_SEED,
    renderer: engine.caps.renderer, timerQuery: engine.caps.timerQuery, sweep: [], peers: [],
  };
  window.benchResults = results;
  results.sweep.length = 0;
  element('peers').innerHTML = '';
  const steps = { done: 0, total: densities.length * algorithms.length + peerSizes.length * 14 };
  try {
    setStatus('making data…', 0);
    await yieldToBrowser();
    await sweep(engine, uniformValues(n), repeats, results, steps);
    if (peerSizes.length > 0) {
      await setUpTensorFlow(results);
      element('peers-note').textContent =
        `TensorFlow.js ${tf.version_core} backend '${results.tfBackend}' (its own WebGL context${results.tfRenderer ? `: ${results.tfRenderer}` : ''}). ` +
        'Rows say when each timing stops: compare rows that stop at the same place. tf.booleanMaskAsync reads the mask back to the CPU and gathers on the GPU.';
      await peers(engine, peerSizes, repeats, results, steps);
    } else {
      element('peers-note').textContent = 'Skipped (?peers=0).';
    }
    results.done = true;
    const failed = [...results.sweep, ...results.peers].filter((p) => !p.verified).length;
    setStatus(`done: ${results.sweep.length} sweep points, ${results.peers.length} peer timings, ${failed === 0 ? 'all checked against the CPU' : `${failed} FAILED the CPU check`}`, 1);
    document.body.dataset.done = 'true';
  } catch (error) {
    results.error = String(error);
    setStatus(`failed: ${error}`);
    showError(error);
  } finally {
    running = false;
    element<HTMLButtonElement>('run').disabled = false;
  }
}

element('run').addEventListener('click', () => void run());
await run();
