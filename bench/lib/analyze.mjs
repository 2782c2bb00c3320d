// Derived figures: the Jumping Jack / Horn crossover density and the 'auto' check (DESIGN.md
// "Performance targets").

function bySeries(points, xKey) {
  const map = new Map();
  for (const p of points) {
    if (!map.has(p.series)) map.set(p.series, new Map());
    map.get(p.series).set(p[xKey], p);
  }
  return map;
}

/**
 * The invalid density above which Jumping Jack is no longer faster than Horn (block): between the
 * last density where JJ's median is lower and the next one, by linear interpolation of the
 * difference. Densities below it where Horn was already as fast are listed (noise or a real dip).
 */
export function densityCrossover(points) {
  const series = bySeries(points, 'density');
  const jj = series.get('jumping-jack');
  const horn = series.get('horn (block)');
  if (!jj || !horn) return undefined;
  const densities = [...jj.keys()].filter((d) => horn.has(d)).sort((a, b) => a - b);
  const diff = densities.map((d) => jj.get(d).medianMs - horn.get(d).medianMs); // < 0: JJ faster
  const ratios = densities.map((d, i) => ({ density: d, jjOverHorn: round3(jj.get(d).medianMs / horn.get(d).medianMs) }));
  let last = -1;
  diff.forEach((v, i) => { if (v < 0) last = i; });
  const base = { compared: 'jumping-jack vs horn (block), median times', ratios };
  if (last === -1) return { ...base, densityPercent: null, note: 'Horn (block) was as fast as or faster than Jumping Jack at every density measured' };
  const hornFasterBelow = densities.filter((d, i) => i < last && diff[i] >= 0);
  if (last === densities.length - 1) {
    return { ...base, densityPercent: null, hornFasterBelow, note: 'Jumping Jack was faster than Horn (block) at the highest density measured; no crossover from JJ to Horn at the top' };
  }
  const d0 = densities[last];
  const d1 = densities[last + 1];
  const crossover = d0 + ((d1 - d0) * -diff[last]) / (diff[last + 1] - diff[last]);
  return {
    ...base,
    densityPercent: Math.round(crossover * 10) / 10,
    between: [d0, d1],
    hornFasterBelow,
    note: `Jumping Jack faster up to ${d0} % invalid, Horn (block) as fast or faster from ${d1} % on` +
      (hornFasterBelow.length ? `; Horn also as fast or faster at ${hornFasterBelow.join(', ')} % (not monotonic)` : ''),
  };
}

/** DESIGN.md target: 'auto' within 10 % of the faster of Jumping Jack and Horn (block) at every density. */
export function autoCheck(points, tolerance = 0.1) {
  const series = bySeries(points, 'density');
  const auto = series.get('auto');
  const jj = series.get('jumping-jack');
  const horn = series.get('horn (block)');
  if (!auto || !jj || !horn) return undefined;
  const rows = [...auto.keys()].sort((a, b) => a - b).map((d) => {
    const best = Math.min(jj.get(d).medianMs, horn.get(d).medianMs);
    return { density: d, autoOverBest: round3(auto.get(d).medianMs / best), path: auto.get(d).path?.algorithm };
  });
  const misses = rows.filter((r) => r.autoOverBest > 1 + tolerance);
  return { tolerance, worst: rows.reduce((a, b) => (b.autoOverBest > a.autoOverBest ? b : a)), misses, pathsTaken: [...new Set(rows.map((r) => r.path))] };
}

const round3 = (x) => Math.round(x * 1000) / 1000;
