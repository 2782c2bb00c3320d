// How far a tuned sweep can resolve 1.15: the same work timed twice in one run. At every point auto's
// series runs the very path of another series (row.paths / autoKeepPath), so the two series' medians
// differ by measurement noise alone. Where that ratio is often outside 1.15, a miss of the target
// (auto's path against the fastest path) can be noise too: a perfect auto would miss as often.
// Per-round ratios (the two series' samples of the same round, taken seconds apart) are also given:
// their median cancels slow drifts of the host (load, clocks) that the medians of the series keep.

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * @param {Array<{ runsMs: Record<string, number[]>, paths?: Record<string, string>, autoKeepPath?: string, autoAnyPath?: string }>} rows
 * @param {number} [within] the target ratio (1.15)
 * @returns {{ pairs: number, ratioOfMedians: { outside: number, worst: number }, perRound: { outside: number, worst: number } }}
 *   `outside`: pairs whose ratio is above `within` or below 1 / `within`; `worst`: the largest ratio either way (≥ 1).
 */
export function sameWorkTwice(rows, within = 1.15) {
  const ofMedians = [];
  const perRound = [];
  for (const row of rows) {
    for (const [series, path] of [['auto (tuned, keep)', row.autoKeepPath ?? row.paths?.['auto (tuned, keep)']], ['auto (tuned, any)', row.autoAnyPath ?? row.paths?.['auto (tuned, any)']]]) {
      const a = row.runsMs[series];
      const b = path === undefined ? undefined : row.runsMs[path];
      if (!a || !b || a.length !== b.length) continue;
      ofMedians.push(median(a) / median(b));
      perRound.push(median(a.map((x, i) => x / b[i])));
    }
  }
  const summary = (ratios) => ({
    outside: ratios.filter((r) => r > within || r < 1 / within).length,
    worst: Math.max(1, ...ratios.map((r) => Math.max(r, 1 / r))),
  });
  return { pairs: ofMedians.length, ratioOfMedians: summary(ofMedians), perRound: summary(perRound) };
}

/** One line for a CLI's summary. */
export function formatSameWork(noise) {
  if (noise.pairs === 0) return 'the same path timed twice: no pairs (no series of auto\'s path in this run), so nothing says how far it resolves 1.15';
  return `the same path timed twice (auto's series and its path's, ${noise.pairs} pairs): outside 1.15 either way at ${noise.ratioOfMedians.outside} (worst ×${noise.ratioOfMedians.worst.toFixed(2)}); `
    + `median of per-round ratios outside at ${noise.perRound.outside} (worst ×${noise.perRound.worst.toFixed(2)}): misses of the target up to these can be noise`;
}
