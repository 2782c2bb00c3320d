// The main job (`npm start`): a headless end-to-end run through the built package. It scans a 2^20
// stream with each algorithm and compacts a 2^22 stream of uniform [0,1) values (keep x <= p, p =
// 0.2 / 0.5 / 0.8, the 2017 paper's selection benchmark) with Jumping Jack, Horn per block, Horn
// over the whole stream, the HistoPyramid, the bitmask, the block hybrid and auto; verifies every
// result against the CPU and explains what it printed.
import cliProgress from 'cli-progress';
import { createEngine } from 'glcompact';
import { createHeadlessContext, destroyHeadlessContext, headlessRenderer } from 'glcompact/node';
import { uniformFloats } from '../bench/lib/data.mjs';
import { summarize } from '../bench/lib/stats.mjs';
import { table } from '../bench/lib/summary.mjs';

const repeats = 5;
const scanAlgorithms = ['recursive-doubling', 'blelloch', 'reduce-then-scan'];
const compactions = [
  ['jumping-jack', { algorithm: 'jumping-jack' }],
  ['horn (block)', { algorithm: 'horn' }],
  ['horn (global)', { algorithm: 'horn', global: true }],
  ['histopyramid', { algorithm: 'histopyramid' }],
  ['bitmask', { algorithm: 'bitmask' }],
  ['hybrid (auto + blockSize, order any)', { algorithm: 'auto', order: 'any', blockSize: 256 }],
  ['auto', { algorithm: 'auto' }],
];
const thresholds = [0.2, 0.5, 0.8];

// Progress on stderr: each timed or verified run is one step.
const steps = scanAlgorithms.length * (repeats + 1) + thresholds.length * (compactions.length * (repeats + 1) + 1) + 2;
const bar = new cliProgress.SingleBar(
  { stream: process.stderr, format: '{bar} {percentage}% | {label}', hideCursor: true, noTTYOutput: !process.stderr.isTTY, notTTYSchedule: 5000 },
  cliProgress.Presets.shades_classic,
);
const step = (label) => (bar.increment({ label }), new Promise((resolve) => setImmediate(resolve)));

async function medianMs(label, run) {
  const times = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
    await step(label);
  }
  return summarize(times).medianMs;
}

const fmt = (ms) => ms.toFixed(ms < 10 ? 2 : 1);

const gl = createHeadlessContext();
const engine = createEngine(gl);
const renderer = headlessRenderer(gl);
// Naming the renderer's kind is for the reader, not for the engine: capabilities come from probes.
const cpuRenderer = /llvmpipe|swiftshader|lavapipe|softpipe/i.test(renderer);
console.log(`glcompact main job — renderer: ${renderer}`);
console.log(cpuRenderer
  ? '  This is a CPU renderer (no GPU in this machine): every "GPU" pass runs on its CPU cores, so the plain\n  JS loops below are expected to be faster. The point here is exactness; speed needs a real GPU.'
  : '  A hardware renderer: GPU times below are real.');
const { caps } = engine;
console.log(`  capabilities (probed by tiny GL tests): transform feedback ${caps.transformFeedback ? 'yes' : 'no'}, ` +
  `uploads ${caps.uploadPath === 'integer' ? 'as integers' : 'as float bits (headless-gl quirk)'}, ` +
  `texture limit ${caps.maxTextureSize} (context's MAX_TEXTURE_SIZE ${caps.contextMaxTextureSize}), GPU timer ${caps.timerQuery ? 'yes' : 'no (wall time is used)'}\n`);
bar.start(steps, 0, { label: 'preparing data' });

let failures = 0;
const sections = [];

// --- scans: 2^20 uint32 values, global inclusive scan ---
{
  const n = 2 ** 20;
  const data = new Uint32Array(n).map((_, i) => (i * 2654435761) >>> 24);
  const expected = new Uint32Array(n);
  const cpuMs = await medianMs('cpu prefix-sum loop', async () => {
    let sum = 0;
    for (let i = 0; i < n; i++) expected[i] = sum = (sum + data[i]) >>> 0;
  });
  const stream = engine.stream(data);
  const rows = [];
  for (const algorithm of scanAlgorithms) {
    const ms = await medianMs(`scan ${algorithm}`, async () => {
      engine.scan(stream, { algorithm }).dispose();
      await engine.finish();
    });
    const scanned = engine.scan(stream, { algorithm });
    const got = await scanned.read();
    await step(`verify scan ${algorithm}`);
    const ok = got.every((v, i) => v === expected[i]);
    if (!ok) failures++;
    rows.push({ scan: algorithm, 'median ms': fmt(ms), passes: engine.lastScanStats.passes, 'fragments/elem': (engine.lastScanStats.fragments / n).toFixed(2), result: ok ? 'exact' : 'MISMATCH' });
    scanned.dispose();
  }
  rows.push({ scan: 'JS loop', 'median ms': fmt(cpuMs), passes: '-', 'fragments/elem': '-', result: '-' });
  stream.dispose();
  sections.push(table(`Prefix sums of 2^20 uint32 values (inclusive, whole stream; median of ${repeats})`, rows));
}

// --- compaction: 2^22 uniform [0,1), keep x <= p ---
{
  const n = 2 ** 22;
  const data = uniformFloats(n, 2017);
  const stream = engine.stream(data);
  const rows = [];
  for (const p of thresholds) {
    const threshold = Math.fround(p);
    const expected = data.filter((x) => x <= threshold);
    const scratch = new Float32Array(n);
    const cpuMs = await medianMs(`cpu filter loop, p ${p}`, async () => {
      let k = 0;
      for (let i = 0; i < n; i++) if (data[i] <= threshold) scratch[k++] = data[i];
    });
    const sortedExpected = expected.slice().sort();
    for (const [label, options] of compactions) {
      const keep = { lessEqual: p };
      const ms = await medianMs(`compact ${label}, p ${p}`, async () => {
        const r = engine.compact(stream, { keep, ...options });
        await r.count();
        await engine.finish(); // the count alone waits only for the passes it depends on
        r.dispose();
      });
      const result = engine.compact(stream, { keep, ...options });
      const count = await result.count();
      const got = await result.read();
      // Jumping Jack and the block hybrid keep no order; the others do (auto runs the bitmask).
      const ordered = !(options.algorithm === 'jumping-jack' || options.blockSize !== undefined);
      const compareTo = ordered ? expected : sortedExpected;
      const values = ordered ? got : got.slice().sort();
      const ok = count === expected.length && values.every((v, i) => v === compareTo[i]);
      if (!ok) failures++;
      const s = result.stats;
      rows.push({
        p, algorithm: label, 'median ms': fmt(ms), passes: s.passes, kept: count,
        path: `${s.algorithm} · ${s.concat}${s.blockSize ? ` · ${s.scan} b${s.blockSize}` : ''}`,
        result: ok ? (ordered ? 'exact, in order' : 'exact (any order)') : 'MISMATCH',
      });
      result.dispose();
    }
    await step(`verified p ${p}`);
    rows.push({ p, algorithm: 'JS loop', 'median ms': fmt(cpuMs), passes: '-', kept: expected.length, path: '-', result: '-' });
  }
  stream.dispose();
  sections.push(table(`Compaction of 2^22 uniform [0,1) float32 values, keep x <= p (median of ${repeats})`, rows));
}
bar.stop();

engine.dispose();
destroyHeadlessContext(gl);
console.log(sections.join('\n'));
console.log(`What the columns mean:
  median ms   wall time of one call including a one-texel sync (the GPU has finished), median of ${repeats} runs
  passes      draw calls the call issued (full-screen passes, concatenation lines, transform-feedback captures)
  fragments/elem  fragments shaded by full-screen passes per element (Blelloch's work-efficient tree: ~4 for a
              whole-stream scan, against log_radix(n) rounds over every element for recursive doubling;
              reduce-then-scan ~1.2, each fragment summing up to 8-64 elements)
  kept        elements kept (read back from the GPU)
  path        the path taken: algorithm · how the blocks were joined · the scan inside blocks and the block size
                bitmask = what 'auto' runs: keep flags 32 to a word, a scan of their counts, a search per output (no blocks)
                hybrid = what 'auto' runs when given block options (Jumping Jack or Horn per block, by its kept count)
                horn-global = Horn's binary search over the whole stream (no blocks, no joining)
                histopyramid = a 1D HistoPyramid: sums of 4, 16, 64, ... flags, descended per output (no blocks)
                vertex-fetch / transform-feedback = where the joining lines' endpoints come from
  result      checked against the same operation on the CPU: exact bits; 'any order' compares sorted
`);
const verdict = failures > 0
  ? `${failures} result(s) did not match the CPU reference`
  : `All ${scanAlgorithms.length + thresholds.length * compactions.length} GPU results match the CPU exactly.` +
    (cpuRenderer ? ' Times are from a CPU renderer: for speed, see README "Performance" (NVIDIA H200 figures).' : '');
console.log(verdict);
if (failures > 0) process.exit(1);
