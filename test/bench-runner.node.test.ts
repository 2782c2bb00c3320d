// bench/lib/runner.mjs: the CLI's --gpu-warm-ms. A GPU left idle while host baselines run drops its
// clocks (H200, 2026-11-28: the family sweep's 2^20 sort read 22.0 ms cold against 6.41 warmed), so
// each timed sample of a GPU point follows that long of untimed calls; host points and the loops of
// compact-loop (whose timeOnce records each loop's submit time) are left alone.
import { expect, it } from 'vitest';
import { BenchContext } from '../bench/lib/runner.mjs';

/** What the runner did, in order: each trial call (which point, when it began and ended) and each onRun(). */
type Event = { point: number; start: number; end: number } | 'run';

/** A trial whose calls take ~1 ms each, logged in `events`. */
function loggingTrial(point: number, events: Event[]) {
  return {
    async warmUp() {},
    async timeOnce() {
      const start = performance.now();
      while (performance.now() - start < 1);
      events.push({ point, start, end: performance.now() });
      return 1;
    },
    record(times: number[]) { return { times }; },
  };
}

/**
 * Per point, the calls of each of its samples: the runner calls onRun() after every timed sample
 * (and after each point's warm-up, which makes no call here), so the calls since the last onRun()
 * are one sample's, its untimed calls first.
 */
async function samplesPerPoint(gpuWarmMs: number) {
  const events: Event[] = [];
  const context = new BenchContext({}, { repeats: 3, onRun: async () => void events.push('run'), makeEngine: () => ({}), gl: undefined, gpuWarmMs });
  const points = [
    { kind: 'family', method: 'gpu' },
    { kind: 'family', method: 'cpu' },
    { kind: 'scan' },
    { kind: 'compact-loop' },
  ];
  const trials = points.map((_, i) => loggingTrial(i, events));
  context.trial = (point: object) => trials[points.indexOf(point as (typeof points)[number])];
  const results = await context.runGroup(points);
  expect(results.map((r: { times: number[] }) => r.times.length)).toEqual([3, 3, 3, 3]);
  const samples: Array<Array<Array<{ start: number; end: number }>>> = points.map(() => []);
  let current: Array<{ point: number; start: number; end: number }> = [];
  for (const event of events) {
    if (event !== 'run') {
      current.push(event);
      continue;
    }
    if (current.length > 0) {
      expect(new Set(current.map((call) => call.point)).size, 'one point per sample').toBe(1);
      samples[current[0]!.point]!.push(current);
    }
    current = [];
  }
  return samples;
}

it('without --gpu-warm-ms every point makes one call per sample', async () => {
  const samples = await samplesPerPoint(0);
  expect(samples.map((point) => point.map((calls) => calls.length))).toEqual([[1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1]]);
});

it('with --gpu-warm-ms the GPU points call on untimed before each sample; host points and compact-loop do not', async () => {
  const [gpuFamily, hostFamily, scan, loop] = await samplesPerPoint(20);
  // Each sample of a GPU point: untimed calls for at least 20 ms (from the first one's start to the
  // timed call's), then its timed call. By the calls' own times, not their count: on a loaded host a
  // 1 ms spin can take several (a CI run counted 22 calls where 3 + 3 * 10 were expected).
  for (const calls of [...gpuFamily!, ...scan!]) {
    expect(calls.length).toBeGreaterThanOrEqual(2);
    // (The runner starts its 20 ms just before the first call reads its own start: 19, not 20.)
    expect(calls.at(-1)!.start - calls[0]!.start).toBeGreaterThanOrEqual(19);
  }
  for (const calls of [...hostFamily!, ...loop!]) expect(calls.length).toBe(1);
});
