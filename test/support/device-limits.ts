// Helpers of the device-limit tests (test/device-limits.test.ts, test/device-limits.node.test.ts):
// a record of every texture size the engine asks the context for, and one run of every path on a
// stream, each result compared with the CPU.
import { expect } from 'vitest';
import type { CompactOptions, Engine, ScanOptions } from '../../src/index.js';
import { expectSameBits } from './engine.js';
import { referenceScan } from './reference.js';

export interface TextureSizes {
  /** Every allocation: the call and the sides it asked for. */
  readonly allocations: Array<{ call: string; sides: number[] }>;
  /** The largest side asked for so far (0 before any). */
  largest(): number;
  restore(): void;
}

/**
 * Records the sides of every texImage2D/texStorage2D/texImage3D/texStorage3D on `gl` until restore().
 * Wraps the context object's own properties, as test/support/gl-objects.ts does; the engine looks
 * these methods up at each call, so its allocations pass through (before or after createEngine).
 */
export function recordTextureSizes(gl: WebGL2RenderingContext): TextureSizes {
  const target = gl as unknown as Record<string, (...args: unknown[]) => unknown>;
  const allocations: Array<{ call: string; sides: number[] }> = [];
  const restore: Array<() => void> = [];
  // Where each call names its sides (texImage2D's 6-argument form takes them from its source).
  const sideArguments: Record<string, number[]> = { texImage2D: [3, 4], texStorage2D: [3, 4], texImage3D: [3, 4, 5], texStorage3D: [3, 4, 5] };
  for (const [name, indices] of Object.entries(sideArguments)) {
    const hadOwn = Object.prototype.hasOwnProperty.call(target, name);
    const original = target[name];
    target[name] = function (...args: unknown[]) {
      const sides = name === 'texImage2D' && args.length < 8
        ? [(args[5] as { width: number }).width, (args[5] as { height: number }).height]
        : indices.map((i) => args[i] as number);
      allocations.push({ call: name, sides });
      return original.apply(gl, args);
    };
    restore.push(() => {
      if (hadOwn) target[name] = original;
      else delete target[name];
    });
  }
  return {
    allocations,
    largest: () => allocations.reduce((most, { sides }) => Math.max(most, ...sides), 0),
    restore: () => restore.reverse().forEach((undo) => undo()),
  };
}

/** Deterministic uint32 data, about half of it ≤ 499 (the compactions below keep those). */
export function limitTestData(n: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 0) % 1000);
}

const scans: ScanOptions[] = [
  {},
  { algorithm: 'blelloch', exclusive: true },
  { algorithm: 'recursive-doubling' },
  { algorithm: 'reduce-then-scan' },
  { blockSize: 64, exclusive: true },
];

/**
 * Every compaction path (values or indices), each with a keep that takes the elements ≤ 499.
 * Jumping Jack and the hybrid do not keep order: compared as sorted sets.
 */
function compactions(engine: Engine): Array<{ options: CompactOptions; ordered: boolean }> {
  const keep = { lessEqual: 499 };
  return [
    { options: { keep }, ordered: true },
    { options: { keep, algorithm: 'bitmask', output: 'indices' }, ordered: true },
    { options: { keep, algorithm: 'histopyramid' }, ordered: true },
    { options: { keep, algorithm: 'horn', global: true, output: 'indices' }, ordered: true },
    { options: { keep, algorithm: 'horn', concat: 'vertex-fetch' }, ordered: true },
    ...(engine.caps.transformFeedback ? [{ options: { keep, algorithm: 'horn', concat: 'transform-feedback', blockSize: 2048 } as CompactOptions, ordered: true }] : []),
    { options: { keep, algorithm: 'jumping-jack', order: 'any', blockSize: 16 }, ordered: false },
    { options: { keep, order: 'any', blockSize: 128, output: 'indices' }, ordered: false },
  ];
}

/**
 * Runs every scan and compaction path on a stream of `data` (a scan of each compaction's output too:
 * its length is still on the GPU), and compares every result with the CPU, bit for bit. 'few': for
 * streams of millions of elements, one of each kind of pass (both whole-stream scans, a segmented
 * one; the bitmask, the HistoPyramid, blocks with Horn and with the hybrid), one scan of an output.
 */
export async function expectEveryPathExact(engine: Engine, data: Uint32Array, label: string, paths: 'all' | 'few' = 'all'): Promise<void> {
  const n = data.length;
  const stream = engine.stream(data);
  try {
    expectSameBits((await stream.read()) as Uint32Array, data, `${label}: read`);
    const few = paths === 'few';
    for (const options of few ? [scans[1], scans[3], scans[4]] : scans) {
      const scanned = engine.scan(stream, options);
      expectSameBits((await scanned.read()) as Uint32Array, referenceScan(data, options), `${label}: scan ${JSON.stringify(options)}`);
      scanned.dispose();
    }
    const keptIndices: number[] = [];
    for (let i = 0; i < n; i++) if (data[i] <= 499) keptIndices.push(i);
    const indices = Uint32Array.from(keptIndices);
    const values = Uint32Array.from(keptIndices, (i) => data[i]);
    const chosen = compactions(engine);
    let scannedOne = false;
    for (const { options, ordered } of few ? [chosen[0], chosen[2], chosen[4], chosen[chosen.length - 1]] : chosen) {
      const what = `${label}: compact ${JSON.stringify(options)}`;
      const result = engine.compact(stream, options);
      try {
        expect(await result.count(), what).toBe(indices.length);
        const expected = options.output === 'indices' ? indices : values;
        const got = (await result.read()) as Uint32Array;
        expectSameBits(ordered ? got : got.slice().sort(), ordered ? expected : expected.slice().sort(), what);
        if (ordered && !(few && scannedOne)) {
          scannedOne = true;
          // its output's length is on the GPU: a scan of it reads the length there
          const sums = engine.scan(result.stream, { exclusive: true });
          expectSameBits((await sums.read()) as Uint32Array, referenceScan(expected, { exclusive: true }), `${what}, then scanned`);
          sums.dispose();
        }
      } finally {
        result.dispose();
      }
    }
  } finally {
    stream.dispose();
  }
}
