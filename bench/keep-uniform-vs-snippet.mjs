#!/usr/bin/env node
// A per-frame threshold, two ways, on a headless-gl context (llvmpipe here): written into the
// `{ glsl }` snippet's text (a new program every frame) or passed as a uniform (one program).
// Prints the time per call (compact + count read) and the live programs and RSS after the frames.
// Usage, after `npm run build`: bash scripts/with-display.sh node bench/keep-uniform-vs-snippet.mjs [frames] [elements]
import { createEngine, PROGRAM_CACHE_SIZE } from 'glcompact';
import { createHeadlessContext, destroyHeadlessContext } from 'glcompact/node';

const frames = Number(process.argv[2] ?? 400);
const n = Number(process.argv[3] ?? 2 ** 16);
const data = Float32Array.from({ length: n }, (_, i) => ((i * 2654435761) >>> 0) / 2 ** 32);
const thresholdOf = (frame) => 0.25 + 0.5 * (frame / frames); // a new value every frame
const literal = (x) => (Number.isInteger(x) ? `${x}.0` : String(x));

const ways = {
  'snippet text': (t) => ({ glsl: `return value.x > ${literal(t)};` }),
  uniform: (t) => ({ glsl: 'return value.x > limit;', uniforms: { limit: t } }),
};

const mib = (bytes) => (bytes / 2 ** 20).toFixed(0);
console.log(`${frames} frames, ${n} float32 elements, algorithm 'horn', PROGRAM_CACHE_SIZE ${PROGRAM_CACHE_SIZE}`);
for (const [name, keepFor] of Object.entries(ways)) {
  const gl = createHeadlessContext();
  const engine = createEngine(gl);
  const stream = engine.stream(data);
  // warm-up: the engine's own passes compiled once, as in an app that has been running
  const warm = engine.compact(stream, { keep: { glsl: 'return value.x > 2.0;' }, algorithm: 'horn' });
  await warm.count();
  warm.dispose();
  const rssBefore = process.memoryUsage().rss;
  const times = [];
  for (let frame = 0; frame < frames; frame++) {
    const t = thresholdOf(frame);
    const start = performance.now();
    const result = engine.compact(stream, { keep: keepFor(t), algorithm: 'horn' });
    const count = await result.count();
    times.push(performance.now() - start);
    result.dispose();
    if (frame % 97 === 0) {
      const expected = data.filter((x) => x > Math.fround(t)).length;
      if (count !== expected) throw new Error(`${name}, frame ${frame}: count ${count}, expected ${expected}`);
    }
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  console.log(
    `${name.padEnd(12)}  per call: mean ${mean.toFixed(1)} ms, median ${pick(0.5).toFixed(1)} ms, p90 ${pick(0.9).toFixed(1)} ms, max ${pick(1).toFixed(1)} ms;` +
      `  live programs after ${frames} frames: ${engine.resources.programs};  RSS +${mib(process.memoryUsage().rss - rssBefore)} MiB`,
  );
  stream.dispose();
  engine.dispose();
  destroyHeadlessContext(gl);
}
