// Determinism: the same input and options give the same output, run to run and platform to
// platform. A fixed set of compactions and scans is hashed (FNV-1a over the output bytes, the
// count first): Horn, the HistoPyramid and the scans raw, Jumping Jack and the hybrid ('auto') sorted, as they keep
// no order. The hashes are constants recorded here, and the same constants must pass on
// headless-gl and in Chromium (whose concatenation path differs: vertex fetch vs transform
// feedback). Within one platform, Jumping Jack's and the hybrid's raw output must also be
// identical from run to run, and in a second engine.
import { describe, expect, it } from 'vitest';
import { createEngine, type CompactOptions, type Engine, type Stream } from '../src/index.js';
import { testContext } from './support/engine.js';
import { random, sortedTuples } from './support/reference.js';

/** FNV-1a, 32 bits, over bytes; chained through `hash`. */
function fnv1a(bytes: Uint8Array, hash = 0x811c9dc5): number {
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193) >>> 0;
  return hash;
}

const hex = (h: number) => `0x${h.toString(16).padStart(8, '0')}`;
const bytesOf = (a: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** The fixed inputs (mulberry32, fixed seeds). */
function inputs() {
  const a = random(1);
  const b = random(2);
  const c = random(3);
  return {
    // uint32, 70,001 elements, ~40 % non-zero
    u: Uint32Array.from({ length: 70_001 }, () => (a() < 0.4 ? 1 + Math.floor(a() * 2 ** 32 - 1) : 0)),
    // float32, 2^17 + 5 elements in [-1, 1): random mantissas, so float scans round on every add
    f: Float32Array.from({ length: 2 ** 17 + 5 }, () => b() * 2 - 1),
    // int32 vec4s, 9,999 elements
    i4: Int32Array.from({ length: 4 * 9_999 }, () => Math.floor(c() * 2000) - 1000),
  };
}

type Op =
  | { kind: 'compact'; name: string; input: 'u' | 'f' | 'i4'; options: CompactOptions }
  | { kind: 'scan'; name: string; input: 'u' | 'f' | 'i4'; options: Parameters<Engine['scan']>[1] };

const compactions: Array<[string, 'u' | 'f' | 'i4', CompactOptions]> = [
  ['u nonzero horn 256 values', 'u', { keep: 'nonzero', algorithm: 'horn' }],
  ['u nonzero horn 16 indices', 'u', { keep: 'nonzero', algorithm: 'horn', blockSize: 16, output: 'indices', scan: 'recursive-doubling', radix: 2 }],
  ['u nonzero horn global indices', 'u', { keep: 'nonzero', algorithm: 'horn', global: true, output: 'indices' }],
  ['u nonzero jumping-jack 256 values', 'u', { keep: 'nonzero', algorithm: 'jumping-jack' }],
  ['u nonzero jumping-jack 2048 indices', 'u', { keep: 'nonzero', algorithm: 'jumping-jack', blockSize: 2048, output: 'indices' }],
  ['u nonzero auto 64 values', 'u', { keep: 'nonzero', algorithm: 'auto', blockSize: 64, scan: 'recursive-doubling', radix: 8 }],
  ['f lessEqual 0 horn values', 'f', { keep: { lessEqual: 0 }, algorithm: 'horn', blockSize: 512 }],
  ['f greaterThan 0.9 jumping-jack values', 'f', { keep: { greaterThan: 0.9 }, algorithm: 'jumping-jack', blockSize: 32 }],
  ['f glsl auto indices', 'f', { keep: { glsl: 'return abs(value.x) < 0.25 || index % 97u == 0u;' }, algorithm: 'auto', output: 'indices' }],
  ['i4 glsl horn values', 'i4', { keep: { glsl: 'return value.x + value.w > 0;' }, algorithm: 'horn', blockSize: 128 }],
  ['i4 glsl jumping-jack values', 'i4', { keep: { glsl: 'return value.x + value.w > 0;' }, algorithm: 'jumping-jack', blockSize: 1024 }],
  ['i4 glsl y auto indices', 'i4', { keep: { glsl: 'return value.y > 500;' }, algorithm: 'auto', output: 'indices' }],
  ['u nonzero histopyramid indices', 'u', { keep: 'nonzero', algorithm: 'histopyramid', output: 'indices' }],
  ['f lessEqual 0 histopyramid values', 'f', { keep: { lessEqual: 0 }, algorithm: 'histopyramid' }],
  ['i4 glsl histopyramid values', 'i4', { keep: { glsl: 'return value.x + value.w > 0;' }, algorithm: 'histopyramid' }],
  ['u nonzero bitmask indices', 'u', { keep: 'nonzero', algorithm: 'bitmask', output: 'indices' }],
  ['f lessEqual 0 bitmask values', 'f', { keep: { lessEqual: 0 }, algorithm: 'bitmask' }],
  ['i4 glsl bitmask values', 'i4', { keep: { glsl: 'return value.x + value.w > 0;' }, algorithm: 'bitmask' }],
  ['u nonzero horn 256 values, scan reduce-then-scan', 'u', { keep: 'nonzero', algorithm: 'horn', scan: 'reduce-then-scan' }],
  ['f greaterThan 0.9 auto 64 values, scan reduce-then-scan', 'f', { keep: { greaterThan: 0.9 }, algorithm: 'auto', blockSize: 64, scan: 'reduce-then-scan' }],
  ['i4 glsl jumping-jack 1024 values, scan reduce-then-scan', 'i4', { keep: { glsl: 'return value.x + value.w > 0;' }, algorithm: 'jumping-jack', blockSize: 1024, scan: 'reduce-then-scan' }],
];

const ops: Op[] = [
  ...compactions.map(([name, input, options]) => ({ kind: 'compact' as const, name, input, options })),
  { kind: 'scan', name: 'u scan blelloch', input: 'u', options: { algorithm: 'blelloch' } },
  { kind: 'scan', name: 'u scan recursive-doubling exclusive radix 4', input: 'u', options: { algorithm: 'recursive-doubling', exclusive: true, radix: 4 } },
  { kind: 'scan', name: 'f scan blelloch', input: 'f', options: { algorithm: 'blelloch' } },
  { kind: 'scan', name: 'f scan recursive-doubling radix 2', input: 'f', options: { algorithm: 'recursive-doubling', radix: 2 } },
  { kind: 'scan', name: 'f scan blelloch segmented 256 exclusive', input: 'f', options: { algorithm: 'blelloch', blockSize: 256, exclusive: true } },
  { kind: 'scan', name: 'i4 scan recursive-doubling radix 16', input: 'i4', options: { algorithm: 'recursive-doubling', radix: 16 } },
  { kind: 'scan', name: 'u scan reduce-then-scan', input: 'u', options: { algorithm: 'reduce-then-scan' } },
  { kind: 'scan', name: 'u scan reduce-then-scan exclusive', input: 'u', options: { algorithm: 'reduce-then-scan', exclusive: true } },
  { kind: 'scan', name: 'u scan reduce-then-scan segmented 512 exclusive', input: 'u', options: { algorithm: 'reduce-then-scan', blockSize: 512, exclusive: true } },
  { kind: 'scan', name: 'i4 scan reduce-then-scan', input: 'i4', options: { algorithm: 'reduce-then-scan' } },
  { kind: 'scan', name: 'f scan reduce-then-scan', input: 'f', options: { algorithm: 'reduce-then-scan' } },
  { kind: 'scan', name: 'f scan reduce-then-scan segmented 256 exclusive', input: 'f', options: { algorithm: 'reduce-then-scan', blockSize: 256, exclusive: true } },
];

/**
 * Float reduce-then-scan: its order of additions (the tree's shape) is still being tuned, so its
 * hashes are not recorded yet; it must still give the same bytes run to run and in a second
 * engine. (test/float-scan-order.test.ts bounds its error.) Record them once the shape is settled.
 */
const runToRunOnly = new Set(['f scan reduce-then-scan', 'f scan reduce-then-scan segmented 256 exclusive']);

/**
 * Hashes recorded on headless-gl (llvmpipe through ANGLE/GLX, vertex-fetch concatenation) and
 * checked equal in headless Chromium (SwiftShader, transform-feedback concatenation). The float
 * scans depend on IEEE float32 addition in the order each algorithm defines, which both have.
 * (Jumping Jack's and the hybrid's raw outputs were identical on the two platforms as well, but
 * only their sorted form is part of the contract.) Jumping Jack's sorted indices equal Horn's
 * (0xe611d316): same multiset. The HistoPyramid and the bitmask keep input order, so their hashes
 * equal Horn's; a block compaction's hash does not depend on its block scan. Integer scans are
 * exact: reduce-then-scan's equal the other scans' (and the segmented one, recorded from the CPU
 * reference, is the reference's).
 */
const expectedHashes: Record<string, string> = {
  'u nonzero horn 256 values': '0x061a1ac1',
  'u nonzero horn 16 indices': '0xe611d316',
  'u nonzero horn global indices': '0xe611d316',
  'u nonzero jumping-jack 256 values': '0x83b16095',
  'u nonzero jumping-jack 2048 indices': '0xe611d316',
  'u nonzero auto 64 values': '0x83b16095',
  'f lessEqual 0 horn values': '0xd2eae525',
  'f greaterThan 0.9 jumping-jack values': '0xa5a374ea',
  'f glsl auto indices': '0xb513172c',
  'i4 glsl horn values': '0x3c1fff9a',
  'i4 glsl jumping-jack values': '0xdc5dc38e',
  'i4 glsl y auto indices': '0x2f462884',
  'u nonzero histopyramid indices': '0xe611d316',
  'f lessEqual 0 histopyramid values': '0xd2eae525',
  'i4 glsl histopyramid values': '0x3c1fff9a',
  'u nonzero bitmask indices': '0xe611d316',
  'f lessEqual 0 bitmask values': '0xd2eae525',
  'i4 glsl bitmask values': '0x3c1fff9a',
  'u nonzero horn 256 values, scan reduce-then-scan': '0x061a1ac1',
  'f greaterThan 0.9 auto 64 values, scan reduce-then-scan': '0xa5a374ea',
  'i4 glsl jumping-jack 1024 values, scan reduce-then-scan': '0xdc5dc38e',
  'u scan blelloch': '0x11656404',
  'u scan recursive-doubling exclusive radix 4': '0x511b9bca',
  'f scan blelloch': '0x78de1d47',
  'f scan recursive-doubling radix 2': '0xd4071155',
  'f scan blelloch segmented 256 exclusive': '0x9c954623',
  'i4 scan recursive-doubling radix 16': '0x2f656ba3',
  'u scan reduce-then-scan': '0x11656404',
  'u scan reduce-then-scan exclusive': '0x511b9bca',
  'u scan reduce-then-scan segmented 512 exclusive': '0x94eb2bdb',
  'i4 scan reduce-then-scan': '0x2f656ba3',
};

interface Run {
  /** Hash per op: raw for Horn, the HistoPyramid and scans, sorted for the order-free algorithms. */
  hashes: Record<string, string>;
  /** Raw output bytes' hash per op, for the run-to-run check of the order-free algorithms. */
  raw: Record<string, string>;
}

async function runAll(engine: Engine): Promise<Run> {
  const data = inputs();
  const streams: Record<string, Stream> = {
    u: engine.stream(data.u),
    f: engine.stream(data.f),
    i4: engine.stream(data.i4, { components: 4 }),
  };
  const hashes: Record<string, string> = {};
  const raw: Record<string, string> = {};
  try {
    for (const op of ops) {
      const stream = streams[op.input];
      const result = op.kind === 'compact' ? engine.compact(stream, op.options) : engine.scan(stream, op.options);
      const output = op.kind === 'compact' ? result as ReturnType<Engine['compact']> : undefined;
      const outStream = output ? output.stream : (result as Stream);
      const count = await outStream.readLength();
      const read = await outStream.read();
      const words = new Uint32Array(read.buffer, read.byteOffset, read.length).slice();
      const components = op.kind === 'compact' && op.options.output === 'indices' ? 1 : stream.components;
      const ordered = op.kind === 'scan' || op.options.algorithm === 'horn' || op.options.algorithm === 'histopyramid' || op.options.algorithm === 'bitmask';
      const countBytes = bytesOf(Uint32Array.of(count));
      raw[op.name] = hex(fnv1a(bytesOf(words), fnv1a(countBytes)));
      hashes[op.name] = ordered ? raw[op.name] : hex(fnv1a(bytesOf(sortedTuples(words, components)), fnv1a(countBytes)));
      outStream.dispose();
    }
  } finally {
    for (const s of Object.values(streams)) s.dispose();
  }
  return { hashes, raw };
}

describe('determinism', () => {
  it('the same compactions and scans hash to the recorded constants, run after run and in a second engine', async () => {
    const { gl, engine, platform } = await testContext();
    const first = await runAll(engine);
    const second = await runAll(engine);
    const other = createEngine(gl);
    let third: Run;
    try {
      third = await runAll(other);
    } finally {
      other.dispose();
    }
    console.log(`determinism on ${platform} (${engine.caps.renderer}, concat ${engine.caps.transformFeedback ? 'transform-feedback' : 'vertex-fetch'}):\n${JSON.stringify(first, null, 1)}`);
    // run to run, raw bytes, every algorithm (Jumping Jack and hybrid included)
    expect(second.raw).toEqual(first.raw);
    expect(third.raw).toEqual(first.raw);
    // against the constants, which both platforms must meet (every op has one, or is run-to-run only)
    for (const op of ops) expect(op.name in expectedHashes !== runToRunOnly.has(op.name), `${op.name}: a constant or run-to-run only`).toBe(true);
    expect(Object.fromEntries(Object.entries(first.hashes).filter(([name]) => !runToRunOnly.has(name)))).toEqual(expectedHashes);
  });
});
