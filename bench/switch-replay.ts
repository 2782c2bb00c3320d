// Issue 20: replays, offline, which path `auto` would take at every point of committed tuned sweeps
// (bench/tuned-sweep.ts, bench/tuned-sweep-browser.mjs) if the per-density switch used another margin
// (src/engine.ts SWITCH_AT_DENSITY, src/tuning.ts#choiceAtDensity), from each sweep's own profile,
// and scores that path against the fastest by the sweep's own series: the worst ratio ('keep' /
// 'any') and the points within 1.15 on both. At the engine's margin (1.15) the replay must agree
// with the path the sweep ran (it prints how many of its choices do).
// Usage: node bench/build-probe.mjs switch-replay && node bench/tmp/switch-replay.mjs bench/results/issue-20/tuned-sweep-*.json
import { readFileSync } from 'node:fs';
import { choiceAtDensity, nearest, type TuningProfile } from '../src/tuning.js';

const keepPaths = ['bitmask', 'horn', 'horn-global', 'histopyramid'];
const allPaths = [...keepPaths, 'jumping-jack', 'hybrid'];
const margins = [1.15, 1.25, 1.35, 1.5, Infinity];
interface Row { log2n: number; density: number; ms: Record<string, number>; autoKeepPath: string; autoAnyPath: string }

for (const file of process.argv.slice(2)) {
  const sweep = JSON.parse(readFileSync(file, 'utf8')) as { profile?: TuningProfile; rows?: Row[] };
  if (!sweep.profile || !sweep.rows?.[0]?.autoKeepPath) continue; // not a tuned sweep with its paths
  const profile = sweep.profile;
  let agree = 0;
  const scores = margins.map((margin) => {
    let worstKeep = 0, worstAny = 0, within = 0;
    for (const row of sweep.rows!) {
      const capacity = 2 ** row.log2n;
      const keep = choiceAtDensity(profile, 'keep', capacity, row.density, margin) ?? nearest(profile.compact.keep, capacity)!;
      const any = choiceAtDensity(profile, 'any', capacity, row.density, margin) ?? nearest(profile.compact.any, capacity)!;
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
