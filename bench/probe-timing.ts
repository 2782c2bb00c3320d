// What the GPU probes share (bench/lanes-probe.ts, sort-probe.ts, perf-probe.ts): per-call timing of
// back-to-back calls, and the copy pass that is every probe's yardstick.
import type { Engine } from '../src/index.js';

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
