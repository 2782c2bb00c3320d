// How often engine.tune() chooses well (issue 20): the same engine tunes --tunes times, then every
// compaction path is timed at each tuned point as the sweeps time it (batches of --batch calls back to
// back between two gl.finish(), paths interleaved in rounds, each round in a fresh seeded order, median
// ms per call; each path's count checked against the CPU's once). Per tune and size class: the class's
// choice (keep and any) and its worst ratio over the tuned densities against the fastest path of its
// set there, by those batches; and which paths its second opinions asked. One tune's sweep
// (bench/tuned-sweep.ts) tells one draw of the tune; this tells how often a tune draws badly.
// Usage: node bench/build-bundle.mjs tune-repeat && bash scripts/with-display.sh node bench/tmp/tune-repeat.mjs
//          [--tunes 12] [--sizes 10,12,14] [--batch 64] [--rounds 7] [--seed 20] [--json FILE]
//          [--second-opinion-ms 6] [--second-opinion-calls 64] [--second-opinion-elements 20] [--second-opinion-samples 2]
// --second-opinion-*: the tune's second-opinion samples through glFinish (bench/lib/second-opinion-flags.ts), to compare.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine, type CompactOptions, type TuningProfile } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';
import { compactCandidates, DROP_AFTER_FIRST_THROUGH_FINISH, optionsForPath, sizeClass, TUNE_SAMPLING } from '../src/tuning.js';
import { random, shuffler } from './lib/seeded-order.js';
import { applySecondOpinionFlags, describeSecondOpinions, secondOpinionOptions } from './lib/second-opinion-flags.js';
import { sourceOfBuild } from './probe-timing.js';

const { values } = parseArgs({ options: {
  tunes: { type: 'string', default: '12' }, sizes: { type: 'string', default: '10,12,14' }, batch: { type: 'string', default: '64' },
  rounds: { type: 'string', default: '7' }, seed: { type: 'string', default: '20' }, json: { type: 'string' },
  ...secondOpinionOptions,
} });
const fail = (message: string): never => {
  console.error(`tune-repeat: ${message}`);
  process.exit(2);
};
const whole = (name: string, least: number, most: number): number => {
  const value = Number(values[name as keyof typeof values]);
  if (!(Number.isInteger(value) && value >= least && value <= most)) fail(`--${name} takes a whole number, ${least} to ${most}; got ${values[name as keyof typeof values]}`);
  return value;
};
const tunes = whole('tunes', 1, 200);
const batch = whole('batch', 1, 256);
const rounds = whole('rounds', 1, 100);
const seed = whole('seed', 0, 2 ** 31);
const badSecondOpinion = applySecondOpinionFlags(values);
if (badSecondOpinion !== undefined) fail(badSecondOpinion);
const logs = values.sizes.split(',').map(Number);
if (!logs.every((l) => Number.isInteger(l) && l >= 4 && l <= 22)) fail(`--sizes takes log2 lengths, 4 to 22; got ${values.sizes}`);
const sizes = logs.map((l) => 2 ** l);

const gl = createHeadlessContext();
const engine = createEngine(gl, { texturePoolBytes: 512 * 2 ** 20 });
const renderer = headlessRenderer(gl);
console.log(`renderer: ${renderer}; ${tunes} tunes of sizes 2^${logs.join(', 2^')} (${describeSecondOpinions(3 /* engine.tune()'s default repeats, which tune() below takes */)}), then every path at the tuned points in batches of ${batch} calls, ${rounds} rounds`);

const profiles: TuningProfile[] = [];
for (let t = 0; t < tunes; t++) {
  const started = performance.now();
  const profile = await engine.tune({ sizes });
  profiles.push(profile);
  console.log(`tune ${t + 1}/${tunes} (${(performance.now() - started).toFixed(0)} ms): keep ${JSON.stringify(profile.compact.keep)} any ${JSON.stringify(profile.compact.any)} second opinions ${JSON.stringify(profile.sampling?.secondOpinions ?? {})}`);
}

// The points every tune sampled (size class / density), and the length each class was tuned at.
const points = Object.keys(profiles[0]!.timings).filter((point) => !point.endsWith('/scan'));
const lengthOf = new Map<string, number>();
for (const n of sizes) {
  const stream = engine.stream(new Uint32Array(n));
  lengthOf.set(String(sizeClass(stream.layout.capacity)), n);
  stream.dispose();
}
const paths = compactCandidates.map((c) => c.path);
const keepPaths = compactCandidates.filter((c) => c.keepsOrder).map((c) => c.path);
const order = shuffler(random(seed));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const reference: Record<string, Record<string, number>> = {};
for (const point of points) {
  const [key, density] = point.split('/');
  const n = lengthOf.get(key!)!;
  const data = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + 7, 2654435761) >>> 0) % 1_000_000);
  const threshold = Math.round(Number(density) * 1_000_000) - 1;
  const want = data.filter((v) => v <= threshold).length;
  const stream = engine.stream(data);
  const run = (path: string) => engine.compact(stream, { keep: { lessEqual: threshold }, ...optionsForPath(path as (typeof paths)[number]) } as CompactOptions);
  for (const path of paths) {
    const result = run(path);
    const count = await result.count();
    result.dispose();
    if (count !== want) throw new Error(`${path} at ${point}: count ${count}, expected ${want}`);
  }
  const samples: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const path of order([...paths])) {
      gl.finish();
      const start = performance.now();
      for (let k = 0; k < batch; k++) run(path).dispose();
      gl.finish();
      (samples[path] ??= []).push((performance.now() - start) / batch);
    }
  }
  stream.dispose();
  reference[point] = Object.fromEntries(paths.map((path) => [path, median(samples[path]!)]));
  console.log(`${point}  ${paths.map((path) => `${path} ${reference[point]![path]!.toFixed(3)}`).join(', ')}`);
}

// Per tune and class: the choice's worst ratio over the class's tuned densities, by the reference batches.
const classes = [...new Set(points.map((point) => point.split('/')[0]!))];
const worstOf = (choice: string, key: string, among: readonly string[]) =>
  Math.max(...points.filter((point) => point.startsWith(`${key}/`)).map((point) => reference[point]![choice]! / Math.min(...among.map((path) => reference[point]![path]!))));
const outcomes = profiles.map((profile) => Object.fromEntries(classes.map((key) => [key, {
  keep: profile.compact.keep[key]!, keepWorst: worstOf(profile.compact.keep[key]!, key, keepPaths),
  any: profile.compact.any[key]!, anyWorst: worstOf(profile.compact.any[key]!, key, paths),
  secondOpinions: profile.sampling?.secondOpinions?.[key] ?? [],
}])));
for (const key of classes) {
  const here = outcomes.map((o) => o[key]!);
  const within = (worst: number) => worst <= 1.15;
  const tally = (list: string[]) => Object.entries(list.reduce<Record<string, number>>((acc, path) => ({ ...acc, [path]: (acc[path] ?? 0) + 1 }), {})).map(([path, count]) => `${path} ${count}`).join(', ');
  console.log(`2^${key}: keep ${tally(here.map((o) => o.keep))}: within 1.15 in ${here.filter((o) => within(o.keepWorst)).length} of ${tunes} (worst ×${Math.max(...here.map((o) => o.keepWorst)).toFixed(2)}); any ${tally(here.map((o) => o.any))}: within 1.15 in ${here.filter((o) => within(o.anyWorst)).length} of ${tunes} (worst ×${Math.max(...here.map((o) => o.anyWorst)).toFixed(2)}); second opinions asked in ${here.filter((o) => o.secondOpinions.length > 0).length}`);
}
const allWithin = outcomes.filter((o) => Object.values(o).every((c) => c.keepWorst <= 1.15 && c.anyWorst <= 1.15)).length;
console.log(`tunes within 1.15 at every class, keep and any: ${allWithin} of ${tunes}`);
engine.dispose();
if (values.json) writeFileSync(values.json, `${JSON.stringify({ renderer, source: sourceOfBuild, date: new Date().toISOString(), tunes, sizes, batch, rounds, seed, sampling: { ...TUNE_SAMPLING, dropAfterFirstThroughFinish: DROP_AFTER_FIRST_THROUGH_FINISH }, reference, outcomes, profiles }, null, 1)}\n`);
