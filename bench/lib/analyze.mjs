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
 * The invalid density above which Jumping Jack is no longer faster than Horn (block). Fitted as a
 * step: the split of the densities (100 % excluded: nothing is kept, neither search runs) that
 * disagrees least with "JJ faster below, Horn as fast or faster above", so one noisy point does
 * not move it; within the split, linear interpolation of the median difference. Densities that
 * disagree with the fit are listed.
 */
export function densityCrossover(points) {
  const series = bySeries(points, 'density');
  const jj = series.get('jumping-jack');
  const horn = series.get('horn (block)');
  if (!jj || !horn) return undefined;
  const all = [...jj.keys()].filter((d) => horn.has(d)).sort((a, b) => a - b);
  const ratios = all.map((d) => ({ density: d, jjOverHorn: round3(jj.get(d).medianMs / horn.get(d).medianMs) }));
  const densities = all.filter((d) => d < 100);
  const diff = densities.map((d) => jj.get(d).medianMs - horn.get(d).medianMs); // < 0: JJ faster
  const base = { compared: 'jumping-jack vs horn (block), median times; step fit over densities < 100 %', ratios };
  if (densities.length === 0) return { ...base, densityPercent: null, note: 'no densities below 100 % measured' };
  let best = { k: 0, errors: Infinity };
  for (let k = 0; k <= densities.length; k++) {
    let errors = 0;
    diff.forEach((v, i) => { if (i < k ? v >= 0 : v < 0) errors++; });
    if (errors < best.errors) best = { k, errors };
  }
  const { k } = best;
  const disagreeing = densities.filter((d, i) => (i < k ? diff[i] >= 0 : diff[i] < 0));
  const also = disagreeing.length ? `; ${disagreeing.join(', ')} % disagree with that (noise or a real dip)` : '';
  if (k === densities.length) {
    return { ...base, densityPercent: null, disagreeing, note: `Jumping Jack faster than Horn (block) up to ${densities.at(-1)} % invalid: no crossover${also}` };
  }
  if (k === 0) {
    return { ...base, densityPercent: null, disagreeing, note: `Horn (block) as fast as or faster than Jumping Jack from ${densities[0]} % invalid: no crossover${also}` };
  }
  const d0 = densities[k - 1];
  const d1 = densities[k];
  const straddles = diff[k - 1] < 0 && diff[k] >= 0;
  const crossover = straddles ? d0 + ((d1 - d0) * -diff[k - 1]) / (diff[k] - diff[k - 1]) : (d0 + d1) / 2;
  return {
    ...base,
    densityPercent: Math.round(crossover * 10) / 10,
    between: [d0, d1],
    disagreeing,
    note: `Jumping Jack faster below, Horn (block) as fast or faster above${also}`,
  };
}

/** DESIGN.md target: 'auto' within 10 % of the faster of Jumping Jack and Horn (block) at every density. */
export function autoCheck(points, tolerance = 0.1) {
  const series = bySeries(points, 'density');
  const auto = series.get('auto');
  // Every GPU path the sweep measured (auto itself and the CPU loop aside): auto must be within
  // `tolerance` of the fastest at each density.
  const paths = [...series.entries()].filter(([name]) => name !== 'auto' && name !== 'cpu filter loop');
  if (!auto || paths.length === 0) return undefined;
  const rows = [...auto.keys()].sort((a, b) => a - b).map((d) => {
    const [fastest, best, fastestPath] = paths.map(([name, s]) => [name, s.get(d)?.medianMs ?? Infinity, s.get(d)?.path?.algorithm]).reduce((a, b) => (b[1] < a[1] ? b : a));
    const path = auto.get(d).path?.algorithm;
    // Where auto ran the very path that was fastest, its ratio is run-to-run noise, not a wrong choice.
    return { density: d, autoOverBest: round3(auto.get(d).medianMs / best), fastest, path, tookFastestPath: path === fastestPath };
  });
  const misses = rows.filter((r) => r.autoOverBest > 1 + tolerance && !r.tookFastestPath);
  return { tolerance, worst: rows.reduce((a, b) => (b.autoOverBest > a.autoOverBest ? b : a)), misses, rows, pathsTaken: [...new Set(rows.map((r) => r.path))] };
}

const round3 = (x) => Math.round(x * 1000) / 1000;

/**
 * The state contract's cost per call: the median time per compaction with the contract (the default
 * engine options) minus the one with `preserveState: false`, on the same context and data.
 */
export function contractCost(points) {
  const withContract = points.find((p) => !p.engineOptions || p.engineOptions.preserveState !== false);
  const without = points.find((p) => p.engineOptions?.preserveState === false);
  if (!withContract || !without) return undefined;
  const overhead = withContract.medianMs - without.medianMs;
  const round = (x) => Math.round(x * 1000) / 1000;
  const percent = (part, whole) => Math.round((part / whole) * 1000) / 10;
  const submitOverhead = withContract.submit.medianMs - without.submit.medianMs;
  return {
    n: withContract.n,
    withContractMsPerCall: withContract.medianMs,
    preserveStateFalseMsPerCall: without.medianMs,
    overheadMsPerCall: round(overhead),
    overheadPercent: percent(overhead, without.medianMs),
    // The fastest runs: less disturbed by other processes on a shared machine than the medians.
    fastestRun: {
      withContractMsPerCall: withContract.minMs,
      preserveStateFalseMsPerCall: without.minMs,
      overheadMsPerCall: round(withContract.minMs - without.minMs),
      overheadPercent: percent(withContract.minMs - without.minMs, without.minMs),
    },
    // The CPU time to issue the calls (the part of the call the contract adds to).
    submit: {
      withContractMsPerCall: withContract.submit.medianMs,
      preserveStateFalseMsPerCall: without.submit.medianMs,
      overheadMsPerCall: round(submitOverhead),
      overheadPercent: percent(submitOverhead, without.submit.medianMs),
    },
    // GL calls per compaction (+ dispose), counted once: what the contract adds, independent of noise.
    glCalls: withContract.glCalls && without.glCalls ? {
      withContract: withContract.glCalls.total,
      preserveStateFalse: without.glCalls.total,
      addedCalls: withContract.glCalls.total - without.glCalls.total,
      addedQueries: withContract.glCalls.queries - without.glCalls.queries,
    } : undefined,
    note: 'medians of the per-call times (total: between two engine.finish() calls; submit: issuing the calls only); a negative overhead means the difference is within the noise',
  };
}

/**
 * The family sweep's headline ratios per size: each GPU sort's median over the host sorts' medians
 * (below 1: the GPU sort is faster), and the passes of each GPU sort.
 */
export function familyRatios(points) {
  const at = (log2n, series) => points.find((p) => p.log2n === log2n && p.series === series);
  const ratio = (a, b) => (a && b ? Math.round((a.medianMs / b.medianMs) * 1000) / 1000 : null);
  const sizes = [...new Set(points.map((p) => p.log2n))].sort((a, b) => a - b);
  return sizes.map((log2n) => {
    const gpuU32 = at(log2n, 'GPU radix sort + values, uint32 keys');
    const gpuU32Keys = at(log2n, 'GPU radix sort, keys only, uint32 keys');
    const nativeU32 = at(log2n, 'TypedArray.prototype.sort, keys only, uint32 keys');
    const lsdU32 = at(log2n, 'JS LSD counting sort + values, uint32 keys');
    const gpu16 = at(log2n, 'GPU radix sort + values, 16-bit keys');
    const lsd16 = at(log2n, 'JS LSD counting sort + values, 16-bit keys');
    const gpuF32 = at(log2n, 'GPU radix sort + values, float32 keys');
    const nativeF32 = at(log2n, 'TypedArray.prototype.sort, keys only, float32 keys');
    const lsdF32 = at(log2n, 'JS LSD counting sort + values, float32 keys');
    return {
      log2n,
      gpuSortUint32WithValuesOverUint32ArraySort: ratio(gpuU32, nativeU32),
      gpuSortUint32KeysOnlyOverUint32ArraySort: ratio(gpuU32Keys, nativeU32),
      gpuSortUint32WithValuesOverJsLsd: ratio(gpuU32, lsdU32),
      gpuSort16BitWithValuesOverJsLsd16: ratio(gpu16, lsd16),
      gpuSortFloat32WithValuesOverFloat32ArraySort: ratio(gpuF32, nativeF32),
      gpuSortFloat32WithValuesOverJsLsd: ratio(gpuF32, lsdF32),
    };
  });
}
