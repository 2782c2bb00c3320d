// auto after engine.tune() against every path (issue 20, item 3), measured independently of the tune:
// the engine tunes at --tune-sizes, then at each size of --sizes and each density of --densities every
// compaction path and `auto` (order 'keep' and 'any') are timed back to back (batches of calls between
// two gl.finish(), paths interleaved in rounds, each round in a fresh seeded order, median per call),
// each result checked against the CPU
// count. Reports per point the ratio of auto to the fastest order-keeping path ('keep') and to the
// fastest path ('any'), and the worst of each (the targets: ≤ 1.15); then the default scan against
// every scan algorithm at each size (bench/lib/scan-sweep.ts; the target: ≤ 1.15).
// Usage: node bench/build-bundle.mjs tuned-sweep && bash scripts/with-display.sh node bench/tmp/tuned-sweep.mjs [--json FILE] [--sample-ms 0.5]
//          [--rounds 5] [--batch-scale 1] [--seed 20] [--tune-densities 0.05,0.5,0.95]
// --batch-scale k: k times the calls per batch, compactions and scans (16 up to 2^14 elements, 8 to 2^18, 2 above): on the
// H200 a batch of 16 calls of 2^10-2^14 lasts 2-6 ms, and series of the same path measured up to 1.6x
// apart at a point.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine, type CompactOptions } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';
import { compactCandidates, densitySwitchMargin, DROP_AFTER_FIRST_THROUGH_FINISH, optionsForPath, TUNE_SAMPLING } from '../src/tuning.js';
import { formatSameWork, sameWorkTwice } from './lib/same-work.mjs';
import { formatScanRow, sweepScans } from './lib/scan-sweep.js';
import { random, shuffler } from './lib/seeded-order.js';
import { sourceOfBuild } from './probe-timing.js';

const { values } = parseArgs({ options: {
  json: { type: 'string' }, sizes: { type: 'string', default: '10,12,14,16,18,20' }, densities: { type: 'string', default: '0.05,0.25,0.5,0.75,0.95' },
  'tune-sizes': { type: 'string', default: '10,14,16,18,20' }, rounds: { type: 'string', default: '5' }, 'sample-ms': { type: 'string' },
  'batch-scale': { type: 'string', default: '1' }, seed: { type: 'string', default: '20' }, 'tune-densities': { type: 'string' },
} });
const batchScale = Number(values['batch-scale']);
if (!(Number.isInteger(batchScale) && batchScale >= 1 && batchScale <= 64)) { console.error(`tuned-sweep: --batch-scale takes an integer from 1 to 64; got ${values['batch-scale']}`); process.exit(2); }
const seed = Number(values.seed);
if (!Number.isInteger(seed)) { console.error(`tuned-sweep: --seed takes an integer; got ${values.seed}`); process.exit(2); }
// --sample-ms 2: the tune's samples this long (src/tuning.ts TUNE_SAMPLING), to compare.
if (values['sample-ms'] !== undefined) {
  const sampleMs = Number(values['sample-ms']);
  if (!(sampleMs > 0 && sampleMs <= 50)) { console.error(`tuned-sweep: --sample-ms takes a length in ms, above 0 and at most 50; got ${values['sample-ms']}`); process.exit(2); }
  TUNE_SAMPLING.sampleMs = sampleMs;
}
const sizes = values.sizes.split(',').map((s) => 2 ** Number(s));
const densities = values.densities.split(',').map(Number);
const rounds = Number(values.rounds);
const gl = createHeadlessContext();
const engine = createEngine(gl, { texturePoolBytes: 512 * 2 ** 20 });
const renderer = headlessRenderer(gl);
const tuneStart = performance.now();
// --tune-densities 0.05,0.5,0.95: the tune's densities (default: the engine's, TUNE_DEFAULT_DENSITIES).
const tuneDensities = values['tune-densities']?.split(',').map(Number);
if (tuneDensities && !tuneDensities.every((d) => d > 0 && d < 1)) { console.error(`tuned-sweep: --tune-densities takes fractions between 0 and 1; got ${values['tune-densities']}`); process.exit(2); }
const profile = await engine.tune({ sizes: values['tune-sizes'].split(',').map((s) => 2 ** Number(s)), densities: tuneDensities });
console.log(`renderer: ${renderer}; tune ${(performance.now() - tuneStart).toFixed(0)} ms: keep ${JSON.stringify(profile.compact.keep)} any ${JSON.stringify(profile.compact.any)} bitmask padding ${JSON.stringify(profile.bitmaskPadding ?? {})}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const order = shuffler(random(seed));
const series: Array<[string, Record<string, unknown>, boolean]> = [
  ...compactCandidates.map(({ path, keepsOrder }) => [path, optionsForPath(path), keepsOrder] as [string, Record<string, unknown>, boolean]),
  ['auto (tuned, keep)', {}, true],
  ['auto (tuned, any)', { order: 'any' }, false],
];
const rows: Array<Record<string, unknown> & { runsMs: Record<string, number[]>; autoKeepPath?: string; autoAnyPath?: string }> = [];
let worstKeep = 0;
let worstAny = 0;
for (const n of sizes) {
  const data = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + 7, 2654435761) >>> 0) % 1_000_000);
  const stream = engine.stream(data);
  for (const density of densities) {
    const threshold = Math.round(density * 1_000_000) - 1;
    const keep = { lessEqual: threshold };
    const want = data.filter((v) => v <= threshold).length;
    const times = new Map<string, number[]>();
    const paths = new Map<string, string>();
    const batch = batchScale * (n <= 2 ** 14 ? 16 : n <= 2 ** 18 ? 8 : 2);
    for (const [name, options] of series) {
      const r = engine.compact(stream, { keep, ...options } as CompactOptions);
      if ((await r.count()) !== want) throw new Error(`${name} at n=${n}, density ${density}: count ${await r.count()}, expected ${want}`);
      paths.set(name, r.stats.algorithm);
      r.dispose();
    }
    for (let round = 0; round < rounds; round++) {
      for (const [name, options] of order(series)) {
        gl.finish();
        const start = performance.now();
        for (let k = 0; k < batch; k++) engine.compact(stream, { keep, ...options } as CompactOptions).dispose();
        gl.finish();
        (times.get(name) ?? times.set(name, []).get(name)!).push((performance.now() - start) / batch);
      }
    }
    const ms = Object.fromEntries([...times].map(([name, t]) => [name, median(t)]));
    const fastestKeep = Math.min(...series.filter(([, , keeps]) => keeps).filter(([name]) => !name.startsWith('auto')).map(([name]) => ms[name]));
    const fastestAny = Math.min(...series.filter(([name]) => !name.startsWith('auto')).map(([name]) => ms[name]));
    const keepRatio = ms['auto (tuned, keep)'] / fastestKeep;
    const anyRatio = ms['auto (tuned, any)'] / fastestAny;
    worstKeep = Math.max(worstKeep, keepRatio);
    worstAny = Math.max(worstAny, anyRatio);
    rows.push({ log2n: Math.log2(n), density, batch, ms, runsMs: Object.fromEntries(times), autoKeepPath: paths.get('auto (tuned, keep)'), autoAnyPath: paths.get('auto (tuned, any)'), keepRatio, anyRatio });
    console.log(`2^${Math.log2(n)} ${String(density).padEnd(5)} auto keep → ${paths.get('auto (tuned, keep)')} ×${keepRatio.toFixed(2)} | any → ${paths.get('auto (tuned, any)')} ×${anyRatio.toFixed(2)} | ${Object.entries(ms).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ')}`);
  }
  stream.dispose();
}
console.log(`worst: auto (keep) ×${worstKeep.toFixed(2)} of the fastest order-keeping path; auto (any) ×${worstAny.toFixed(2)} of the fastest path`);
const noise = sameWorkTwice(rows);
console.log(formatSameWork(noise));
const scans = await sweepScans(engine, sizes.map(Math.log2), { rounds, sync: () => gl.finish(), order: (names) => order(names), batchFor: (n) => batchScale * (n <= 2 ** 14 ? 16 : n <= 2 ** 18 ? 8 : 2), onRow: (row) => console.log(formatScanRow(row)) });
console.log(`worst: the default scan ×${scans.worst.ratio.toFixed(2)} of the fastest scan (2^${scans.worst.log2n}); within 1.15 at ${scans.within115} of ${scans.rows.length} sizes`);
if (values.json) writeFileSync(values.json, `${JSON.stringify({ renderer, source: sourceOfBuild, date: new Date().toISOString(), config: { rounds, batchScale, seed, tuneDensities: tuneDensities ?? 'the engine default', order: 'a fresh seeded order per round' }, switchMargin: densitySwitchMargin(profile.sampling), sampleMs: TUNE_SAMPLING.sampleMs, tuneSampling: { ...TUNE_SAMPLING, dropAfterFirstThroughFinish: DROP_AFTER_FIRST_THROUGH_FINISH }, profile, rows, worstKeep, worstAny, sameWorkTwice: noise, scanRows: scans.rows, worstScan: { ...scans.worst, within115: scans.within115, sizes: scans.rows.length } }, null, 1)}\n`);
engine.dispose();
