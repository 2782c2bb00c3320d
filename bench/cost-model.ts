// Issue 20, item 2: how well a cost model picks the fastest compaction where measuring is too costly.
// The model: ms per call ≈ a·passes + b·fragments + c·line fragments (TuningProfile.work: what one
// measured call drew), fitted by least squares to a tune's own timings (TuningProfile.timings).
// For each committed tuned sweep (bench/tuned-sweep.ts, bench/tuned-sweep-browser.mjs) it is asked
// for the winner at every point of the sweep, and its pick is scored by the sweep's own series
// (measured independently of the tune): the worst ratio to the fastest and the points within 1.15,
// 'keep' (order-keeping paths) and 'any' (all paths), next to the path `auto` ran there. Two fits:
// - in-sample: all of the tune's size classes;
// - small sizes only: the tune's size classes up to 2^14 elements (calls cheap enough to time in
//   a frame on any renderer), so the larger classes are predicted, not measured: the case of a tune
//   that may not spend the time a large call takes; next to them, what the engine does then (the
//   nearest tuned class's choice) and the built-in default (the bitmask) at every point.
// --unconstrained: the first form of the fit, negative costs allowed.
// A sweep's densities are not the tune's: the work at a sweep density is interpolated linearly
// in the density between the tune's nearest two (line fragments follow the kept count; passes and
// the rest hardly move).
// Usage: node bench/build-probe.mjs cost-model && node bench/tmp/cost-model.mjs [--unconstrained] bench/results/issue-20/tuned-sweep-*.json
import { readFileSync } from 'node:fs';
import { choiceAtDensity, compactCandidates, nearest, nearestKey, type PathWork, type TuningProfile } from '../src/tuning.js';

const keepPaths: string[] = compactCandidates.filter((c) => c.keepsOrder).map((c) => c.path);
const allPaths: string[] = compactCandidates.map((c) => c.path);
/** --unconstrained: plain least squares, negative costs allowed (what the first form of this script fitted). */
const unconstrained = process.argv.includes('--unconstrained');
/** The largest size class (log2 of the class's capacity) the small-sizes fit uses: calls of up to 2^14 elements. */
const SMALL_CLASS = 14;
const TARGET = 1.15;

interface Row { log2n: number; density: number; ms: Record<string, number>; autoKeepPath?: string; autoAnyPath?: string }
interface Sample { x: number[]; ms: number }

const features = (w: PathWork) => [w.passes, w.fragments / 1e6, w.lineFragments / 1e6];

/** Least squares over the samples on the features in `use` (normal equations by Gaussian elimination); 0 for the others. */
function leastSquares(samples: Sample[], use: number[]): number[] {
  const n = use.length;
  const m = use.map((i) => [...use.map((j) => samples.reduce((sum, s) => sum + s.x[i]! * s.x[j]!, 0)), samples.reduce((sum, s) => sum + s.x[i]! * s.ms, 0)]);
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(m[r]![i]!) > Math.abs(m[p]![i]!)) p = r;
    [m[i], m[p]] = [m[p]!, m[i]!];
    for (let r = 0; r < n; r++) {
      if (r === i || m[i]![i] === 0) continue;
      const f = m[r]![i]! / m[i]![i]!;
      for (let c = i; c <= n; c++) m[r]![c]! -= f * m[i]![c]!;
    }
  }
  const coefficients = [0, 0, 0];
  use.forEach((feature, i) => (coefficients[feature] = m[i]![i] === 0 ? 0 : m[i]![n]! / m[i]![i]!));
  return coefficients;
}

/**
 * Least squares with no negative cost (a pass, a fragment or a line fragment cannot save time; the
 * unconstrained fit gives some a negative cost, fitted to noise, and then picks the paths with the
 * most of them): the best of the fits on every subset of the features whose coefficients are all
 * at least 0 (three features: seven subsets, exact).
 */
function fit(samples: Sample[]): number[] {
  if (unconstrained) return leastSquares(samples, [0, 1, 2]);
  let best = [0, 0, 0];
  let bestResidual = Infinity;
  for (let subset = 1; subset < 8; subset++) {
    const use = [0, 1, 2].filter((i) => (subset >> i) & 1);
    const c = leastSquares(samples, use);
    if (c.some((v) => v < 0)) continue;
    const residual = samples.reduce((sum, s) => sum + (c[0]! * s.x[0]! + c[1]! * s.x[1]! + c[2]! * s.x[2]! - s.ms) ** 2, 0);
    if (residual < bestResidual) [best, bestResidual] = [c, residual];
  }
  return best;
}

/** The tune's compaction samples of the size classes `keepClass` accepts. */
function samplesOf(profile: TuningProfile, keepClass: (sizeClass: number) => boolean): Sample[] {
  const samples: Sample[] = [];
  for (const [point, work] of Object.entries(profile.work)) {
    const [sizeClass, density] = point.split('/');
    if (density === 'scan' || !keepClass(Number(sizeClass))) continue;
    for (const [path, w] of Object.entries(work)) {
      const ms = profile.timings[point]?.[path];
      if (ms !== undefined && Number.isFinite(ms)) samples.push({ x: features(w), ms });
    }
  }
  return samples;
}

/** The work of `path` at size class `sizeClass` and kept fraction `density`, between the tune's densities. */
function workAt(profile: TuningProfile, sizeClass: string, density: number, path: string): number[] | undefined {
  const tuned = Object.keys(profile.work)
    .filter((point) => point.startsWith(`${sizeClass}/`) && !point.endsWith('/scan'))
    .map((point) => Number(point.split('/')[1]))
    .sort((a, b) => a - b);
  if (tuned.length === 0) return undefined;
  const at = (d: number) => {
    const w = profile.work[`${sizeClass}/${d}`]?.[path];
    return w ? features(w) : undefined;
  };
  if (tuned.length === 1) return at(tuned[0]!);
  // Between the two tuned densities around `density`, or from the nearest two at either end
  // (extended linearly: the work follows the kept count).
  let i = tuned.findIndex((d) => d >= density);
  if (i < 0) i = tuned.length - 1;
  else if (i === 0) i = 1;
  const [d0, d1] = [tuned[i - 1]!, tuned[Math.min(i, tuned.length - 1)]!];
  const [w0, w1] = [at(d0), at(d1)];
  if (!w0 || !w1) return w0 ?? w1;
  const t = (density - d0) / (d1 - d0);
  return w0.map((v, k) => v + t * (w1[k]! - v));
}

interface Score { worstKeep: number; worstAny: number; within: number; points: number }

function score(rows: Row[], pick: (row: Row, paths: string[]) => string | undefined): Score {
  const s: Score = { worstKeep: 1, worstAny: 1, within: 0, points: 0 };
  for (const row of rows) {
    const keep = pick(row, keepPaths);
    const any = pick(row, allPaths);
    if (!keep || !any) continue;
    const keepRatio = row.ms[keep]! / Math.min(...keepPaths.map((p) => row.ms[p]!));
    const anyRatio = row.ms[any]! / Math.min(...allPaths.map((p) => row.ms[p]!));
    s.worstKeep = Math.max(s.worstKeep, keepRatio);
    s.worstAny = Math.max(s.worstAny, anyRatio);
    s.points++;
    if (keepRatio <= TARGET && anyRatio <= TARGET) s.within++;
  }
  return s;
}

/**
 * The second model: each path's time at each tuned density as a line in the element count (a fixed
 * cost plus a cost per element), fitted to the size classes up to SMALL_CLASS and extended to the
 * larger ones (least squares over the classes' capacities 2^class; no negative cost).
 */
function perPathPick(profile: TuningProfile, large: Set<string>) {
  const smallClasses = Object.keys(profile.compact.keep).filter((c) => Number(c) <= SMALL_CLASS);
  const densities = [...new Set(Object.keys(profile.timings).filter((p) => !p.endsWith('/scan')).map((p) => Number(p.split('/')[1])))].sort((a, b) => a - b);
  const lines = new Map<string, [number, number]>();
  for (const density of densities) {
    for (const path of allPaths) {
      const points = smallClasses.map((c) => [2 ** Number(c), profile.timings[`${c}/${density}`]?.[path]] as const).filter((p): p is readonly [number, number] => p[1] !== undefined);
      if (points.length < 2) continue;
      const n = points.length;
      const mx = points.reduce((s, p) => s + p[0], 0) / n;
      const my = points.reduce((s, p) => s + p[1], 0) / n;
      const slope = Math.max(0, points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / points.reduce((s, p) => s + (p[0] - mx) ** 2, 0));
      lines.set(`${density}/${path}`, [my - slope * mx, slope]);
    }
  }
  return (row: Row, paths: string[]) => {
    const sizeClass = nearestKey(profile.compact.keep, 2 ** row.log2n)!;
    if (!large.has(sizeClass)) return undefined;
    const density = densities.reduce((a, b) => (Math.abs(b - row.density) < Math.abs(a - row.density) ? b : a));
    let best: string | undefined;
    let bestMs = Infinity;
    for (const path of paths) {
      const line = lines.get(`${density}/${path}`);
      if (!line) continue;
      const ms = line[0] + line[1] * 2 ** Number(sizeClass);
      if (ms < bestMs) [best, bestMs] = [path, ms];
    }
    return best;
  };
}

/** The profile as a tune of the size classes up to SMALL_CLASS alone would have left it. */
function smallSizesOnly(profile: TuningProfile): TuningProfile {
  const small = (key: string) => Number(key.split('/')[0]) <= SMALL_CLASS;
  const pick = <T>(table: Record<string, T>) => Object.fromEntries(Object.entries(table).filter(([key]) => small(key)));
  return { ...profile, compact: { keep: pick(profile.compact.keep), any: pick(profile.compact.any) }, scan: pick(profile.scan), timings: pick(profile.timings), work: pick(profile.work) };
}

const show = (s: Score) => `${s.worstKeep.toFixed(2)} / ${s.worstAny.toFixed(2)}, ${s.within} of ${s.points} within ${TARGET}`;
const showCoefficients = (c: number[]) => `${c[0]!.toFixed(4)} ms/pass + ${c[1]!.toFixed(2)} ms/10^6 fragments + ${c[2]!.toFixed(2)} ms/10^6 line fragments`;

for (const file of process.argv.slice(2).filter((arg) => arg !== '--unconstrained')) {
  const sweep = JSON.parse(readFileSync(file, 'utf8')) as { renderer?: string; profile?: TuningProfile; rows?: Row[] };
  const profile = sweep.profile;
  if (!profile?.work || !sweep.rows?.length || !sweep.rows[0]!.ms) continue; // not a tuned sweep
  const classes = Object.keys(profile.compact.keep);
  const modelPick = (costs: number[], large: Set<string> | undefined) => (row: Row, paths: string[]) => {
    const sizeClass = nearestKey(profile.compact.keep, 2 ** row.log2n)!;
    if (large && !large.has(sizeClass)) return undefined; // scored where predicted only
    let best: string | undefined;
    let bestMs = Infinity;
    for (const path of paths) {
      const x = workAt(profile, sizeClass, row.density, path);
      if (!x) continue;
      const ms = costs[0]! * x[0]! + costs[1]! * x[1]! + costs[2]! * x[2]!;
      if (ms < bestMs) [best, bestMs] = [path, ms];
    }
    return best;
  };
  const auto = (row: Row, paths: string[]) => (paths === keepPaths ? row.autoKeepPath : row.autoAnyPath);
  const inSample = fit(samplesOf(profile, () => true));
  const large = new Set(classes.filter((c) => Number(c) > SMALL_CLASS));
  const small = fit(samplesOf(profile, (c) => c <= SMALL_CLASS));
  const onLarge = (row: Row) => large.has(nearestKey(profile.compact.keep, 2 ** row.log2n)!);
  const largeRows = sweep.rows.filter(onLarge);
  // What the engine does with a profile tuned at the small sizes only: a size class takes the nearest
  // tuned one's choice, left at a counted density where that class timed another path 1.15x faster
  // (tuning.ts choiceAtDensity, as the sweeps' auto runs after a count).
  const smallProfile = smallSizesOnly(profile);
  const nearestClass = (row: Row, paths: string[]) => {
    const order = paths === keepPaths ? 'keep' : 'any';
    return choiceAtDensity(smallProfile, order, 2 ** row.log2n, row.density, 1.15) ?? nearest(smallProfile.compact[order], 2 ** row.log2n);
  };
  const perPath = perPathPick(profile, large);
  const autoScore = (rows: Row[]) => (rows[0]?.autoKeepPath ? show(score(rows, auto)) : 'not recorded');
  console.log(`${file.split('/').pop()} (${sweep.renderer ?? profile.renderer})`);
  console.log(`  every point (${sweep.rows.length}): fitted to the whole tune ${show(score(sweep.rows, modelPick(inSample, undefined)))} [${showCoefficients(inSample)}]; auto ${autoScore(sweep.rows)}`);
  if (largeRows.length === 0) continue;
  console.log(
    `  size classes ${[...large].join(', ')} (${largeRows.length} points), predicted from those up to ${SMALL_CLASS}: three counts ${show(score(largeRows, modelPick(small, large)))} [${showCoefficients(small)}]; ` +
      `per-path lines ${show(score(largeRows, perPath))}; the nearest tuned class ${show(score(largeRows, nearestClass))}; the bitmask always ${show(score(largeRows, (_row, paths) => (paths.includes('bitmask') ? 'bitmask' : undefined)))}; auto, measured ${autoScore(largeRows)}`,
  );
}
