// Issue 20: replays, offline, which path `auto` would take at every point of committed tuned sweeps
// made by timer query (Chromium) if a compaction path's time were read another way from its samples,
// which each sweep's profile records (profile.sampling.batches: a path's first-opinion samples, then
// its second opinion's, one `secondOpinionCalls` entry each). The rules:
// - fresh: a path asked again takes its second opinion's median alone, others their median (the
//   tune by timer query from the twenty-fourth session to the thirty-first, less its exception where
//   the first opinion's batch already queued as many calls: the lower counted there; the replay says
//   how many such batches a sweep holds, none in Chromium + SwiftShader's, whose are one call);
// - lower: the lower of the first opinion's median and the second's (as by fence and through glFinish);
// - middle: the middle of all the path's samples (as a scan's by the clock: pooledSecondOpinionTime);
// - least asked: a path asked again takes its least sample, others their median;
// - least: every path its least sample, asked again or not (src/tuning.ts#leastSample, shipped since
//   the thirty-second session).
// Each size class's choice is then made again (tuning.ts#choiceOverDensities at KEEP_DEFAULT_WITHIN)
// and each row's path by choiceAtDensity at the sweep's switch margin, and scored against the fastest
// by the sweep's own series: the worst ratio (keep and any together) and the rows within 1.15 on both.
// Which rule gives the recorded timings is printed ("recorded by"), with how many of the paths the
// sweep ran its replay gives (of two per row). The scans are left as recorded, and so is which paths
// were asked a second opinion: under another rule the tune might have asked others, which a replay
// cannot sample. An asked path has more samples (six against three), so its least reads lower.
// With --switch-margin M, every row's switch takes M instead of the sweep's (tuning.ts#densitySwitchMargin).
// Usage: node bench/build-probe.mjs second-opinion-replay && node bench/tmp/second-opinion-replay.mjs [--switch-margin M] bench/results/issue-20/tuned-sweep-chromium-*.json
import { readFileSync } from 'node:fs';
import { choiceAtDensity, choiceOverDensities, compactCandidates, densitySwitchMargin, nearest, QUERY_SECOND_OPINION_CALLS, type TuningProfile } from '../src/tuning.js';

const KEEP_DEFAULT_WITHIN = 1.1; // src/engine.ts
const middle = (samples: readonly number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
/** A path's time from its first-opinion samples and its second opinion's (empty where it was not asked). */
const rules: Record<string, (first: number[], fresh: number[]) => number> = {
  fresh: (first, fresh) => middle(fresh.length > 0 ? fresh : first),
  lower: (first, fresh) => (fresh.length > 0 ? Math.min(middle(first), middle(fresh)) : middle(first)),
  middle: (first, fresh) => middle([...first, ...fresh]),
  'least asked': (first, fresh) => (fresh.length > 0 ? Math.min(...first, ...fresh) : middle(first)),
  least: (first, fresh) => Math.min(...first, ...fresh),
};
const keepPaths: string[] = compactCandidates.filter((c) => c.keepsOrder).map((c) => c.path);
const allPaths: string[] = compactCandidates.map((c) => c.path);
interface Row { log2n: number; density: number; ms: Record<string, number>; autoKeepPath: string; autoAnyPath: string }
interface Batch { samplesMs?: number[]; secondOpinionCalls?: number[] }

const args = process.argv.slice(2);
const marginArg = args.indexOf('--switch-margin');
const switchMargin = marginArg >= 0 ? Number(args[marginArg + 1]) : undefined;
if (switchMargin !== undefined && !(switchMargin >= 1)) {
  console.error('second-opinion-replay: --switch-margin takes a ratio of at least 1');
  process.exit(2);
}
const files = args.filter((_arg, i) => marginArg < 0 || (i !== marginArg && i !== marginArg + 1));
const unknown = files.filter((arg) => arg.startsWith('--'));
if (unknown.length > 0 || files.length === 0) {
  console.error(`second-opinion-replay: ${unknown.length > 0 ? `unknown option ${unknown.join(', ')}` : 'no sweep files given'}; usage: [--switch-margin M] tuned-sweep-chromium-*.json`);
  process.exit(2);
}
const totals: Record<string, { sweeps: number; met: number; rows: number; outside: number; worst: number }> = {};
for (const file of files) {
  const sweep = JSON.parse(readFileSync(file, 'utf8')) as { profile?: TuningProfile; rows?: Row[]; switchMargin?: number };
  const profile = sweep.profile;
  const batches = (profile?.sampling as { batches?: Record<string, Record<string, Batch>> } | undefined)?.batches;
  if (!profile || profile.sampling?.timer !== 'query' || !batches || !sweep.rows?.[0]?.autoKeepPath) continue;
  // Only sweeps whose every compaction path has its samples on the record (from the twenty-sixth session).
  const compactionPoints = Object.entries(batches).filter(([point]) => !point.endsWith('/scan') && profile.timings[point]);
  if (compactionPoints.length === 0 || compactionPoints.some(([, byPath]) => Object.values(byPath).some((batch) => !batch.samplesMs))) continue;
  const recordedBy: string[] = [];
  // First-opinion batches that already queued a second opinion's calls (the rule before's exception).
  const queuedBatches = compactionPoints.reduce((n, [, byPath]) => n + Object.values(byPath).filter((batch) => ((batch as { calls?: number }).calls ?? 1) >= QUERY_SECOND_OPINION_CALLS).length, 0);
  const scores = Object.entries(rules).map(([name, rule]) => {
    const timings: TuningProfile['timings'] = structuredClone(profile.timings);
    let reproduces = true;
    for (const [point, byPath] of compactionPoints) {
      for (const [path, batch] of Object.entries(byPath)) {
        if (timings[point]![path] === undefined) continue;
        const firstCount = batch.samplesMs!.length - (batch.secondOpinionCalls?.length ?? 0);
        const time = rule(batch.samplesMs!.slice(0, firstCount), batch.samplesMs!.slice(firstCount));
        // Samples are recorded to the microsecond, rounded half up (x.xxx5 reads x.xxx + 0.001).
        if (Math.abs(time - timings[point]![path]!) > 5e-4 + 1e-9) reproduces = false;
        timings[point]![path] = time;
      }
    }
    const compact = { keep: {} as Record<string, string>, any: {} as Record<string, string> };
    for (const key of Object.keys(profile.compact.keep)) {
      const points = Object.keys(timings).filter((p) => p.startsWith(`${key}/`) && !p.endsWith('/scan'));
      compact.keep[key] = choiceOverDensities(timings, points, keepPaths, KEEP_DEFAULT_WITHIN).choice;
      compact.any[key] = choiceOverDensities(timings, points, allPaths, KEEP_DEFAULT_WITHIN).choice;
    }
    const replayed = { ...profile, timings, compact } as TuningProfile;
    const switchAt = switchMargin ?? sweep.switchMargin ?? densitySwitchMargin(profile.sampling);
    let worst = 0, within = 0, agree = 0;
    for (const row of sweep.rows!) {
      const capacity = 2 ** row.log2n;
      const keep = choiceAtDensity(replayed, 'keep', capacity, row.density, switchAt) ?? nearest(replayed.compact.keep, capacity)!;
      const any = choiceAtDensity(replayed, 'any', capacity, row.density, switchAt) ?? nearest(replayed.compact.any, capacity)!;
      agree += Number(keep === row.autoKeepPath) + Number(any === row.autoAnyPath);
      const keepRatio = row.ms[keep]! / Math.min(...keepPaths.map((path) => row.ms[path]!));
      const anyRatio = row.ms[any]! / Math.min(...allPaths.map((path) => row.ms[path]!));
      worst = Math.max(worst, keepRatio, anyRatio);
      if (keepRatio <= 1.15 && anyRatio <= 1.15) within++;
    }
    if (reproduces) recordedBy.push(`${name} (the replay runs ${agree} of the ${2 * sweep.rows!.length} paths the sweep ran)`);
    // Full sweeps (every size and density) apart from those of a few points (single-size tunes).
    const total = (totals[`${name}, ${sweep.rows!.length >= 25 ? 'full sweeps' : 'sweeps of a few points'}`] ??= { sweeps: 0, met: 0, rows: 0, outside: 0, worst: 0 });
    total.sweeps++;
    total.met += Number(within === sweep.rows!.length);
    total.rows += sweep.rows!.length;
    total.outside += sweep.rows!.length - within;
    total.worst = Math.max(total.worst, worst);
    return `${name} ${worst.toFixed(2)} (${within}/${sweep.rows!.length})`;
  });
  console.log(`${file.split('/').pop()}: ${scores.join(' | ')}; recorded by ${recordedBy.join(', ') || 'none of these'}${queuedBatches > 0 ? `; ${queuedBatches} first-opinion batches of ${QUERY_SECOND_OPINION_CALLS}+ calls` : ''}`);
}
for (const [name, t] of Object.entries(totals).sort(([a], [b]) => a.localeCompare(b))) console.log(`${name}: every row within 1.15 in ${t.met} of ${t.sweeps} sweeps; rows outside ${t.outside} of ${t.rows}; worst ${t.worst.toFixed(2)}`);
