// A quick matrix of timings for tuning (not the benchmark CLI): one copy pass as the yardstick,
// scans and compactions at 2^24 (or --log2n) with each scan algorithm/radix, block size and search.
// Usage: node bench/build-probe.mjs && node bench/tmp/perf-probe.mjs [--log2n 24] [--repeats 5]
//          [--density-only | --concat-only | --new-only | --ratios] [--block-sizes]   (--help; no display: scripts/with-display.sh)
import { parseArgs } from 'node:util';
import type { Engine } from '../src/index.js';
import { gpuOf, texelFormats } from '../src/internal.js';
import { BITMASK_SHAPE } from '../src/compact/bitmask.js';
import { copyPassShader as copyPass, probeEngine } from './probe-timing.js';
const writeOnlyPass = `#version 300 es
precision highp float;
out uvec4 outValue;
void main() { outValue = uvec4(uint(gl_FragCoord.x) ^ uint(gl_FragCoord.y)); }`;
const fetchEightPass = `#version 300 es
precision highp float;
precision highp usampler2D;
uniform usampler2D u_source;
out uvec4 outValue;
void main() {
  ivec2 t = ivec2(gl_FragCoord.xy) * ivec2(8, 1);
  uint s = 0u;
  for (int k = 0; k < 8; ++k) s += texelFetch(u_source, t + ivec2(k, 0), 0).r;
  outValue = uvec4(s);
}`;
// The wide yardstick: 8 RGBA32UI attachments, 32 elements per fragment (read from a packed source).
const copyPassWide = `#version 300 es
precision highp float;
precision highp usampler2D;
uniform usampler2D u_source;
layout(location = 0) out uvec4 o0; layout(location = 1) out uvec4 o1; layout(location = 2) out uvec4 o2; layout(location = 3) out uvec4 o3;
layout(location = 4) out uvec4 o4; layout(location = 5) out uvec4 o5; layout(location = 6) out uvec4 o6; layout(location = 7) out uvec4 o7;
void main() {
  ivec2 t = ivec2(gl_FragCoord.xy) * ivec2(8, 1);
  o0 = texelFetch(u_source, t, 0); o1 = texelFetch(u_source, t + ivec2(1, 0), 0); o2 = texelFetch(u_source, t + ivec2(2, 0), 0); o3 = texelFetch(u_source, t + ivec2(3, 0), 0);
  o4 = texelFetch(u_source, t + ivec2(4, 0), 0); o5 = texelFetch(u_source, t + ivec2(5, 0), 0); o6 = texelFetch(u_source, t + ivec2(6, 0), 0); o7 = texelFetch(u_source, t + ivec2(7, 0), 0);
}`;

const usage =
  'usage: node bench/build-probe.mjs && node bench/tmp/perf-probe.mjs [--log2n 24] [--repeats 5] ' +
  '[--density-only | --concat-only | --new-only | --ratios] [--block-sizes]   (without a display: bash scripts/with-display.sh node bench/tmp/perf-probe.mjs ...)';

function parseFlags() {
  try {
    const { values } = parseArgs({
      options: {
        log2n: { type: 'string', default: '24' },
        repeats: { type: 'string', default: '5' },
        'density-only': { type: 'boolean', default: false },
        'concat-only': { type: 'boolean', default: false },
        'block-sizes': { type: 'boolean', default: false },
        'new-only': { type: 'boolean', default: false },
        ratios: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values['density-only'] && values['concat-only']) throw new Error('--density-only and --concat-only exclude each other');
    return values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}
const parsed = parseFlags();
if (parsed.help) {
  console.log(usage);
  process.exit(0);
}
const integerFlag = (name: string, text: string, min: number, max: number): number => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`--${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(text)}\n${usage}`);
    process.exit(2);
  }
  return value;
};
const log2n = integerFlag('log2n', parsed.log2n, 4, 28);
const repeats = integerFlag('repeats', parsed.repeats, 1, 1000);
const n = 2 ** log2n;

async function median(engine: Engine, run: () => Promise<void> | void): Promise<number> {
  await run();
  await engine.finish();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await run();
    await engine.finish();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

// The probes' engine: its texture pool holds every target of a 2^24-element call (with the default
// 64 MiB the calls allocated their textures every time: on the H200 a 2^24 bitmask compaction read
// 54-80 ms instead of ~3, the 8-layer targets' allocation, until 2026-11-28).
const { gl, engine, renderer } = probeEngine();
console.log(`renderer: ${renderer}; n = 2^${log2n}; texture pool 1 GiB`);
const rows: string[] = [];
const report = (what: string, ms: number, extra = '') => {
  const line = `${what.padEnd(58)} ${ms.toFixed(2).padStart(9)} ms  ${extra}`;
  rows.push(line);
  console.log(line);
};

let seed = 7;
const data = Float32Array.from({ length: n }, () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32));
const stream = engine.stream(data);
const counts = new Uint32Array(n).map((_, i) => i & 7);
const countStream = engine.stream(counts);

/** Yardsticks: one R32UI copy pass over the stream, and a pass moving the same elements packed 32 per fragment (8 RGBA32UI attachments). */
async function copyYardsticks(): Promise<void> {
  const gpu = gpuOf(engine);
  const target = gpu.target(stream.layout.width, stream.layout.height);
  const program = gpu.program({ name: 'copy', fragment: copyPass });
  report('copy pass, 1 element per fragment (yardstick)', await median(engine, () => gpu.pass(program, target, { u_source: stream.texture })));
  target.free();
  const writeOnly = gpu.program({ name: 'write-only', fragment: writeOnlyPass });
  const writeTarget = gpu.target(stream.layout.width, stream.layout.height);
  report('write-only pass, no fetch, 1 fragment per element (yardstick)', await median(engine, () => gpu.pass(writeOnly, writeTarget, {})));
  writeTarget.free();
  const eight = gpu.program({ name: 'fetch-eight', fragment: fetchEightPass });
  const eightTarget = gpu.target(stream.layout.width / 8, stream.layout.height);
  report('fetch 8 R32UI per fragment, n/8 fragments (yardstick)', await median(engine, () => gpu.pass(eight, eightTarget, { u_source: stream.texture })));
  eightTarget.free();
  const maxDrawBuffers = gl.getParameter(gl.MAX_DRAW_BUFFERS) as number;
  if (maxDrawBuffers < 8) return report(`copy pass, 32 elements per fragment: skipped (MAX_DRAW_BUFFERS ${maxDrawBuffers})`, NaN);
  const height = Math.max(1, n / 4 / 2048);
  const source = gpu.target(2048, height, texelFormats.rgba32ui);
  const outs = Array.from({ length: 8 }, () => gpu.target(256, height, texelFormats.rgba32ui));
  const framebuffer = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  outs.forEach((out, i) => gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, gl.TEXTURE_2D, out.texture, 0));
  gl.drawBuffers(outs.map((_, i) => gl.COLOR_ATTACHMENT0 + i));
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  const wide = gpu.program({ name: 'copy-wide', fragment: copyPassWide });
  report('copy pass, 32 elements per fragment, 8 attachments (yardstick)', await median(engine, () => gpu.pass(wide, { framebuffer, width: 256, height }, { u_source: source.texture })));
  gl.deleteFramebuffer(framebuffer);
  for (const t of [source, ...outs]) t.free();
}

if (parsed.ratios) {
  // Issue 13's CPU-renderer targets are in copy passes of the same run: each operation's median
  // divided by the median of one R32UI copy pass over the stream, measured interleaved.
  const gpu = gpuOf(engine);
  const target = gpu.target(stream.layout.width, stream.layout.height);
  const copy = gpu.program({ name: 'copy', fragment: copyPass });
  const operations: [string, () => Promise<void> | void][] = [
    ['copy pass (yardstick)', () => gpu.pass(copy, target, { u_source: stream.texture })],
    ['scan, default', () => engine.scan(countStream).dispose()],
    ['scan, blelloch', () => engine.scan(countStream, { algorithm: 'blelloch' }).dispose()],
    ['scan, reduce-then-scan', () => engine.scan(countStream, { algorithm: 'reduce-then-scan' }).dispose()],
    ['compact 50 %, auto (default)', async () => { const r = engine.compact(stream, { keep: { lessEqual: 0.5 } }); await r.count(); r.dispose(); }],
    ['compact 50 %, per-block hybrid', async () => { const r = engine.compact(stream, { keep: { lessEqual: 0.5 }, blockSize: 256 }); await r.count(); r.dispose(); }],
  ];
  const times = new Map<string, number[]>(operations.map(([name]) => [name, []]));
  for (const [, run] of operations) await run(); // warm-up: compile everything first
  await engine.finish();
  for (let i = 0; i < repeats; i++) {
    for (const [name, run] of operations) {
      const start = performance.now();
      await run();
      await engine.finish();
      times.get(name)!.push(performance.now() - start);
    }
  }
  const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const copyMs = medianOf(times.get('copy pass (yardstick)')!);
  for (const [name] of operations) {
    const ms = medianOf(times.get(name)!);
    report(name, ms, `${(ms / copyMs).toFixed(2)} copy passes`);
  }
  target.free();
  process.exit(0);
}

if (parsed['new-only']) {
  // The paths of issue 13 against the paper's defaults and the HistoPyramid, and the tree's shapes.
  await copyYardsticks();
  const scanOnce = (algorithm: 'blelloch' | 'reduce-then-scan') => median(engine, () => engine.scan(countStream, { algorithm }).dispose());
  report('scan global blelloch', await scanOnce('blelloch'), `${engine.lastScanStats!.passes} passes`);
  const compactOnce = async (algorithm: 'auto' | 'histopyramid' | 'bitmask' | 'horn', p: number) => {
    let stats: any;
    const ms = await median(engine, async () => {
      const r = engine.compact(stream, { keep: { lessEqual: p }, algorithm });
      await r.count();
      stats = r.stats;
      r.dispose();
    });
    return { ms, extra: `${stats.passes} passes, ${stats.algorithm}` };
  };
  for (const directWordsUpTo of [0, 2 ** 13]) {
    const saved = { ...BITMASK_SHAPE };
    Object.assign(BITMASK_SHAPE, { directWordsUpTo });
    const batch = 10;
    for (const p of [0.01, 0.5, 1]) {
      let stats: any;
      const ms = await median(engine, () => { for (let i = 0; i < batch; i++) { const r = engine.compact(stream, { keep: { lessEqual: p }, algorithm: 'bitmask' }); stats = r.stats; r.dispose(); } });
      report(`compact kept ${p} bitmask direct words up to ${directWordsUpTo}, per call in batches of ${batch}`, ms / batch, `${stats.passes} passes`);
    }
    Object.assign(BITMASK_SHAPE, saved);
  }
  // Per-pass wall times (each draw fenced by gl.finish on both sides): where the time goes.
  const gpu = gpuOf(engine);
  for (const [what, run] of [
    ['scan reduce-then-scan', () => engine.scan(countStream, { algorithm: 'reduce-then-scan' }).dispose()],
    ['compact bitmask 0.5', async () => { const r = engine.compact(stream, { keep: { lessEqual: 0.5 }, algorithm: 'bitmask' }); await r.count(); r.dispose(); }],
    ['compact bitmask 0.01', async () => { const r = engine.compact(stream, { keep: { lessEqual: 0.01 }, algorithm: 'bitmask' }); await r.count(); r.dispose(); }],
  ] as const) {
    await run();
    gpu.profile = new Map();
    for (let i = 0; i < repeats; i++) await run();
    const profile = gpu.profile;
    gpu.profile = undefined;
    for (const [pass, times] of profile) {
      times.sort((a, b) => a - b);
      report(`  profile ${what}: ${pass}`, times[Math.floor(times.length / 2)]);
    }
  }
  // Back-to-back calls, one finish at the end: the cost per call without the sync's fixed cost.
  const batch = 20;
  for (const [what, run] of [
    ['scan blelloch', () => engine.scan(countStream, { algorithm: 'blelloch' }).dispose()],
    ['scan reduce-then-scan', () => engine.scan(countStream, { algorithm: 'reduce-then-scan' }).dispose()],
    ['compact auto 0.5', () => engine.compact(stream, { keep: { lessEqual: 0.5 } }).dispose()],
    ['compact histopyramid 0.5', () => engine.compact(stream, { keep: { lessEqual: 0.5 }, algorithm: 'histopyramid' }).dispose()],
    ['compact bitmask 0.5', () => engine.compact(stream, { keep: { lessEqual: 0.5 }, algorithm: 'bitmask' }).dispose()],
  ] as const) {
    const ms = await median(engine, () => { for (let i = 0; i < batch; i++) run(); });
    report(`${what}, per call in batches of ${batch}`, ms / batch);
  }
  for (const p of [0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
    for (const algorithm of ['auto', 'horn', 'histopyramid', 'bitmask'] as const) {
      const c = await compactOnce(algorithm, p);
      report(`compact kept ${p} ${algorithm}`, c.ms, c.extra);
    }
  }
  for (const algorithm of ['auto', 'bitmask'] as const) {
    let kept = 0;
    const ms = await median(engine, async () => {
      const r = engine.compact(stream, { keep: { lessEqual: 0.5 }, algorithm });
      kept = (await r.read()).length;
      r.dispose();
    });
    report(`compact ${algorithm} 50 % + read() of the kept values`, ms, `${kept} values`);
  }
  report('stream.read() of the whole stream', await median(engine, async () => void (await stream.read())), `${n} values`);
  process.exit(0);
}

if (parsed['concat-only']) {
  // The two concatenation paths (transform-feedback endpoints vs vertex fetch) at several densities:
  // what concat 'auto' should choose (docs/how-it-works.md "Platform notes").
  for (const p of [0.05, 0.25, 0.5, 0.75, 0.95]) {
    for (const algorithm of ['jumping-jack', 'horn', 'auto'] as const) {
      for (const concat of ['transform-feedback', 'vertex-fetch'] as const) {
        if (concat === 'transform-feedback' && !engine.caps.transformFeedback) continue;
        const ms = await median(engine, async () => {
          const r = engine.compact(stream, { keep: { lessEqual: p }, algorithm, concat });
          await r.count();
          r.dispose();
        });
        report(`compact kept ${p} b256 ${algorithm} ${concat}`, ms);
      }
    }
  }
  process.exit(0);
}

if (parsed['density-only']) {
  for (const p of [0.5, 0.8, 0.85, 0.9, 0.95, 0.99, 1.0]) {
    for (const blockSize of [64, 256]) {
      for (const algorithm of ['jumping-jack', 'horn'] as const) {
        const ms = await median(engine, async () => {
          const r = engine.compact(stream, { keep: { lessEqual: p }, algorithm, scan: 'blelloch', blockSize });
          await r.count();
          r.dispose();
        });
        report(`compact kept ${p} b${blockSize} blelloch ${algorithm}`, ms);
      }
    }
    const ms = await median(engine, async () => {
      const r = engine.compact(stream, { keep: { lessEqual: p }, algorithm: 'histopyramid' });
      await r.count();
      r.dispose();
    });
    report(`compact kept ${p} histopyramid`, ms);
  }
  process.exit(0);
}

// The yardsticks (one copy pass over the stream: what DESIGN.md calls the copy-pass time; and the
// same elements moved 32 per fragment through 8 attachments), as in --new-only.
await copyYardsticks();

for (const [algorithm, radix] of [['recursive-doubling', 2], ['recursive-doubling', 4], ['recursive-doubling', 8], ['recursive-doubling', 16], ['blelloch', 2]] as const) {
  const ms = await median(engine, () => engine.scan(countStream, { algorithm, radix }).dispose());
  const s = engine.lastScanStats!;
  report(`scan global ${algorithm} r${radix}`, ms, `${s.passes} passes, ${(s.fragments / n).toFixed(2)} frag/elem`);
}

const blockSizes = parsed['block-sizes'] ? [16, 64, 256, 1024, 2048] : [256];
for (const blockSize of blockSizes) {
  for (const [scan, radix] of [['recursive-doubling', 4], ['blelloch', 2]] as const) {
    for (const algorithm of ['jumping-jack', 'horn', 'auto'] as const) {
      let stats: any;
      const ms = await median(engine, async () => {
        const r = engine.compact(stream, { keep: { lessEqual: 0.5 }, algorithm, blockSize, scan, radix });
        await r.count();
        stats = r.stats;
        r.dispose();
      });
      report(`compact b${blockSize} ${scan} r${radix} ${algorithm}`, ms, `${stats.passes} passes, ${(stats.fragments / n).toFixed(2)} frag/elem`);
    }
  }
}
for (const p of [0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 0.95]) {
  for (const algorithm of ['jumping-jack', 'horn', 'auto', 'histopyramid'] as const) {
    const ms = await median(engine, async () => {
      const r = engine.compact(stream, { keep: { lessEqual: p }, algorithm, scan: 'blelloch' });
      await r.count();
      r.dispose();
    });
    report(`compact kept ${p} ${algorithm === 'histopyramid' ? '' : 'b256 blelloch '}${algorithm}`, ms);
  }
}
{
  const ms = await median(engine, async () => {
    const r = engine.compact(stream, { keep: { lessEqual: 0.5 }, algorithm: 'horn', global: true, scan: 'blelloch' });
    await r.count();
    r.dispose();
  });
  report('compact horn global blelloch', ms);
}
{
  let stats: any;
  const ms = await median(engine, async () => {
    const r = engine.compact(stream, { keep: { lessEqual: 0.5 }, algorithm: 'histopyramid' });
    await r.count();
    stats = r.stats;
    r.dispose();
  });
  report('compact histopyramid', ms, `${stats.passes} passes, ${(stats.fragments / n).toFixed(2)} frag/elem`);
}
{ // compaction + read() of the kept values back to the CPU (half of them at 50 % kept)
  let kept = 0;
  const ms = await median(engine, async () => {
    const r = engine.compact(stream, { keep: { lessEqual: 0.5 } });
    kept = (await r.read()).length;
    r.dispose();
  });
  report('compact auto 50 % + read() of the kept values', ms, `${kept} values`);
  const readMs = await median(engine, async () => {
    await stream.read();
  });
  report('stream.read() of the whole stream', readMs, `${n} values`);
}
{ // CPU baselines
  const out = new Float32Array(n);
  const filterMs = await median(engine, () => {
    let k = 0;
    for (let i = 0; i < n; i++) if (data[i] <= 0.5) out[k++] = data[i];
  });
  report('cpu filter loop', filterMs);
  const sums = new Uint32Array(n);
  const scanMs = await median(engine, () => {
    let s = 0;
    for (let i = 0; i < n; i++) sums[i] = s = (s + counts[i]) >>> 0;
  });
  report('cpu scan loop', scanMs);
}
engine.dispose();
