// What the GPU probes share (bench/lanes-probe.ts, sort-probe.ts, scan-floor-probe.ts, perf-probe.ts):
// per-call timing of back-to-back calls, each pass's time in one call, the copy pass that is every
// probe's yardstick, and the JSON they write.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from '../src/index.js';
import { gpuOf } from '../src/internal.js';

/**
 * Median ms per call of `run`: after one warm-up call, `repeats` batches of `batch` calls back to
 * back, each batch timed up to engine.finish().
 */
export async function perCall(engine: Engine, run: () => void, { repeats, batch }: { repeats: number; batch: number }): Promise<number> {
  run();
  await engine.finish();
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    for (let k = 0; k < batch; k++) run();
    await engine.finish();
    times.push((performance.now() - start) / batch);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** One fetch and one write per fragment: the cost of touching every texel once (R32UI or RGBA32UI). */
export const copyPassShader = `#version 300 es
precision highp float;
precision highp usampler2D;
uniform usampler2D u_source;
out uvec4 outValue;
void main() { outValue = texelFetch(u_source, ivec2(gl_FragCoord.xy), 0); }`;

/** ms per pass of one call of `run`, each draw fenced (Gpu.profile): passes drawn more than once summed. */
export function passTimes(engine: Engine, run: () => void): Map<string, number> {
  const gpu = gpuOf(engine);
  gpu.profile = new Map();
  try {
    run();
    return new Map([...gpu.profile].map(([pass, times]) => [pass, times.reduce((a, b) => a + b, 0)]));
  } finally {
    gpu.profile = undefined;
  }
}

/** Writes `data` as DIR/NAME.json (DIR made if missing) and says so. */
export function writeProbeJson(dir: string, name: string, data: object): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...data, date: new Date().toISOString() }, null, 2));
  console.log(`wrote ${file}`);
}
