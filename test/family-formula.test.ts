// The family sweep's pass formula for engine.sort (bench/lib/family.mjs sortPasses: the "match"
// column of `npm run bench -- --sweep family`) against the draws the sort makes on this project's
// context. It once counted a copy per stream out of the select's pairs after the engine had joined
// them into one pass, and read "NO" at half the points of every browser sweep for a session before
// anyone saw it (2026-11-28). Sizes where it holds: from 2^16 (below, the counts' scan takes fewer
// draws than engine.scan of the same length, bench/README.md "The family sweep"); 2^18 and 2^20 add
// the directory on one attachment and with the select.
import { expect, it } from 'vitest';
import { BenchContext } from '../bench/lib/runner.mjs';
import { SWEEPS as ALL_SWEEPS } from '../bench/lib/sweeps.mjs';
import { testContext } from './support/engine.js';

interface FamilyPoint { op: string; method: string; series: string; n: number; engineOptions?: object }
interface SortPasses { formula: number; formulaText: string; countedDrawCalls: number }
// sweeps.mjs adds `family` after its object literal, so its inferred type lacks it.
const SWEEPS = ALL_SWEEPS as typeof ALL_SWEEPS & { family: { config(quick: boolean): object; points(config: object): unknown[] } };

it('the formula matches the draws of every sort case of the sweep at 2^16, 2^18 and 2^20 (each sort checked against the CPU)', async () => {
  const { gl, engine } = await testContext();
  const config = { ...SWEEPS.family.config(true), sizes: [2 ** 16, 2 ** 18, 2 ** 20] };
  const points = (SWEEPS.family.points(config) as FamilyPoint[])
    .filter((point) => point.op === 'sort' && point.method === 'gpu')
    .map((point) => ({ ...point, engineOptions: {} })); // the shared engine, not the sweep's own
  expect(points.length).toBe(3 * 4);
  const context = new BenchContext(engine, { repeats: 1, onRun: async () => {}, makeEngine: () => { throw new Error('not used'); }, gl });
  try {
    for (const point of points) {
      const trial = context.trial(point);
      await trial.warmUp(); // the sort, checked against the CPU's stable sort, its draws counted
      const { sortPasses } = trial.record([0]) as { sortPasses: SortPasses };
      expect(sortPasses.countedDrawCalls, `${point.series}, n = 2^${Math.log2(point.n)}: ${sortPasses.formulaText}`).toBe(sortPasses.formula);
    }
  } finally {
    context.release();
  }
});
