// Where the bitmask compaction writes its output's padding (the texels past the kept count), timed
// both ways on this context: by its output pass, which covers every row and writes 0 past the count
// (the built-in default), or by a pass of its own over the rows past the count, the output pass then
// covering the kept rows only (BITMASK_SHAPE.paddingInOutput; TuningProfile.bitmaskPadding, which
// engine.tune() chooses per size class). The HistoPyramid (a padding pass of its own, always) is timed
// beside them as the order-keeping path closest to the bitmask on the CPU renderers. Per size and
// kept fraction: ms per call in batches of back-to-back calls (median of --repeats), the three series
// by turns in each round; then each pass's time in one call of each bitmask form (every draw fenced).
// Every result's count is checked against the CPU's.
// Usage: node bench/build-probe.mjs padding-probe, then
//   bash scripts/with-display.sh node bench/tmp/padding-probe.mjs [--sizes 14,16,18,20] [--densities 0.05,0.25,0.5,0.95]
//     [--repeats 7] [--batch 8] [--json FILE]
// or on the GPU server (bench/README.md): GPU_BACKEND=egl bash .gpu/device.sh padding-probe.mjs --json $OUT/padding-probe.json
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BITMASK_SHAPE } from '../src/compact/bitmask.js';
import { passTimes, perCall, probeEngine, sourceOfBuild } from './probe-timing.js';

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '14,16,18,20' },
    densities: { type: 'string', default: '0.05,0.25,0.5,0.95' },
    repeats: { type: 'string', default: '7' },
    batch: { type: 'string', default: '8' },
    json: { type: 'string' },
  },
});
const sizes = options.sizes.split(',').map(Number);
const densities = options.densities.split(',').map(Number);
const repeats = Number(options.repeats);
const batch = Number(options.batch);
if (!sizes.every((s) => Number.isInteger(s) && s >= 4 && s <= 24) || !densities.every((d) => d >= 0 && d <= 1) || !(repeats >= 1) || !(batch >= 1)) {
  console.error('usage: padding-probe [--sizes 14,16,18,20 (log2, 4..24)] [--densities 0.05,0.25,0.5,0.95] [--repeats 7] [--batch 8] [--json FILE]');
  process.exit(2);
}

const { engine, renderer } = probeEngine();
console.log(`renderer: ${renderer}; draw buffers: ${engine.caps.drawBuffers}; batches of ${batch}, median of ${repeats}`);
const series = [
  { name: 'bitmask, padding by the output pass', algorithm: 'bitmask', paddingInOutput: true },
  { name: 'bitmask, padding in its own pass', algorithm: 'bitmask', paddingInOutput: false },
  { name: 'histopyramid', algorithm: 'histopyramid', paddingInOutput: true },
] as const;
const defaults = { ...BITMASK_SHAPE };
const rows: Array<{ log2n: number; density: number; kept: number; ms: Record<string, number>; passesMs: Record<string, Record<string, number>> }> = [];
for (const log2n of sizes) {
  const n = 2 ** log2n;
  // Values spread evenly over 0..999,999 (as tune()'s data), in an order shuffled by an odd
  // multiplier (a bijection modulo a power of two), so `lessEqual` picks any kept fraction.
  const data = Uint32Array.from({ length: n }, (_, i) => Math.floor((((Math.imul(i, 2654435761) >>> 0) % n) / n) * 1_000_000));
  const stream = engine.stream(data);
  try {
    for (const density of densities) {
      const lessEqual = Math.round(density * 1_000_000) - 1;
      const kept = data.reduce((k, v) => k + (v <= lessEqual ? 1 : 0), 0);
      const runs = series.map((s) => () => {
        BITMASK_SHAPE.paddingInOutput = s.paddingInOutput;
        engine.compact(stream, { keep: { lessEqual }, algorithm: s.algorithm }).dispose();
      });
      // The count, once per series, against the CPU's.
      for (const s of series) {
        BITMASK_SHAPE.paddingInOutput = s.paddingInOutput;
        const result = engine.compact(stream, { keep: { lessEqual }, algorithm: s.algorithm });
        const count = await result.count();
        result.dispose();
        if (count !== kept) throw new Error(`2^${log2n} at ${density}: ${s.name} kept ${count}, the CPU ${kept}`);
      }
      const times: number[][] = series.map(() => []);
      for (let round = 0; round < repeats; round++) {
        for (let k = 0; k < series.length; k++) times[k]!.push(await perCall(engine, runs[k]!, { repeats: 1, batch }));
      }
      const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
      const ms = Object.fromEntries(series.map((s, k) => [s.name, median(times[k]!)]));
      const passesMs = Object.fromEntries(series.slice(0, 2).map((s, k) => [s.name, Object.fromEntries(passTimes(engine, runs[k]!))]));
      rows.push({ log2n, density, kept, ms, passesMs });
      const [output, own, hp] = series.map((s) => ms[s.name]!);
      console.log(`2^${log2n} ${(density * 100).toFixed(0).padStart(3)} %: padding by the output pass ${output.toFixed(3)} ms, own pass ${own.toFixed(3)} (x${(output / own).toFixed(2)}), histopyramid ${hp.toFixed(3)}`);
    }
  } finally {
    Object.assign(BITMASK_SHAPE, defaults);
    stream.dispose();
  }
}
if (options.json) {
  writeFileSync(options.json, `${JSON.stringify({ renderer, drawBuffers: engine.caps.drawBuffers, batch, repeats, timing: 'per call in batches of back-to-back calls up to engine.finish(), median of the rounds', source: sourceOfBuild, date: new Date().toISOString(), rows }, null, 1)}\n`);
  console.log(`wrote ${options.json}`);
}
engine.dispose();
process.exit(0);
