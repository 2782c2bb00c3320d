// The main job (`npm start`): a headless end-to-end run through the built package. It scans a 2^20
// stream with both algorithms and compacts a 2^22 stream of uniform [0,1) values (keep x <= p, p =
// 0.2 / 0.5 / 0.8, the 2017 paper's selection benchmark) with Jumping Jack, Horn per block and
// Horn over the whole stream; verifies every result against the CPU and prints what each cost.
import { createEngine } from 'glcompact';
import { createHeadlessContext, destroyHeadlessContext, headlessRenderer } from 'glcompact/node';
import { uniformFloats } from '../bench/lib/data.mjs';

const repeats = 5;

async function median(run) {
  const times = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function table(rows) {
  const keys = Object.keys(rows[0]);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join('  ');
  console.log(line(keys));
  for (const row of rows) console.log(line(keys.map((k) => row[k])));
  console.log();
}

const gl = createHeadlessContext();
const engine = createEngine(gl);
console.log(`renderer: ${headlessRenderer(gl)} (headless-gl); caps: ${JSON.stringify(engine.caps)}\n`);
let failures = 0;

// --- scans: 2^20 uint32 values, global inclusive scan ---
{
  const n = 2 ** 20;
  const data = new Uint32Array(n).map((_, i) => (i * 2654435761) >>> 24);
  const expected = new Uint32Array(n);
  let sum = 0;
  const cpuMs = await median(async () => {
    sum = 0;
    for (let i = 0; i < n; i++) expected[i] = sum = (sum + data[i]) >>> 0;
  });
  const stream = engine.stream(data);
  const rows = [];
  for (const algorithm of ['recursive-doubling', 'blelloch']) {
    const ms = await median(async () => {
      engine.scan(stream, { algorithm }).dispose();
      await engine.finish();
    });
    const scanned = engine.scan(stream, { algorithm });
    const got = await scanned.read();
    const ok = got.every((v, i) => v === expected[i]);
    if (!ok) failures++;
    rows.push({ scan: algorithm, n, 'median ms': ms.toFixed(1), passes: engine.lastScanStats.passes, fragments: engine.lastScanStats.fragments, verified: ok ? 'exact' : 'MISMATCH' });
    scanned.dispose();
  }
  rows.push({ scan: 'cpu loop', n, 'median ms': cpuMs.toFixed(1), passes: '-', fragments: '-', verified: '-' });
  stream.dispose();
  console.log(`prefix sums of 2^20 uint32 (median of ${repeats}, wall time incl. a 1-texel sync)`);
  table(rows);
}

// --- compaction: 2^22 uniform [0,1), keep x <= p ---
{
  const n = 2 ** 22;
  const data = uniformFloats(n, 2017);
  const stream = engine.stream(data);
  const rows = [];
  for (const p of [0.2, 0.5, 0.8]) {
    const threshold = Math.fround(p);
    const expected = data.filter((x) => x <= threshold);
    const scratch = new Float32Array(n);
    const cpuMs = await median(async () => {
      let k = 0;
      for (let i = 0; i < n; i++) if (data[i] <= threshold) scratch[k++] = data[i];
    });
    const sortedExpected = expected.slice().sort();
    for (const [label, options] of [
      ['jumping-jack', { algorithm: 'jumping-jack' }],
      ['horn (block)', { algorithm: 'horn' }],
      ['horn (global)', { algorithm: 'horn', global: true }],
      ['auto (hybrid)', { algorithm: 'auto' }],
    ]) {
      const keep = { lessEqual: p };
      const ms = await median(async () => {
        const r = engine.compact(stream, { keep, ...options });
        await r.count();
        await engine.finish(); // the count alone waits only for the passes it depends on
        r.dispose();
      });
      const result = engine.compact(stream, { keep, ...options });
      const count = await result.count();
      const got = await result.read();
      const ordered = options.algorithm === 'horn'; // jumping-jack and auto keep no order
      const compareTo = ordered ? expected : sortedExpected;
      const values = ordered ? got : got.slice().sort();
      const ok = count === expected.length && values.every((v, i) => v === compareTo[i]);
      if (!ok) failures++;
      const s = result.stats;
      rows.push({ p, algorithm: label, 'median ms': ms.toFixed(1), passes: s.passes, fragments: s.fragments, count, path: `${s.algorithm}/${s.concat}/${s.scan}${s.blockSize ? `/b${s.blockSize}` : ''}`, verified: ok ? (ordered ? 'exact, in order' : 'exact multiset') : 'MISMATCH' });
      result.dispose();
    }
    rows.push({ p, algorithm: 'cpu filter loop', 'median ms': cpuMs.toFixed(1), passes: '-', fragments: '-', count: expected.length, path: '-', verified: '-' });
  }
  stream.dispose();
  console.log(`compaction of 2^22 uniform [0,1) float32, keep x <= p (median of ${repeats}, wall time incl. count readback + finish)`);
  table(rows);
}

engine.dispose();
destroyHeadlessContext(gl);
if (failures > 0) {
  console.error(`${failures} result(s) did not match the CPU reference`);
  process.exit(1);
}
console.log('all results match the CPU reference');
