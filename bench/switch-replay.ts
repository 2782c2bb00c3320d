// Issue 20: replays, offline, which path `auto` would take at every point of committed tuned sweeps
// (bench/tuned-sweep.ts, bench/tuned-sweep-browser.mjs) if the per-density switch used another margin
// (src/tuning.ts#densitySwitchMargin, #choiceAtDensity; replayed at 1, 1.05, 1.1, 1.15, 1.25, 1.35, 1.5 and never), from each sweep's own profile,
// and scores that path against the fastest by the sweep's own series: the worst ratio ('keep' /
// 'any') and the points within 1.15 on both. At the margin the sweep's engine switched at (its JSON's
// `switchMargin`: tuning.ts#densitySwitchMargin of its profile; 1.15 for sweeps made before it was recorded) the
// replay must agree with the path the sweep ran (it prints how many of its choices do). With --interpolate, the switch
// compares the paths' timings interpolated linearly between the two tuned densities around the
// call's (the engine takes the nearest tuned density's). With --keep-default, the switch stays at
// 1.15 and what varies is the margin by which tune() keeps the built-in default (the bitmask) as a
// size class's choice (src/engine.ts KEEP_DEFAULT_WITHIN, 1.1): each class's choice is made again
// from the profile's timings, as tune() makes it, at 1.1, 1.2, 1.3 and 1.5.
// Usage: node bench/build-probe.mjs switch-replay && node bench/tmp/switch-replay.mjs [--interpolate | --keep-default] bench/results/issue-20/tuned-sweep-*.json
import { readFileSync } from 'node:fs';
import type { CompactionAlgorithm } from '../src/compact/algorithm-names.js';
import { choiceAtDensity, choiceOverDensities, compactCandidates, nearest, nearestKey, type TuningProfile } from '../src/tuning.js';

/** choiceAtDensity with each path's time interpolated between the tuned densities around `density`. */
function interpolatedChoice(profile: TuningProfile, order: 'keep' | 'any', capacity: number, density: number, stayWithin: number): CompactionAlgorithm | undefined {
  const key = nearestKey(profile.compact[order], capacity);
  if (key === undefined) return undefined;
  const tuned = Object.keys(profile.timings).filter((p) => p.startsWith(`${key}/`) && !p.endsWith('/scan')).map((p) => Number(p.split('/')[1])).sort((a, b) => a - b);
  if (tuned.length === 0) return undefined;
  const low = tuned.filter((d) => d <= density).pop() ?? tuned[0]!;
  const high = tuned.find((d) => d >= density) ?? tuned[tuned.length - 1]!;
  const t = high === low ? 0 : (density - low) / (high - low);
  const [a, b] = [profile.timings[`${key}/${low}`]!, profile.timings[`${key}/${high}`]!];
  const paths = compactCandidates.filter((c) => (order === 'any' || c.keepsOrder) && typeof a[c.path] === 'number' && typeof b[c.path] === 'number').map((c) => c.path);
  if (paths.length === 0) return undefined;
  const time = (path: string) => a[path]! + t * (b[path]! - a[path]!);
  const best = paths.reduce((x, y) => (time(y) < time(x) ? y : x));
  const chosen = profile.compact[order][key]!;
  return paths.includes(chosen) && time(chosen) <= time(best) * stayWithin ? chosen : best;
}
const interpolate = process.argv.includes('--interpolate');
const keepDefault = process.argv.includes('--keep-default');

/** The size classes' choices as tune() makes them (tuning.ts#choiceOverDensities), at another margin for keeping the bitmask. */
function chooseAgain(profile: TuningProfile, within: number): TuningProfile {
  const compact = { keep: {} as Record<string, CompactionAlgorithm>, any: {} as Record<string, CompactionAlgorithm> };
  for (const key of Object.keys(profile.compact.keep)) {
    const points = Object.keys(profile.timings).filter((p) => p.startsWith(`${key}/`) && !p.endsWith('/scan'));
    compact.keep[key] = choiceOverDensities(profile.timings, points, keepPaths, within).choice as CompactionAlgorithm;
    compact.any[key] = choiceOverDensities(profile.timings, points, allPaths, within).choice as CompactionAlgorithm;
  }
  return { ...profile, compact };
}
const choose = interpolate ? interpolatedChoice : choiceAtDensity;

const keepPaths: string[] = compactCandidates.filter((c) => c.keepsOrder).map((c) => c.path);
const allPaths: string[] = compactCandidates.map((c) => c.path);
const margins = keepDefault ? [1.1, 1.2, 1.3, 1.5] : [1, 1.05, 1.1, 1.15, 1.25, 1.35, 1.5, Infinity];

/** The margin the sweep's engine used: 1.1 to keep the default; the recorded switch margin, else 1.15. */
const engineMargin = (sweep: { switchMargin?: number }) => (keepDefault ? 1.1 : sweep.switchMargin ?? 1.15);
interface Row { log2n: number; density: number; ms: Record<string, number>; autoKeepPath: string; autoAnyPath: string }

for (const file of process.argv.slice(2).filter((arg) => !arg.startsWith('--'))) {
  const sweep = JSON.parse(readFileSync(file, 'utf8')) as { profile?: TuningProfile; rows?: Row[]; switchMargin?: number };
  if (!sweep.profile || !sweep.rows?.[0]?.autoKeepPath) continue; // not a tuned sweep with its paths
  let agree = 0;
  // The sweep's own margin is always replayed (its choices are what the agreement counts).
  const replayed = margins.includes(engineMargin(sweep)) ? margins : [...margins, engineMargin(sweep)].sort((a, b) => a - b);
  const scores = replayed.map((margin) => {
    const profile = keepDefault ? chooseAgain(sweep.profile!, margin) : sweep.profile!;
    const switchAt = keepDefault ? sweep.switchMargin ?? 1.15 : margin;
    let worstKeep = 0, worstAny = 0, within = 0;
    for (const row of sweep.rows!) {
      const capacity = 2 ** row.log2n;
      const keep = choose(profile, 'keep', capacity, row.density, switchAt) ?? nearest(profile.compact.keep, capacity)!;
      const any = choose(profile, 'any', capacity, row.density, switchAt) ?? nearest(profile.compact.any, capacity)!;
      if (margin === engineMargin(sweep)) agree += Number(keep === row.autoKeepPath) + Number(any === row.autoAnyPath);
      const keepRatio = row.ms[keep]! / Math.min(...keepPaths.map((path) => row.ms[path]!));
      const anyRatio = row.ms[any]! / Math.min(...allPaths.map((path) => row.ms[path]!));
      worstKeep = Math.max(worstKeep, keepRatio);
      worstAny = Math.max(worstAny, anyRatio);
      if (keepRatio <= 1.15 && anyRatio <= 1.15) within++;
    }
    return `${margin}: ${worstKeep.toFixed(2)}/${worstAny.toFixed(2)} (${within}/${sweep.rows!.length})`;
  });
  console.log(`${file.split('/').pop()}: the replay agrees with ${agree} of ${2 * sweep.rows.length} choices | ${scores.join(' | ')}`);
}
