// Where the time of stream.read() goes (issue 13, "Fast readback"): for each size, the median of
// each stage of the read path, measured apart, next to the whole read and a compaction + read.
// Usage: node bench/build-read-probe.mjs && node bench/tmp/read-probe.mjs [--sizes 20,22,24] [--repeats 7]
//        (--help; no display: bash scripts/with-display.sh node bench/tmp/read-probe.mjs)
//
// Stages (the path: src/stream.ts read() -> src/readback.ts -> src/adapter.ts readBits):
//   pack pass        four R32UI texels per RGBA32UI texel (glsl/pack-four.frag), then gl.finish()
//   readPixels warm  readPixels of the packed texels into an array already written once (so the
//                    bandwidth of the read itself, no page faults)
//   readPixels fresh the same into a new array, as read() does: the OS maps its pages on first write
//   ... pre-touched  a new array with one word per 4 KiB page written first, then readPixels
//   fresh + fill     new Uint32Array(n).fill(1): allocation and first touch alone, no GL at all
//   read()           stream.read() of a stream whose length the CPU knows
//   read(into)       the same into one array reused across the runs (no fresh memory)
//   compact + read() engine.compact(keep x <= 0.5, uniform random data) then result.read(): the
//                    count is read first (a one-texel sync), then the kept values
//   compact + count  the same with result.count() only: the compaction and its sync, no read
//   ... read(into)   compaction, then result.stream.read(into) into the reused array
// Faults: minor page faults of the last run (process.resourceUsage()); about n / 1024 when every page
// of an n-word array was fresh. The environment lines say what decides their cost (transparent huge
// pages, glibc's malloc tunables).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import packFour from '../glsl/pack-four.frag';
import { createEngine, type Engine } from '../src/index.js';
import { gpuOf, texelFormats, viewOf } from '../src/internal.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';

const usage =
  'usage: node bench/build-read-probe.mjs && node bench/tmp/read-probe.mjs [--sizes 20,22,24] [--repeats 7]   ' +
  '(without a display: bash scripts/with-display.sh node bench/tmp/read-probe.mjs ...)';

function parseFlags(): { sizes: number[]; repeats: number } {
  try {
    const { values } = parseArgs({
      options: {
        sizes: { type: 'string', default: '20,22,24' },
        repeats: { type: 'string', default: '7' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    const sizes = values.sizes.split(',').map(Number);
    if (!sizes.every((s) => Number.isInteger(s) && s >= 4 && s <= 26)) throw new Error(`--sizes must be log2 sizes from 4 to 26, comma-separated; got ${values.sizes}`);
    const repeats = Number(values.repeats);
    if (!Number.isInteger(repeats) || repeats < 1 || repeats > 1000) throw new Error(`--repeats must be an integer from 1 to 1000; got ${values.repeats}`);
    return { sizes, repeats };
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

const { sizes, repeats } = parseFlags();

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return 'n/a';
  }
}

/** Median time and the last run's page faults of `run` (one warm-up first); `setup` runs untimed before each. */
async function measure(engine: Engine, run: () => unknown, setup?: () => unknown): Promise<{ ms: number; faults: number }> {
  const times: number[] = [];
  let faults = 0;
  for (let i = 0; i <= repeats; i++) {
    await setup?.();
    await engine.finish();
    const before = process.resourceUsage().minorPageFault;
    const start = performance.now();
    await run();
    const ms = performance.now() - start;
    faults = process.resourceUsage().minorPageFault - before;
    if (i > 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], faults };
}

function sameBits(a: ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number }, b: typeof a): boolean {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** The same 32-bit patterns in any order. */
function sameMultiset(a: Float32Array, b: Float32Array): boolean {
  const sorted = (x: Float32Array) => new Uint32Array(x.buffer.slice(x.byteOffset, x.byteOffset + x.byteLength)).sort();
  return sameBits(sorted(a), sorted(b));
}

const gl = createHeadlessContext();
const engine = createEngine(gl);
const gpu = gpuOf(engine);
console.log(`renderer: ${headlessRenderer(gl)}`);
console.log(`node ${process.versions.node}; transparent_hugepage: ${readText('/sys/kernel/mm/transparent_hugepage/enabled')}; GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ?? ''}`);
console.log(`median of ${repeats} after one warm-up; faults: minor page faults of the last run`);
const report = (what: string, { ms, faults }: { ms: number; faults: number }, extra = '') =>
  console.log(`${what.padEnd(44)} ${ms.toFixed(2).padStart(9)} ms  ${String(faults).padStart(7)} faults  ${extra}`);

for (const log2n of sizes) {
  const n = 2 ** log2n;
  let seed = 7;
  const data = Float32Array.from({ length: n }, () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32));
  const stream = engine.stream(data);
  const { target } = viewOf(stream);
  console.log(`\n2^${log2n} = ${n} float32 (${(4 * n / 2 ** 20).toFixed(0)} MiB), ${target.width}×${target.height} R32UI, packed ${target.width / 4}×${target.height} RGBA32UI`);

  // The stages by hand, as src/readback.ts and src/adapter.ts do them.
  const packed = gpu.guard.run(() => gpu.target(target.width / 4, target.height, texelFormats.rgba32ui));
  const program = gpu.program({ name: 'pack-four.frag', fragment: packFour });
  const pack = () => gpu.guard.run(() => gpu.pass(program, packed, { u_source: target.texture }));
  const readInto = (out: Uint32Array) =>
    gpu.guard.run(() => {
      gl.bindFramebuffer(gl.FRAMEBUFFER, packed.framebuffer);
      gl.readPixels(0, 0, packed.width, packed.height, gl.RGBA_INTEGER, gl.UNSIGNED_INT, out);
      if (engine.caps.readPixelsRaisesError) gl.getError();
    });
  report('pack pass (+ gl.finish)', await measure(engine, () => {
    pack();
    gl.finish();
  }));
  pack();
  const warm = new Uint32Array(n).fill(1);
  const warmRead = await measure(engine, () => readInto(warm));
  report('readPixels warm', warmRead, `${((4 * n) / 1e6 / warmRead.ms).toFixed(1)} GB/s`);
  const okPacked = sameBits(warm, data);
  report('readPixels fresh (new Uint32Array)', await measure(engine, () => readInto(new Uint32Array(n))));
  report('readPixels fresh, pages pre-touched', await measure(engine, () => {
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i += 1024) out[i] = 0;
    readInto(out);
  }));
  report('fresh + fill (no GL: allocate, first touch)', await measure(engine, () => new Uint32Array(n).fill(1)));
  report('warm fill (no GL: memory bandwidth)', await measure(engine, () => warm.fill(2)));
  packed.free();

  // The library's path.
  let back: Float32Array = new Float32Array(0);
  report('stream.read()', await measure(engine, async () => {
    back = await stream.read();
  }), sameBits(back, data) && okPacked ? 'bit-exact' : 'MISMATCH');
  const reused = new Float32Array(n);
  report('stream.read(into), into reused', await measure(engine, async () => {
    back = await stream.read(reused);
  }), sameBits(back, data) ? 'bit-exact' : 'MISMATCH');
  const expected = data.filter((x) => x <= 0.5);
  report('compact (x <= 0.5) + count', await measure(engine, async () => {
    const result = engine.compact(stream, { keep: { lessEqual: 0.5 } });
    await result.count();
    result.dispose();
  }), `${expected.length} kept`);
  let kept: Float32Array = new Float32Array(0);
  report('compact (x <= 0.5) + read()', await measure(engine, async () => {
    const result = engine.compact(stream, { keep: { lessEqual: 0.5 } });
    kept = await result.read();
    result.dispose();
  }), sameMultiset(kept, expected) ? 'bit-exact (as a multiset: the default compaction keeps no order)' : 'MISMATCH');
  report('compact (x <= 0.5) + stream.read(into)', await measure(engine, async () => {
    const result = engine.compact(stream, { keep: { lessEqual: 0.5 } });
    kept = await result.stream.read(reused);
    result.dispose();
  }), sameMultiset(kept, expected) ? 'bit-exact (as a multiset)' : 'MISMATCH');
  const result = engine.compact(stream, { keep: { lessEqual: 0.5 } });
  await result.count();
  report('read() of that output, count known', await measure(engine, () => result.read()));
  result.dispose();
  stream.dispose();
}
engine.dispose();
