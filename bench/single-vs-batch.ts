// How a lone call between two gl.finish() ranks compaction paths against calls back to back (issue 20):
// tune() samples through glFinish (headless-gl) were a single call wherever a call outlasts the
// 0.5 ms sample, while the sweeps time batches. Per density, each path is timed in batches of 1, 2
// and 8 calls (or --batches, in that order), the paths in turn round by round, median ms per call; each path's
// count at each density is checked against the CPU's once, before the timed rounds.
// Usage: node bench/build-bundle.mjs single-vs-batch && bash scripts/with-display.sh node bench/tmp/single-vs-batch.mjs
//          [--size 18] [--densities 0.05,0.1,0.25,0.5] [--paths bitmask,histopyramid] [--batches 1,2,8] [--rounds 15]
//          [--yield timeout|immediate] [--warm-ms 0] [--json FILE]
// --yield: before each batch, wait for the next task as tune() does between its samples (setTimeout(0):
// in Node at least 1 ms; or setImmediate), after the gl.finish() that starts it.
// --warm-ms W: before each timed batch (after the yield), calls of the same path back to back for W ms,
// untimed, then a gl.finish(): whether a GPU kept busy just before a sample ranks the paths as the
// sweeps' batches do (a GPU idle between the tune's samples may run at lower clocks).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine, type CompactOptions } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';
import { compactCandidates, optionsForPath } from '../src/tuning.js';
import { sourceOfBuild } from './probe-timing.js';

const { values } = parseArgs({ options: {
  size: { type: 'string', default: '18' }, densities: { type: 'string', default: '0.05,0.1,0.25,0.5' },
  paths: { type: 'string', default: 'bitmask,histopyramid' }, batches: { type: 'string', default: '1,2,8' }, yield: { type: 'string' }, 'warm-ms': { type: 'string', default: '0' }, rounds: { type: 'string', default: '15' }, json: { type: 'string' },
} });
const fail = (message: string): never => {
  console.error(`single-vs-batch: ${message}`);
  process.exit(2);
};
const log2n = Number(values.size);
if (!(Number.isInteger(log2n) && log2n >= 4 && log2n <= 22)) fail(`--size takes log2 of the length, 4 to 22; got ${values.size}`);
const densities = values.densities.split(',').map(Number);
if (!densities.every((d) => d > 0 && d <= 1)) fail(`--densities takes kept fractions above 0, at most 1; got ${values.densities}`);
const known = compactCandidates.map((c) => c.path);
const paths = values.paths.split(',');
for (const path of paths) if (!known.includes(path as (typeof known)[number])) fail(`--paths takes some of ${known.join(', ')}; got ${path}`);
const rounds = Number(values.rounds);
if (!(Number.isInteger(rounds) && rounds >= 1)) fail(`--rounds takes a positive integer; got ${values.rounds}`);
const batches = values.batches.split(',').map(Number);
if (!batches.every((b) => Number.isInteger(b) && b >= 1 && b <= 256)) fail(`--batches takes calls per batch, 1 to 256; got ${values.batches}`);

const warmMs = Number(values['warm-ms']);
if (!(Number.isFinite(warmMs) && warmMs >= 0 && warmMs <= 1000)) fail(`--warm-ms takes ms of untimed calls before each batch, 0 to 1000; got ${values['warm-ms']}`);
if (values.yield !== undefined && !['timeout', 'immediate'].includes(values.yield)) fail(`--yield takes timeout or immediate; got ${values.yield}`);
const pause = values.yield === 'timeout' ? () => new Promise((resolve) => setTimeout(resolve, 0)) : values.yield === 'immediate' ? () => new Promise((resolve) => setImmediate(resolve)) : undefined;
const gl = createHeadlessContext();
const engine = createEngine(gl, { texturePoolBytes: 512 * 2 ** 20 });
const renderer = headlessRenderer(gl);
console.log(`renderer: ${renderer}; 2^${log2n} elements, ${rounds} rounds, ms per call in batches of ${batches.join(' / ')}${pause ? `, each after a ${values.yield} yield` : ''}${warmMs > 0 ? `, then ${warmMs} ms of the path's calls untimed` : ''}`);
const n = 2 ** log2n;
const data = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + 7, 2654435761) >>> 0) % 1_000_000);
const stream = engine.stream(data);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows = [];
for (const density of densities) {
  const threshold = Math.round(density * 1_000_000) - 1;
  const keep = { lessEqual: threshold };
  const want = data.filter((v) => v <= threshold).length;
  const run = (path: string) => engine.compact(stream, { keep, ...optionsForPath(path as (typeof known)[number]) } as CompactOptions);
  for (const path of paths) {
    const r = run(path);
    const count = await r.count();
    r.dispose();
    if (count !== want) throw new Error(`${path} at 2^${log2n}, ${density} kept: count ${count}, expected ${want}`);
  }
  const samples: Record<string, Record<number, number[]>> = {};
  for (let round = 0; round < rounds; round++) {
    // Paths in turn, each round in the other order, so neither always follows the other.
    for (const path of round % 2 ? paths : [...paths].reverse()) {
      for (const batch of batches) {
        gl.finish();
        if (pause) await pause();
        if (warmMs > 0) {
          const from = performance.now();
          while (performance.now() - from < warmMs) run(path).dispose();
          gl.finish();
        }
        const start = performance.now();
        for (let k = 0; k < batch; k++) run(path).dispose();
        gl.finish();
        ((samples[path] ??= {})[batch] ??= []).push((performance.now() - start) / batch);
      }
    }
  }
  const ms = Object.fromEntries(paths.map((path) => [path, Object.fromEntries(batches.map((b) => [b, median(samples[path]![b]!)]))]));
  rows.push({ density, ms, samples });
  console.log(`${density}  ${paths.map((p) => `${p} ${batches.map((b) => ms[p]![b]!.toFixed(2)).join(' / ')}`).join('   ')}`);
}
engine.dispose();
if (values.json) writeFileSync(values.json, `${JSON.stringify({ renderer, source: sourceOfBuild, date: new Date().toISOString(), log2n, rounds, batches, yield: values.yield ?? 'none', warmMs, rows }, null, 1)}\n`);
