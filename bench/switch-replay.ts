// Issue 20: replays, offline, which path `auto` would take at every point of committed tuned sweeps
// (bench/tuned-sweep.ts, bench/tuned-sweep-browser.mjs) if the per-density switch used another margin
// (src/engine.ts SWITCH_AT_DENSITY, src/tuning.ts#choiceAtDensity), from each sweep's own profile,
// and scores that path against the fastest by the sweep's own series: the worst ratio ('keep' /
// 'any') and the points within 1.15 on both. At the engine's margin (1.15) the replay must agree
// with the path the sweep ran (it prints how many of its choices do). With --interpolate, the switch
// compares the paths' timings interpolated linearly between the two tuned densities around the
// call's (the engine takes the nearest tuned density's).
// Usage: node bench/build-probe.mjs switch-replay && node bench/tmp/switch-replay.mjs [--interpolate] bench/results/issue-20/tuned-sweep-*.json
import { readFileSync } from 'node:fs';
import type { CompactionAlgorithm } from '../src/compact/algorithm-names.js';
import { choiceAtDensity, compactCandidates, nearest, nearestKey, type TuningProfile } from '../src/tuning.js';

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
const choose = interpolate ? interpolatedChoice : choiceAtDensity;

const keepPaths: string[] = compactCandidates.filter((c) => c.keepsOrder).map((c) => c.path);
const allPaths: string[] = compactCandidates.map((c) => c.path);
const margins = [1.15, 1.25, 1.35, 1.5, Infinity];
interface Row { log2n: number; density: number; ms: Record<string, number>; autoKeepPath: string; autoAnyPath: string }

for (const file of process.argv.slice(2).filter((arg) => arg !== '--interpolate')) {
  const sweep = JSON.parse(readFileSync(file, 'utf8')) as { profile?: TuningProfile; rows?: Row[] };
  if (!sweep.profile || !sweep.rows?.[0]?.autoKeepPath) continue; // not a tuned sweep with its paths
  const profile = sweep.profile;
  let agree = 0;
  const scores = margins.map((margin) => {
    let worstKeep = 0, worstAny = 0, within = 0;
    for (const row of sweep.rows!) {
      const capacity = 2 ** row.log2n;
      const keep = choose(profile, 'keep', capacity, row.density, margin) ?? nearest(profile.compact.keep, capacity)!;
      const any = choose(profile, 'any', capacity, row.density, margin) ?? nearest(profile.compact.any, capacity)!;
      if (margin === 1.15) agree += Number(keep === row.autoKeepPath) + Number(any === row.autoAnyPath);
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
