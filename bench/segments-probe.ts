// engine.scan(stream, { segments }) (issue 22): ms per call of the scan with segments at each size and
// group size (SEGMENTED_SCAN.groupLog2), against the whole-stream scan of the same stream in the same
// process (the engine's default; no segments), uint32 values with a segment start about every 256th
// element (the family sweep's data). Every result is checked against the CPU once per size and group size.
// Usage: node bench/build-probe.mjs segments-probe && bash scripts/with-display.sh node bench/tmp/segments-probe.mjs
//          [--sizes 16,20,24] [--groups 2,3,4] [--repeats 5] [--batch 3] [--warmup-ms 0] [--out DIR]
import { parseArgs } from 'node:util';
import { SEGMENTED_SCAN } from '../src/scan/segmented-scan.js';
import { perCall, probeEngine, writeProbeJson } from './probe-timing.js';

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '16,20,24' },
    groups: { type: 'string', default: String(SEGMENTED_SCAN.groupLog2) },
    repeats: { type: 'string', default: '5' },
    batch: { type: 'string', default: '3' },
    'warmup-ms': { type: 'string', default: '0' },
    out: { type: 'string' },
  },
});

function refuse(message: string): never {
  console.error(`segments-probe: ${message}`);
  process.exit(2);
}
function integers(name: string, text: string, ok: (v: number) => boolean): number[] {
  const list = text.split(',').map((t) => (t.trim() === '' ? NaN : Number(t)));
  if (list.length === 0 || !list.every((v) => Number.isInteger(v) && ok(v))) refuse(`--${name}: got "${text}"`);
  return list;
}
const sizes = integers('sizes', options.sizes, (v) => v >= 1 && v <= 24);
const groups = integers('groups', options.groups, (v) => v >= 1 && v <= 6);
const [repeats] = integers('repeats', options.repeats, (v) => v >= 1);
const [batch] = integers('batch', options.batch, (v) => v >= 1);
const [warmupMs] = integers('warmup-ms', options['warmup-ms'], (v) => v >= 0);

const { engine, renderer } = probeEngine();
console.log(`renderer: ${renderer}; batches of ${batch}, median of ${repeats}${warmupMs > 0 ? `, after ${warmupMs} ms of calls` : ''}`);
const shipped = SEGMENTED_SCAN.groupLog2;
const rows: Array<{ what: string; log2n: number; groupLog2?: number; passes: number; ms: number }> = [];
for (const log2n of sizes) {
  const n = 2 ** log2n;
  // The family sweep's scan data: bytes, and a start with probability 1/256 (a hash, so runs repeat).
  const values = Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 1, 2654435761) >>> 24);
  const flags = Uint32Array.from({ length: n }, (_, i) => ((Math.imul(i, 2246822519) >>> 24) === 0 ? 1 : 0));
  const expected = new Uint32Array(n);
  for (let i = 0, sum = 0; i < n; i++) {
    if (i === 0 || flags[i] !== 0) sum = 0;
    sum = (sum + values[i]!) >>> 0;
    expected[i] = sum;
  }
  const stream = engine.stream(values);
  const segments = engine.stream(flags);
  const whole = await perCall(engine, () => engine.scan(stream).dispose(), { repeats, batch, warmupMs });
  rows.push({ what: 'scan (whole stream)', log2n, passes: engine.lastScanStats!.passes, ms: whole });
  console.log(`2^${log2n} scan, whole stream (default):            ${whole.toFixed(2)} ms (${engine.lastScanStats!.passes} passes)`);
  for (const groupLog2 of groups) {
    SEGMENTED_SCAN.groupLog2 = groupLog2;
    const check = engine.scan(stream, { segments });
    const got = await check.read();
    check.dispose();
    const bad = got.findIndex((v, i) => v !== expected[i]);
    if (bad >= 0) throw new Error(`2^${log2n}, groups of 2^${groupLog2}: element ${bad} is ${got[bad]}, the CPU's ${expected[bad]}`);
    const ms = await perCall(engine, () => engine.scan(stream, { segments }).dispose(), { repeats, batch, warmupMs });
    const passes = engine.lastScanStats!.passes;
    rows.push({ what: 'scan with segments', log2n, groupLog2, passes, ms });
    console.log(`2^${log2n} scan with segments, groups of 2^${groupLog2}${groupLog2 === shipped ? ' (shipped)' : ''}: ${ms.toFixed(2)} ms (${passes} passes; checked)`);
  }
  SEGMENTED_SCAN.groupLog2 = shipped;
  stream.dispose();
  segments.dispose();
}
if (options.out) writeProbeJson(options.out, 'segments-probe', { renderer, batch, repeats, warmupMs, rows });
engine.dispose();
