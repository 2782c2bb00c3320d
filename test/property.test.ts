// Random streams, predicates and options against the CPU reference (fast-check shrinks a failure
// to a minimal case). GLCOMPACT_PROPERTY_RUNS sets the number of cases (default: a CI-sized run).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../src/index.js';
import { testEngine } from './support/engine.js';

const runs = Number((globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.GLCOMPACT_PROPERTY_RUNS ?? 60);

const layouts = ['uniform', 'runs', 'lone-per-block', 'alternating', 'all', 'none'] as const;

function keptPattern(layout: (typeof layouts)[number], n: number, density: number, blockSize: number, seed: number): boolean[] {
  let a = seed >>> 0;
  const next = () => ((a = (Math.imul(a, 1664525) + 1013904223) >>> 0) / 4294967296);
  switch (layout) {
    case 'uniform': return Array.from({ length: n }, () => next() < density);
    case 'runs': {
      const out: boolean[] = [];
      while (out.length < n) {
        const keep = next() < density;
        const run = 1 + Math.floor(next() * 300);
        for (let i = 0; i < run && out.length < n; i++) out.push(keep);
      }
      return out;
    }
    case 'lone-per-block': return Array.from({ length: n }, (_, i) => i % blockSize === Math.floor(density * (blockSize - 1)));
    case 'alternating': return Array.from({ length: n }, (_, i) => i % 2 === 0);
    case 'all': return new Array(n).fill(true);
    case 'none': return new Array(n).fill(false);
  }
}

const caseArbitrary = fc.record({
  n: fc.oneof(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 70_000 }), fc.constantFrom(2048, 2049, 4096 * 3 + 1)),
  layout: fc.constantFrom(...layouts),
  density: fc.double({ min: 0, max: 1, noNaN: true }),
  seed: fc.integer(),
  algorithm: fc.constantFrom('jumping-jack', 'horn', 'horn-global', 'auto'),
  blockSize: fc.constantFrom(16, 32, 64, 128, 256, 512, 1024, 2048),
  output: fc.constantFrom('values', 'indices'),
  scan: fc.constantFrom('recursive-doubling', 'blelloch'),
  predicate: fc.constantFrom('nonzero', 'lessEqual', 'greaterThan', 'glsl'),
  type: fc.constantFrom('uint32', 'int32', 'float32'),
});

type Case = typeof caseArbitrary extends fc.Arbitrary<infer T> ? T : never;

async function checkCase(engine: Engine, c: Case): Promise<void> {
  const kept = keptPattern(c.layout, c.n, c.density, c.blockSize, c.seed);
  // Values encode "kept" per predicate: kept elements get 10 + i, others 0 or -5 (distinct from kept ones).
  const raw = kept.map((k, i) => (k ? 10 + i : c.type === 'uint32' ? 0 : -5 * (i % 2)));
  const data = c.type === 'uint32' ? Uint32Array.from(raw) : c.type === 'int32' ? Int32Array.from(raw) : Float32Array.from(raw);
  const keep =
    c.predicate === 'nonzero' ? ('nonzero' as const)
      : c.predicate === 'lessEqual' ? { lessEqual: 9.5 }
        : c.predicate === 'greaterThan' ? { greaterThan: 9.5 }
          : { glsl: 'return value.x > 9.0;' };
  const keepFn = (v: number) => (c.predicate === 'nonzero' ? v !== 0 : c.predicate === 'lessEqual' ? v <= 9.5 : v > 9.5 || (c.predicate === 'glsl' && v > 9));
  const expectedIdx: number[] = [];
  data.forEach((v, i) => keepFn(v) && expectedIdx.push(i));

  const stream = engine.stream(data);
  const global = c.algorithm === 'horn-global';
  const algorithm = global ? 'horn' : (c.algorithm as 'jumping-jack' | 'horn' | 'auto');
  const result = engine.compact(stream, { keep, algorithm, global, blockSize: c.blockSize, output: c.output, scan: c.scan });
  try {
    expect(await result.count()).toBe(expectedIdx.length);
    const got = Array.from(await result.read());
    const expected = c.output === 'indices' ? expectedIdx : expectedIdx.map((i) => data[i]);
    const ordered = algorithm === 'horn';
    const cmp = (a: number, b: number) => a - b;
    expect(ordered ? got : got.sort(cmp)).toEqual(ordered ? expected : expected.slice().sort(cmp));
  } finally {
    result.dispose();
    stream.dispose();
  }
}

describe('random compactions agree with the CPU reference', () => {
  it(`${runs} random cases`, async () => {
    const engine = await testEngine();
    await fc.assert(fc.asyncProperty(caseArbitrary, (c) => checkCase(engine, c)), { numRuns: runs, seed: 20261121 });
  });
});
