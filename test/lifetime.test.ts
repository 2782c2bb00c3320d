// Lifetime: one engine runs many mixed compactions and scans (every option, chained results,
// random sizes; every count, and about a third of the results read back whole, checked against the CPU). Afterwards its live GL objects return to
// the baseline taken after warm-up, the texture pool stays inside its budget, process RSS in Node
// stays flat, and dispose() frees everything (checked by an independent count on the context) and
// is idempotent.
//
//   GLCOMPACT_LIFETIME_OPS   operations after warm-up (default 200 for CI; the full run is 1000)
//
// RSS (headless-gl: llvmpipe's textures are process memory) is sampled every 100 operations with
// the texture pool trimmed. Measured: 1000 ops grew 8.9 MiB (peak 11.4), 3000 ops 37.7 MiB, while
// a standalone 10,000-op loop with forced GC plateaus after ~3000 ops (JS heap flat at 6 MiB): the
// driver's allocator settling, not a leak. Without trimming, idle pooled textures of every size
// seen are kept up to texturePoolBytes (512 MiB by default) and read as growth.
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { envCount } from './support/env.js';
import { expectSameBits, testContext } from './support/engine.js';
import { countGlObjects, nonZero } from './support/gl-objects.js';
import { referenceScan } from './support/reference.js';
import { applicableCompactOptions, applicableScanOptions } from './support/options.js';

const ops = envCount('GLCOMPACT_LIFETIME_OPS', 200);
/** Allowed RSS growth from the end of warm-up to the end (Node only; the observed growth is logged). */
const RSS_BOUND_MB = 48;
/**
 * The option cycles below (i mod 2, 3, 4, 5, 6, 8, 10, (i >> 1) mod 3, (i >> 2) mod 4 and (i >> 3) mod 2) repeat with this period,
 * so one period of warm-up compiles every program variant: programs are cached by design.
 */
const PERIOD = 240;

function heapMiB(): number | undefined {
  const memoryUsage = (globalThis as { process?: { memoryUsage?: () => { heapUsed: number } } }).process?.memoryUsage;
  return memoryUsage ? memoryUsage().heapUsed / 2 ** 20 : undefined;
}

function rss(): number | undefined {
  const memoryUsage = (globalThis as { process?: { memoryUsage?: () => { rss: number } } }).process?.memoryUsage;
  return memoryUsage ? memoryUsage().rss / 2 ** 20 : undefined;
}

/** Deterministic sizes: mostly small, some up to 2^17 + a bit, some empty. */
function lengthFor(i: number): number {
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  switch (i % 5) {
    case 0: return h % 700;
    case 1: return h % 20_000;
    case 2: return 2 ** 17 + (h % 3000);
    case 3: return (h % 11) === 0 ? 0 : h % 5000;
    default: return h % 70_000;
  }
}

async function operation(engine: Engine, i: number): Promise<void> {
  const n = lengthFor(i);
  const type = (['uint32', 'float32', 'int32'] as const)[i % 3];
  const components = i % 8 === 3 ? 4 : 1;
  const words = Uint32Array.from({ length: n * components }, (_, k) => (Math.imul(k + i, 2246822519) >>> 27) % 3); // 0, 1 or 2
  const data = type === 'uint32' ? words : type === 'int32' ? new Int32Array(words) : Float32Array.from(words);
  const stream = engine.stream(data, { components });
  const check = i % 5 === 3 || i % 10 === 0; // read back every third-or-so full result; counts always
  try {
    if (i % 4 === 1) {
      // a scan (global or segmented); values are small integers, so float sums are exact too
      const blockSize = [undefined, 16, 256, 2048][(i >> 2) % 4];
      const scanned = engine.scan(stream, applicableScanOptions({ algorithm: (['recursive-doubling', 'blelloch', 'reduce-then-scan'] as const)[i % 3], exclusive: i % 5 < 2, blockSize, radix: [2, 4, 8, 16][i % 4] }));
      if (check || n < 1000) expectSameBits(await scanned.read(), referenceScan(data, { exclusive: i % 5 < 2, blockSize, components }), `op ${i}: scan`);
      scanned.dispose();
      return;
    }
    const concat = engine.caps.transformFeedback && i % 2 === 0 ? 'transform-feedback' : 'vertex-fetch';
    // (i % 4 === 1 is a scan) every other i % 4 === 0 is the HistoPyramid, every other i % 4 === 3
    // the bitmask compaction, with either output
    const algorithm = (i >> 3) % 2 === 1 && i % 4 === 0 ? 'histopyramid'
      : (i >> 3) % 2 === 1 && i % 4 === 3 ? 'bitmask'
        : (['jumping-jack', 'horn', 'auto', 'horn'] as const)[i % 4];
    const global = algorithm === 'horn' && i % 5 === 0;
    const result = engine.compact(stream, applicableCompactOptions({
      keep: i % 3 === 2 ? { glsl: 'return value.x > 1 || index % 5u == 0u;' } : 'nonzero', // i % 3 === 2: int32, value is an ivec4
      algorithm,
      global,
      concat: global ? undefined : concat,
      blockSize: [16, 64, 256, 1024, 2048][i % 5],
      output: i % 8 < 2 ? 'indices' : 'values',
      scan: (['blelloch', 'recursive-doubling', 'reduce-then-scan'] as const)[(i >> 1) % 3],
    }));
    const keptIndex = (k: number) => {
      const x = data[k * components];
      if (i % 3 === 2) return x > 1.5 || k % 5 === 0;
      for (let c = 0; c < components; c++) if (data[k * components + c] !== 0) return true;
      return false;
    };
    let expected = 0;
    for (let k = 0; k < n; k++) if (keptIndex(k)) expected++;
    expect(await result.count(), `op ${i}: count`).toBe(expected);
    if (i % 6 === 0 || (algorithm === 'bitmask' && i % 6 === 3)) {
      // chained: the result goes straight into a scan of its (GPU-side) length: Blelloch's, or the
      // default (reduce-then-scan) for half the others and every bitmask output chained
      const scanned = engine.scan(result.stream, { exclusive: true, algorithm: i % 12 === 0 ? 'blelloch' : undefined });
      expect(await scanned.readLength(), `op ${i}: chained scan length`).toBe(expected);
      scanned.dispose();
    }
    if (check) {
      const want: number[] = [];
      for (let k = 0; k < n; k++) if (keptIndex(k)) for (let c = 0; c < components; c++) want.push(i % 8 < 2 ? k : data[k * components + c]);
      const got = Array.from(await result.read());
      // Horn, the HistoPyramid and the bitmask keep input order; the others are compared as multisets (elements are tuples, so sort whole elements)
      const tuples = (a: number[]) => Array.from({ length: a.length / (i % 8 < 2 ? 1 : components) }, (_, e) => a.slice(e * (i % 8 < 2 ? 1 : components), (e + 1) * (i % 8 < 2 ? 1 : components)).join(','));
      if (algorithm === 'horn' || algorithm === 'histopyramid' || algorithm === 'bitmask') expect(got, `op ${i}: values`).toEqual(want);
      else expect(tuples(got).sort(), `op ${i}: values as a multiset`).toEqual(tuples(want).sort());
    }
    result.dispose();
  } finally {
    stream.dispose();
  }
}

describe('engine lifetime', () => {
  it(`${ops} mixed compactions and scans in one engine: resources back to baseline, RSS flat, dispose idempotent`, { timeout: Math.max(300_000, ops * 2_000) }, async (context) => {
    const { gl } = await testContext();
    const counter = countGlObjects(gl);
    const engine = createEngine(gl);
    const start = performance.now();
    try {
      for (let i = 0; i < PERIOD; i++) await operation(engine, i); // warm-up: every program variant compiled
      engine.trim();
      const baseline = engine.resources;
      const rssAfterWarmUp = rss();
      const heapAfterWarmUp = heapMiB();
      const samples: number[] = [];
      let maxIdle = 0;
      for (let i = 0; i < ops; i++) {
        await operation(engine, PERIOD + i);
        maxIdle = Math.max(maxIdle, engine.idleTextureBytes);
        if ((i + 1) % 100 === 0 || i === ops - 1) {
          // RSS is sampled with the pool trimmed: on llvmpipe texture memory is process memory, and
          // idle pooled textures (bounded by texturePoolBytes) would otherwise read as growth
          engine.trim();
          const now = rss();
          if (now !== undefined) samples.push(now);
        }
      }
      // live objects in use: none; idle pooled textures within the budget, and gone after trim()
      expect(maxIdle).toBeLessThanOrEqual(512 * 2 ** 20);
      engine.trim();
      expect(engine.resources).toEqual(baseline);
      const seconds = (performance.now() - start) / 1000;
      let summary = `${PERIOD} warm-up + ${ops} operations in ${seconds.toFixed(1)} s; resources back to ${JSON.stringify(baseline)}; max idle pool ${(maxIdle / 2 ** 20).toFixed(1)} MiB`;
      if (rssAfterWarmUp !== undefined) {
        const last = samples[samples.length - 1];
        const peak = Math.max(...samples);
        summary += `; RSS after warm-up ${rssAfterWarmUp.toFixed(0)} MiB, at the end ${last.toFixed(0)} MiB (growth ${(last - rssAfterWarmUp).toFixed(1)} MiB, peak ${(peak - rssAfterWarmUp).toFixed(1)} MiB above warm-up; bound ${RSS_BOUND_MB} MiB), samples every 100 ops: ${samples.map((s) => s.toFixed(0)).join(' ')}; JS heap ${heapAfterWarmUp!.toFixed(0)} -> ${heapMiB()!.toFixed(0)} MiB`;
        expect(last - rssAfterWarmUp, summary).toBeLessThan(RSS_BOUND_MB);
      }
      console.log(`lifetime: ${summary}`);
      context.annotate(summary);
    } finally {
      engine.dispose();
      engine.dispose();
      counter.restore();
    }
    expect(Object.values(engine.resources).every((count) => count === 0)).toBe(true);
    expect(nonZero(counter.live), 'GL objects left on the context after dispose()').toEqual({});
  });
});
