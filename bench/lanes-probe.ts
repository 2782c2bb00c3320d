// Issue 23's probe: what writing several colour attachments per pass buys the scans and the bitmask
// compaction. At each size it times, per call in batches of back-to-back calls (median of --repeats
// batches): the default scan and compaction (and both in copy passes of the run), reduce-then-scan
// with its lanes (the context's draw buffers), on one attachment (as headless-gl runs it without
// bench/gpu's shim) as the summing tree and as lanes of four per group, Blelloch, and the bitmask
// compaction at 50 % kept in its forms; plus the yardsticks (one R32UI copy pass, chained; a pass
// writing 8 RGBA32UI layers, 32 elements per fragment, into two targets in turn: llvmpipe drops a
// draw that the next one into the same framebuffer covers, probe-timing.ts#copyPassYardstick) and,
// with --profile, each pass's time at the largest size. Every result is checked against the CPU once
// per size.
// Usage: node bench/build-probe.mjs lanes-probe && bash scripts/with-display.sh node bench/tmp/lanes-probe.mjs
//          [--sizes 16,20,22,24] [--repeats 7] [--batch 10] [--profile] [--vec4] [--out DIR]
// On the GPU server: bench/README.md "Running on a headless NVIDIA GPU server" (the egl route's shim
// gives headless-gl its 8 draw buffers).
import { parseArgs } from 'node:util';
import type { Stream } from '../src/index.js';
import { texelFormats } from '../src/texel-format.js';
import { LANES_SHAPE } from '../src/scan/reduce-then-scan.js';
import { BITMASK_SHAPE } from '../src/compact/bitmask.js';
import { copyPassYardstick, passTimes, perCall as timePerCall, probeEngine, writeProbeJson } from './probe-timing.js';

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '16,20,22,24' },
    repeats: { type: 'string', default: '7' },
    batch: { type: 'string', default: '10' },
    profile: { type: 'boolean', default: false },
    vec4: { type: 'boolean', default: false },
    bottoms: { type: 'string', default: '8' },
    out: { type: 'string' },
  },
});
const sizes = options.sizes.split(',').map(Number);
const repeats = Number(options.repeats);
const batch = Number(options.batch);
/** Attachments of level 0's lanes to compare (LANES_SHAPE.bottom), each with the context's draw buffers above. */
const bottoms = options.bottoms.split(',').map(Number) as Array<2 | 4 | 8>;
if (!sizes.every((s) => Number.isInteger(s) && s >= 4 && s <= 24) || !(repeats >= 1) || !(batch >= 1)) {
  console.error('usage: lanes-probe [--sizes 16,20,22,24] [--repeats 7] [--batch 10] [--profile] [--vec4] [--out DIR]');
  process.exit(2);
}

const { engine, gpu, renderer } = probeEngine();
const drawBuffers = engine.caps.drawBuffers;
console.log(`renderer: ${renderer}; draw buffers: ${drawBuffers}; batches of ${batch}, median of ${repeats}; texture pool 1 GiB`);

const perCall = (run: () => void) => timePerCall(engine, run, { repeats, batch });

// 32 elements per fragment into 8 layers (4 per RGBA32UI texel), read as 32 R32UI texels of a row.
const wideWrite = `#version 300 es
precision highp float;
precision highp usampler2D;
uniform usampler2D u_source;
uniform int u_widthLog2;
layout(location = 0) out uvec4 o[8];
uvec4 four(uint first) {
  uint w = (1u << uint(u_widthLog2)) - 1u;
  uvec4 v;
  for (int k = 0; k < 4; ++k) { uint i = first + uint(k); v[k] = texelFetch(u_source, ivec2(int(i & w), int(i >> uint(u_widthLog2))), 0).r; }
  return v;
}
void main() {
  uint first = (uint(gl_FragCoord.y) * 256u + uint(gl_FragCoord.x)) * 32u;
  o[0] = four(first); o[1] = four(first + 4u); o[2] = four(first + 8u); o[3] = four(first + 12u);
  o[4] = four(first + 16u); o[5] = four(first + 20u); o[6] = four(first + 24u); o[7] = four(first + 28u);
}`;

interface Row { what: string; log2n: number; ms: number; passes?: number; drawBuffers?: number }
const rows: Row[] = [];
const report = (row: Row) => {
  rows.push(row);
  console.log(`2^${row.log2n} ${row.what.padEnd(52)} ${row.ms.toFixed(3).padStart(9)} ms${row.passes !== undefined ? `  ${row.passes} passes` : ''}`);
};

function check(label: string, got: ArrayLike<number>, expected: ArrayLike<number>, length: number): void {
  for (let i = 0; i < length; i++) {
    if (got[i] !== expected[i]) throw new Error(`${label}: element ${i} is ${got[i]}, the CPU says ${expected[i]}`);
  }
}

/** Runs `body` with the engine's passes limited to `buffers` attachments. */
async function withDrawBuffers<T>(buffers: 1 | 4 | 8, body: () => Promise<T>): Promise<T> {
  const saved = gpu.drawBuffers;
  gpu.drawBuffers = buffers;
  try {
    return await body();
  } finally {
    gpu.drawBuffers = saved;
  }
}

/** Runs `body` with the bitmask compaction searching per output element (no select pass). */
async function withoutSelect<T>(body: () => Promise<T>): Promise<T> {
  BITMASK_SHAPE.select = false;
  try {
    return await body();
  } finally {
    BITMASK_SHAPE.select = true;
  }
}

const profile: Record<string, number> = {};
for (const log2n of sizes) {
  const n = 2 ** log2n;
  const values = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i, 2654435761) >>> 27) & 7);
  const flags = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + 17, 2246822519) >>> 31) & 1);
  const stream = engine.stream(values);
  const flagStream: Stream<Uint32Array> = engine.stream(flags);
  const expectedScan = new Uint32Array(n);
  for (let i = 0, sum = 0; i < n; i++) expectedScan[i] = sum = (sum + values[i]) >>> 0;
  const expectedKept = values.filter((_, i) => flags[i] !== 0);

  // Yardsticks.
  // The copy pass: chained, so that no renderer drops one (probe-timing.ts#copyPassYardstick).
  const copyMs = await copyPassYardstick(engine, { texture: stream.texture, width: stream.layout.width, height: stream.layout.height }, { repeats, batch });
  report({ what: 'copy pass, R32UI, 1 element per fragment (chained)', log2n, ms: copyMs.chained });
  report({ what: `copy pass, ${batch} back to back into one target`, log2n, ms: copyMs.backToBack });
  if (drawBuffers === 8) {
    // Two targets in turn: no draw covers the one before it in the same framebuffer.
    const wide = [0, 1].map(() => gpu.target(256, Math.max(1, n / 32 / 256), texelFormats.rgba32ui, 8));
    const program = gpu.program({ name: 'wide-write', fragment: wideWrite });
    let turn = 0;
    report({ what: 'write 8 layers, 32 elements per fragment', log2n, ms: await perCall(() => gpu.pass(program, wide[turn++ % 2]!, { u_source: stream.texture, u_widthLog2: stream.layout.widthLog2 })) });
    for (const target of wide) target.free();
  }

  const scanCase = async (what: string, options: Parameters<typeof engine.scan>[1], buffers: 1 | 4 | 8) =>
    withDrawBuffers(buffers, async () => {
      const once = engine.scan(stream, options);
      check(`${what} 2^${log2n}`, await once.read(), expectedScan, n);
      once.dispose();
      const passes = engine.lastScanStats!.passes;
      report({ what, log2n, ms: await perCall(() => engine.scan(stream, options).dispose()), passes, drawBuffers: buffers });
    });
  const compactCase = async (what: string, buffers: 1 | 4 | 8) =>
    withDrawBuffers(buffers, async () => {
      const once = engine.compact(stream, { keep: { flags: flagStream }, algorithm: 'bitmask' });
      const count = await once.count();
      if (count !== expectedKept.length) throw new Error(`${what} 2^${log2n}: count ${count}, the CPU says ${expectedKept.length}`);
      check(`${what} 2^${log2n}`, await once.stream.read(), expectedKept, count);
      const passes = once.stats.passes;
      once.dispose();
      report({ what, log2n, ms: await perCall(() => engine.compact(stream, { keep: { flags: flagStream }, algorithm: 'bitmask' }).dispose()), passes, drawBuffers: buffers });
    });
  await scanCase('scan, default', undefined, drawBuffers);
  const scanDefaultMs = rows[rows.length - 1].ms;
  await compactCase('compact 50 %, default (bitmask)', drawBuffers);
  console.log(`2^${log2n} in copy passes (chained) of this run: scan, default ${(scanDefaultMs / copyMs.chained).toFixed(2)}; compact 50 %, default ${(rows[rows.length - 1].ms / copyMs.chained).toFixed(2)}`);
  const defaultBottom = LANES_SHAPE.bottom;
  const defaultAboveTexels = LANES_SHAPE.aboveTexels;
  for (const bottom of drawBuffers > 1 ? bottoms : []) {
    LANES_SHAPE.bottom = bottom;
    LANES_SHAPE.aboveTexels = 0; // lanes at every size here, whatever the engine would pick
    await scanCase(`scan, reduce-then-scan, lanes (${bottom} at level 0, ${drawBuffers} above)`, { algorithm: 'reduce-then-scan' }, drawBuffers);
    await compactCase(`compact 50 %, bitmask, lanes (${bottom}/${drawBuffers})`, drawBuffers);
    await withoutSelect(() => compactCase(`compact 50 %, bitmask without select, lanes (${bottom}/${drawBuffers})`, drawBuffers));
    BITMASK_SHAPE.paddingInOutput = !BITMASK_SHAPE.paddingInOutput;
    await compactCase(`compact 50 %, bitmask, padding ${BITMASK_SHAPE.paddingInOutput ? 'written by the output pass' : 'in its own pass'}, lanes (${bottom}/${drawBuffers})`, drawBuffers);
    BITMASK_SHAPE.paddingInOutput = !BITMASK_SHAPE.paddingInOutput;
    BITMASK_SHAPE.selectValues = !BITMASK_SHAPE.selectValues;
    await compactCase(`compact 50 %, bitmask, select writes ${BITMASK_SHAPE.selectValues ? 'values' : 'positions'}, lanes (${bottom}/${drawBuffers})`, drawBuffers);
    BITMASK_SHAPE.selectValues = !BITMASK_SHAPE.selectValues;
    if (drawBuffers === 8) {
      BITMASK_SHAPE.selectAttachments = 4;
      await compactCase(`compact 50 %, bitmask, select of 16, lanes (${bottom}/${drawBuffers})`, drawBuffers);
      BITMASK_SHAPE.selectAttachments = 8;
    }
  }
  LANES_SHAPE.bottom = defaultBottom;
  LANES_SHAPE.aboveTexels = defaultAboveTexels;
  const defaultMinDrawBuffers = LANES_SHAPE.minDrawBuffers;
  LANES_SHAPE.minDrawBuffers = Infinity; // the summing tree, as one attachment ran before 2026-11-26
  await scanCase('scan, reduce-then-scan, summing tree (1 attachment)', { algorithm: 'reduce-then-scan' }, 1);
  LANES_SHAPE.minDrawBuffers = defaultMinDrawBuffers;
  LANES_SHAPE.aboveTexels = 0; // lanes at every size here, as in the cases above
  await scanCase('scan, reduce-then-scan, lanes of 1 attachment (4 per group)', { algorithm: 'reduce-then-scan' }, 1);
  LANES_SHAPE.aboveTexels = defaultAboveTexels;
  await scanCase('scan, blelloch', { algorithm: 'blelloch' }, drawBuffers);

  if (options.vec4) {
    // --vec4: whole-stream scans of four-component elements (n texels): on one attachment a group of
    // lanes would hold one lane, so reduce-then-scan is the summing tree there (against Blelloch, the
    // default above 2^21 texels until 2026-11-26); with the context's draw buffers, lanes. "default
    // (1 attachment)" limits the passes to one attachment, not the engine's choice (which reads
    // engine.caps.drawBuffers: the same 'reduce-then-scan' since 2026-11-26).
    const words = Uint32Array.from({ length: 4 * n }, (_, i) => (Math.imul(i, 2246822519) >>> 28) & 7);
    const vec4 = engine.stream(words, { components: 4 });
    const expected = new Uint32Array(4 * n);
    for (let c = 0; c < 4; c++) for (let i = 0, sum = 0; i < n; i++) expected[4 * i + c] = sum = (sum + words[4 * i + c]) >>> 0;
    const vec4Case = (what: string, options: Parameters<typeof engine.scan>[1], buffers: 1 | 4 | 8) =>
      withDrawBuffers(buffers, async () => {
        const once = engine.scan(vec4, options);
        check(`${what} 2^${log2n}`, await once.read(), expected, 4 * n);
        once.dispose();
        const passes = engine.lastScanStats!.passes;
        report({ what, log2n, ms: await perCall(() => engine.scan(vec4, options).dispose()), passes, drawBuffers: buffers });
      });
    await vec4Case('vec4 scan, default (1 attachment)', undefined, 1);
    await vec4Case('vec4 scan, reduce-then-scan = summing tree (1 attachment)', { algorithm: 'reduce-then-scan' }, 1);
    await vec4Case('vec4 scan, blelloch (1 attachment)', { algorithm: 'blelloch' }, 1);
    if (drawBuffers > 1) await vec4Case(`vec4 scan, default (${drawBuffers} attachments)`, undefined, drawBuffers);
    vec4.dispose();
  }

  await compactCase('compact 50 %, bitmask, summing tree (1)', 1);
  BITMASK_SHAPE.paddingInOutput = !BITMASK_SHAPE.paddingInOutput;
  await compactCase(`compact 50 %, bitmask, summing tree (1), padding ${BITMASK_SHAPE.paddingInOutput ? 'written by the output pass' : 'in its own pass'}`, 1);
  BITMASK_SHAPE.paddingInOutput = !BITMASK_SHAPE.paddingInOutput;
  {
    // The default compaction and a read of the kept values into a reused array (awaited each time).
    const into = new Uint32Array(n);
    const once = async () => {
      const result = engine.compact(stream, { keep: { flags: flagStream } });
      await result.stream.read(into);
      result.dispose();
    };
    await once();
    const times: number[] = [];
    for (let r = 0; r < repeats; r++) {
      const start = performance.now();
      await once();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    check(`compact + read 2^${log2n}`, into, expectedKept, expectedKept.length);
    report({ what: 'compact 50 %, default, + read(into) a reused array', log2n, ms: times[Math.floor(times.length / 2)] });
  }

  if (options.profile && log2n === Math.max(...sizes)) {
    const profileOf = (label: string, run: () => void) => {
      for (const [pass, ms] of passTimes(engine, run)) {
        const key = `${label}: ${pass}`;
        profile[key] = ms;
        console.log(`  profile 2^${log2n} ${key.padEnd(70)} ${ms.toFixed(3)} ms`);
      }
    };
    profileOf('scan', () => engine.scan(stream, { algorithm: 'reduce-then-scan' }).dispose());
    profileOf('compact', () => engine.compact(stream, { keep: { flags: flagStream }, algorithm: 'bitmask' }).dispose());
    BITMASK_SHAPE.paddingInOutput = !BITMASK_SHAPE.paddingInOutput;
    profileOf(`compact, padding ${BITMASK_SHAPE.paddingInOutput ? 'written by the output pass' : 'in its own pass'}`, () => engine.compact(stream, { keep: { flags: flagStream }, algorithm: 'bitmask' }).dispose());
    BITMASK_SHAPE.paddingInOutput = !BITMASK_SHAPE.paddingInOutput;
    BITMASK_SHAPE.selectValues = !BITMASK_SHAPE.selectValues;
    profileOf(`compact, select writes ${BITMASK_SHAPE.selectValues ? 'values' : 'positions'}`, () => engine.compact(stream, { keep: { flags: flagStream }, algorithm: 'bitmask' }).dispose());
    BITMASK_SHAPE.selectValues = !BITMASK_SHAPE.selectValues;
    await withoutSelect(async () => profileOf('compact without select', () => engine.compact(stream, { keep: { flags: flagStream }, algorithm: 'bitmask' }).dispose()));
  }
  stream.dispose();
  flagStream.dispose();
}

if (options.out) writeProbeJson(options.out, 'lanes-probe', { renderer, drawBuffers, batch, repeats, rows, profile });
engine.dispose();
