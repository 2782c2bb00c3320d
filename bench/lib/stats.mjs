// Summaries of repeated timings: median and spread.

/** Linear-interpolated quantile of an ascending array. */
function quantile(sorted, q) {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

const round = (x) => Math.round(x * 1000) / 1000;

export function summarize(timesMs) {
  const sorted = [...timesMs].sort((a, b) => a - b);
  return {
    medianMs: round(quantile(sorted, 0.5)),
    minMs: round(sorted[0]),
    maxMs: round(sorted[sorted.length - 1]),
    q1Ms: round(quantile(sorted, 0.25)),
    q3Ms: round(quantile(sorted, 0.75)),
    runsMs: timesMs.map(round),
  };
}
