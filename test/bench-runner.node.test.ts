// bench/lib/runner.mjs: the CLI's --gpu-warm-ms. A GPU left idle while host baselines run drops its
// clocks (H200, 2026-11-28: the family sweep's 2^20 sort read 22.0 ms cold against 6.41 warmed), so
// each timed sample of a GPU point follows that long of untimed calls; host points and the loops of
// compact-loop (whose timeOnce records each loop's submit time) are left alone.
import { expect, it } from 'vitest';
import { BenchContext } from '../bench/lib/runner.mjs';

/** A trial whose calls take ~1 ms each and are counted. */
function countingTrial() {
  const trial = {
    calls: 0,
    async warmUp() {},
    async timeOnce() {
      trial.calls++;
      for (const start = performance.now(); performance.now() - start < 1; );
      return 1;
    },
    record(times: number[]) { return { times }; },
  };
  return trial;
}

async function callsPerPoint(gpuWarmMs: number) {
  const context = new BenchContext({}, { repeats: 3, onRun: async () => {}, makeEngine: () => ({}), gl: undefined, gpuWarmMs });
  const points = [
    { kind: 'family', method: 'gpu' },
    { kind: 'family', method: 'cpu' },
    { kind: 'scan' },
    { kind: 'compact-loop' },
  ];
  const trials = points.map(() => countingTrial());
  context.trial = (point: object) => trials[points.indexOf(point as (typeof points)[number])];
  const results = await context.runGroup(points);
  expect(results.map((r: { times: number[] }) => r.times.length)).toEqual([3, 3, 3, 3]);
  return trials.map((t) => t.calls);
}

it('without --gpu-warm-ms every point makes one call per sample', async () => {
  expect(await callsPerPoint(0)).toEqual([3, 3, 3, 3]);
});

it('with --gpu-warm-ms the GPU points call on untimed before each sample; host points and compact-loop do not', async () => {
  const [gpuFamily, hostFamily, scan, loop] = await callsPerPoint(20);
  // 3 samples, each after >= 20 ms of ~1 ms calls.
  expect(gpuFamily).toBeGreaterThanOrEqual(3 + 3 * 10);
  expect(scan).toBeGreaterThanOrEqual(3 + 3 * 10);
  expect(hostFamily).toBe(3);
  expect(loop).toBe(3);
});
