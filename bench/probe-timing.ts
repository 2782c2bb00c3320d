// What the GPU probes share (bench/lanes-probe.ts, sort-probe.ts, scan-floor-probe.ts, perf-probe.ts):
// per-call timing of back-to-back calls, each pass's time in one call, the copy pass that is every
// probe's yardstick, and the JSON they write.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, type Engine } from '../src/index.js';
import { gpuOf } from '../src/internal.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';
import { sourceState } from './lib/source-state.mjs';

declare const __GLC_SOURCE__: { commit: string; uncommitted: string[] } | undefined;
/**
 * The engine a probe times: the commit and the src/ and glsl/ files changed since, baked into the
 * bundle when it was built (bench/lib/bundle.mjs; the GPU machine has no git), else asked of git now.
 */
export const sourceOfBuild: { commit: string; uncommitted: string[] } = typeof __GLC_SOURCE__ === 'undefined' ? sourceState() : __GLC_SOURCE__;

/**
 * The GPU probes' context: headless-gl (8 draw buffers through bench/gpu's shim, else 1), an engine
 * whose texture pool (1 GiB) holds every target of a 2^24-element call (the default 64 MiB holds one
 * such target: the calls would allocate, i.e. clear, their textures every time), its internals, and
 * the unmasked renderer each probe prints.
 */
export function probeEngine() {
  const gl = createHeadlessContext();
  const engine = createEngine(gl, { texturePoolBytes: 2 ** 30 });
  return { gl, engine, gpu: gpuOf(engine), renderer: headlessRenderer(gl) };
}

/**
 * Median ms per call of `run`: after one warm-up call (or, with `warmupMs`, calls in batches of
 * `batch` until that long has passed), `repeats` batches of `batch` calls back to back, each batch
 * timed up to engine.finish(). A GPU idle before (a probe's CPU reference, its first size) runs the
 * first batches at lower clocks: the H200 sorted 2^20 keys + values in 5.28-5.40 ms as a process's
 * first size and 4.93-5.14 after 2^19 (docs/performance.md, fifteenth session).
 */
export async function perCall(engine: Engine, run: () => void, { repeats, batch, warmupMs = 0 }: { repeats: number; batch: number; warmupMs?: number }): Promise<number> {
  run();
  await engine.finish();
  for (const start = performance.now(); performance.now() - start < warmupMs; ) {
    for (let k = 0; k < batch; k++) run();
    await engine.finish();
  }
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

/**
 * The copy-pass yardstick: median ms per copy pass of `source` (an R32UI texture of width × height),
 * timed as perCall times a call, where a call is a chain of two copies, the second reading the
 * first's output (source → a, a → b), divided by two. Also the same copy drawn back to back into one
 * target (what the probes timed before 2026-11-26), for the record.
 *
 * Why a chain: llvmpipe drops a draw whose tiles a later opaque draw into the same framebuffer
 * covers before they are rasterised (Mesa's lp_setup_tri.c resets a fully covered tile's commands
 * for an opaque shader), so a batch of k identical copies into one target costs about one copy.
 * 2^22 elements on this project's 2-core host (ANGLE on Mesa's EGL): 17.7 ms per call in batches of
 * 1, 7.5 in batches of 2, 1.5 in batches of 10, and 14.6-15.0 ms per copy in chains
 * (bench/results/issue-23/llvmpipe-yardstick/copy-yardstick-*). The engine's passes each read what
 * the pass before wrote, so none is dropped: measured against the batched copy, a llvmpipe scan
 * looked twice as many copy passes long as it is. On the H200 both forms agree at 2^22-2^24 (1.21-1.26
 * ms at 2^24 in batches of 2 and 10); at 2^16-2^18 a chained copy costs 1.4-1.5x a back-to-back one
 * (0.051-0.055 against 0.036-0.037 ms): a pass that reads the last one's output waits for it, as the
 * engine's passes do.
 */
export async function copyPassYardstick(
  engine: Engine,
  source: { texture: WebGLTexture; width: number; height: number },
  timing: { repeats: number; batch: number },
): Promise<{ chained: number; backToBack: number }> {
  const gpu = gpuOf(engine);
  const program = gpu.program({ name: 'copy', fragment: copyPassShader });
  const a = gpu.target(source.width, source.height);
  const b = gpu.target(source.width, source.height);
  try {
    const chained = (await perCall(engine, () => {
      gpu.pass(program, a, { u_source: source.texture });
      gpu.pass(program, b, { u_source: a.texture });
    }, timing)) / 2;
    const backToBack = await perCall(engine, () => gpu.pass(program, a, { u_source: source.texture }), timing);
    return { chained, backToBack };
  } finally {
    a.free();
    b.free();
  }
}

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
  writeFileSync(file, JSON.stringify({ ...data, source: sourceOfBuild, date: new Date().toISOString() }, null, 2));
  console.log(`wrote ${file}`);
}
