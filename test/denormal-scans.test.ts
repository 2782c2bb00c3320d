// Float scans and denormals (issue 25): GLSL ES lets a GPU flush denormals to zero in arithmetic.
// Measured: llvmpipe scans [d, d, d] (d = 2^-149, the smallest denormal) to [0, 0, 0] with Blelloch and
// reduce-then-scan but to [d, 0, 0] with recursive doubling: every output that comes out of an
// addition is flushed, and recursive doubling's first element is never added to (it is copied through),
// while the tree scans add 0 to it. docs/how-it-works.md "Numbers" states it; this test holds each renderer to one of two
// models per algorithm, and reports which:
//   ieee            outputs are the float32 sums: [d, 2d, 3d]
//   flush-to-zero   every added output is +0; the first may keep its bits where no pass adds to it
import { describe, expect, it, type TestContext } from 'vitest';
import type { ScanOptions } from '../src/index.js';
import { testEngine } from './support/engine.js';

const d = 2 ** -149;
const algorithms: Array<[string, ScanOptions]> = [
  ['recursive-doubling', { algorithm: 'recursive-doubling' }],
  ['blelloch', { algorithm: 'blelloch' }],
  ['reduce-then-scan', { algorithm: 'reduce-then-scan' }],
  ['blelloch, blocks of 16', { algorithm: 'blelloch', blockSize: 16 }],
];

describe('float scans of denormals', () => {
  it('each algorithm follows IEEE sums or flush-to-zero of every added output (which one is reported)', async (context: TestContext) => {
    const engine = await testEngine();
    const input = new Float32Array([d, d, d, d, d]);
    const stream = engine.stream(input);
    const ieee = [d, 2 * d, 3 * d, 4 * d, 5 * d];
    const report: string[] = [];
    try {
      for (const [label, options] of algorithms) {
        const sums = engine.scan(stream, options);
        const got = Array.from(await sums.read());
        sums.dispose();
        const isIeee = got.every((v, i) => v === ieee[i]);
        // +0 exactly (Object.is: not -0) after the first; the first is d (copied) or +0 (added to).
        const isFlush = got.slice(1).every((v) => Object.is(v, 0)) && (got[0] === d || Object.is(got[0], 0));
        expect(isIeee || isFlush, `${label}: [${got.join(', ')}] fits neither model`).toBe(true);
        report.push(`${label}: ${isIeee ? 'ieee' : `flush-to-zero (first element ${got[0] === d ? 'copied through' : 'flushed'})`}`);
      }
      // Exclusive scans start with 0 and never see a denormal sum on the first element.
      const exclusiveScan = engine.scan(stream, { exclusive: true });
      const exclusive = Array.from(await exclusiveScan.read());
      exclusiveScan.dispose();
      expect(Object.is(exclusive[0], 0)).toBe(true);
    } finally {
      stream.dispose();
    }
    context.annotate(`denormal scans on ${engine.caps.renderer}: ${report.join('; ')}`);
    console.log(`[denormal-scans] ${engine.caps.renderer}: ${report.join('; ')}`);
  });
});
