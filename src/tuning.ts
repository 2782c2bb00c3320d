// Self-tuning (the paper's Sec. 7: compaction performance depends on the data and the architecture).
// engine.tune() times every path on the engine's own context, per size class, and 'auto' (and the
// default whole-stream scan) then take the fastest; a profile is plain JSON, keyed by the renderer
// and the engine's version, so an app can keep it (localStorage) or ship one per device class.
// Every path is exact: tuning changes speed, never results (order only where `order: 'any'` allows).
import type { CompactionAlgorithm } from './compact/algorithm-names.js';
import type { ScanAlgorithm } from './scan/algorithms.js';
import type { TuneWorker } from './tune-in-worker.js';
import { describe } from './validate.js';

/** The engine's version, part of a profile's key (a new version may change what is fastest). */
export const ENGINE_VERSION = '0.3.0';

/** What one measured call drew (`TuningProfile.work`). */
export interface PathWork {
  /** Passes (full-screen, line and capture draws). */
  passes: number;
  /** Fragments shaded by full-screen passes. */
  fragments: number;
  /** Fragments the line draws cover at most. */
  lineFragments: number;
}

/** What `engine.tune()` learnt: JSON you can store and give back with `engine.useProfile()`. */
export interface TuningProfile {
  /** Always 'glcompact-profile' (what engine.useProfile() checks first). */
  format: 'glcompact-profile';
  /** The engine version that measured it. */
  version: string;
  /** `engine.caps.renderer` of the context it was measured on. */
  renderer: string;
  /** When it was measured (ISO 8601). */
  measured: string;
  /**
   * The compaction per size class (log2 of the stream's texel capacity) for each order contract
   * while the density of the call is unknown: the path whose worst ratio to the fastest over the
   * tuned densities is smallest. Once a count of the same stream (or of that size class) has been
   * read, `auto` takes another path where `timings` at the nearest tuned density say this one is
   * more than 1.15× slower (DENSITY_SWITCH_MARGIN; choiceAtDensity).
   */
  compact: {
    /** For `order: 'keep'` (the default): among the order-keeping paths. */
    keep: Record<string, CompactionAlgorithm>;
    /** For `order: 'any'`: among all paths. */
    any: Record<string, CompactionAlgorithm>;
  };
  /** The fastest whole-stream scan per size class, timed on one-component streams (and taken for those). */
  scan: Record<string, ScanAlgorithm>;
  /**
   * Ms per call of every path measured, per size class and density (what `auto`'s switch at a known
   * density reads): the median of its samples, and for a path sampled a second time (secondOpinion)
   * the lower of its first opinion's median and what its second opinion read (secondOpinionTime). By
   * timer query a compaction path's least sample, first and second opinions together (leastSample),
   * and a scan's the middle of all its samples by the clock (pooledSecondOpinionTime).
   */
  timings: Record<string, Record<string, number>>;
  /**
   * What each measured call drew (passes, full-screen fragments, line fragments at most), per point and
   * path: the inputs of a cost model where measuring is too costly (bench/tune-probe.ts fits one).
   */
  work: Record<string, Record<string, PathWork>>;
  /**
   * How the timings were taken: the timer (until 2026-11-28 it set `auto`'s switch margin at a known
   * density, 1.35× through glFinish; now 1.15× whatever the timer: DENSITY_SWITCH_MARGIN), where timed by
   * fence the fence's own wait taken off every sample (ms), and per point and path the calls per sample
   * and the single call's times (ms) that sized it, or through glFinish, by fence where calls do not block and at a scan point by timer query the point's first path's (for the record).
   */
  sampling?: TuneSampling;
  /**
   * Per size class, where the bitmask compaction writes its output's padding (the texels past the
   * kept count): 'output-pass' (its output pass covers every row and writes 0 past the count: the
   * built-in default, 3.25 ms against 3.57 on the H200 at 2^24 and 50 % kept) or 'own-pass' (a pass of
   * its own writes the rows past the count, the output pass covers the kept rows only). On CPU
   * renderers the output pass's padding fragments cost almost what its kept ones do: at 2^18 and 5 %
   * kept the bitmask took 1.9 ms a call with the padding's own pass against 3.1 on llvmpipe in Node
   * (bench/padding-probe.ts), 5.0 against 8.6 on SwiftShader. tune() times both at each size class's lowest tuned density
   * (bitmaskPaddingForm); a stream takes the nearest class's. Absent (a profile from before it was
   * measured, or a hand-made one): the default at every size.
   */
  bitmaskPadding?: Record<string, BitmaskPadding>;
}

/** Where the bitmask compaction writes its output's padding (TuningProfile.bitmaskPadding). */
export type BitmaskPadding = 'output-pass' | 'own-pass';

/** How `engine.tune()` took its timings (`TuningProfile.sampling`). */
export interface TuneSampling {
  /**
   * 'query': GPU time from a timer query (a scan's samples there: submit-to-done by fence,
   * QUERY_SCAN_SAMPLE_MS); 'fence': submit-to-done, waited for by a fence polled
   * between tasks; 'finish': submit-to-done, waited for by glFinish (contexts without an asynchronous
   * fence: headless-gl).
   */
  timer: 'query' | 'fence' | 'finish';
  /** The fence's own wait (ms), measured behind a call of almost no work and taken off every sample timed by fence (by timer query, the scans'); 0 through glFinish. */
  fenceFloorMs: number;
  /**
   * The page's clock tick (ms: the least step of performance.now(), 1 in Firefox and WebKitGTK here):
   * a sample timed by the clock reads at least one tick over its calls (wallSampleMs). Absent in
   * profiles from before it was measured.
   */
  clockTickMs?: number;
  /**
   * Whether the context's calls block the thread (timed by fence only; four scans of up to 2^16
   * elements took at least 70 % of their submit-to-done time to issue, and twice as long as four
   * scans of a sixteenth as many): samples then hold at most 12 ms of calls, and are timed until the
   * work is done (less the fence's own wait), at least their time on the thread.
   */
  blockingCalls?: boolean;
  /** Per point (size class / density, or size class / scan) and path: how its samples were sized. */
  batches: Record<string, Record<string, TuneBatch>>;
  /**
   * Per size class (compactions), size class / scan, or size class / density: the paths sampled a
   * second time (`secondOpinion`; at a scan point `scanSecondOpinion`, by the clock also the default where
   * it is the choice, and any scan read within SCAN_CONTENDER_MARGIN of the choice; at a density, `densitySwitches`: of the class's choice and the path a
   * call there would switch to, those not sampled twice already for the class), round by round. A
   * round's lowered times can make another path the choice, which is then asked in the next round; a
   * path asked in an earlier round can lose the class in a later one. At a scan point by the clock a
   * second opinion can raise a time too (pooledSecondOpinionTime), and a scan the new times choose is
   * asked in the next round.
   */
  secondOpinions?: Record<string, string[][]>;
  /**
   * Per point (size class / the lowest tuned density) and form ('output-pass', 'own-pass'): how the
   * bitmask's two forms of writing its padding were sampled, by turns, before the class's paths
   * (TuningProfile.bitmaskPadding; the median of each form's samplesMs is what bitmaskPaddingForm
   * compared). Absent in profiles from before it was measured.
   */
  padding?: Record<string, Partial<Record<BitmaskPadding, TuneBatch>>>;
}

/** How the samples of one point and path were sized (`TuneSampling.batches`). */
export interface TuneBatch {
  /** Calls per sample (back to back, one sample per task); through glFinish, by fence where calls do not block, and at a scan point by timer query, the point's first path's for every path. */
  calls: number;
  /** One call's submit-to-done time less the fence floor (ms; by timer query, less it only at a scan point): with `issueMs`, the longer, what sized the sample (through glFinish, by fence where calls do not block, and at a scan point by timer query, only the point's first path's does). */
  oneCallMs: number;
  /**
   * One call's time on the thread until it returned (ms): with `oneCallMs`, the longer, what sized the
   * sample (where calls block, `TuneSampling.blockingCalls`: as many as fit in 12 ms).
   */
  issueMs?: number;
  /**
   * Samples taken: `repeats`, or 1 where the path was at least twice as slow (1.5 times through
   * glFinish) as the fastest of its candidate sets by its first sample and by its single call
   * (`pathsToResample`; not sampled again
   * unless a choice rests on it), or `repeats` and a second opinion's samples (`repeats` more; through glFinish TUNE_SAMPLING.secondOpinionSamples) where the path was sampled a second time
   * (`secondOpinion`: the default and the paths chosen over it, even where the class then came back to
   * the default; at a scan point timed by the clock also the default where it is the choice and the scans read close to the choice, `scanSecondOpinion`; `densitySwitches`: at a density where the fastest other path reads within the ask
   * margin of the class's choice, densityAskMargin). A path sampled again is called once more, untimed, before its later
   * samples (its targets back in the pool).
   */
  samples?: number;
  /**
   * The calls of each second-opinion sample. Through glFinish (headless-gl): issued back to back until
   * they have held the thread TUNE_SAMPLING.secondOpinionMs (secondOpinionContinues) in the point's first
   * such sample, as many in every later one at the point. By timer query (Chromium), at compaction
   * points: calls queued together, the larger of QUERY_SECOND_OPINION_CALLS and the batch of the
   * point's first path asked, as many for every later one (scan points keep the first opinion's batch
   * and record none). Where calls block the thread (WebKitGTK): BLOCKING_SECOND_OPINION_TASKS
   * tasks of `calls` each. Absent unless asked a second opinion there (by fence where calls do not
   * block, Firefox: always absent, its second opinions being the first opinion's batches).
   */
  secondOpinionCalls?: number[];
  /**
   * What each sample read (ms per call, to the microsecond), in the order taken: the first opinion's,
   * then any second opinion's (`samples` of them in all). For the record: what a choice rested on.
   */
  samplesMs?: number[];
}

/** engine.tune()'s sizes when none are given. */
export const TUNE_DEFAULT_SIZES: readonly number[] = [2 ** 10, 2 ** 12, 2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20];

/**
 * engine.tune()'s densities (fractions kept) when none are given: both ends of the range apps compact
 * at, and its middle. A path's cost follows the kept count (the HistoPyramid walks once per kept
 * element; the bitmask's does not), so the paths part most at the ends, and `auto` at a counted
 * density takes the nearest tuned one's timings (choiceAtDensity): at 10 / 50 / 90 % (until
 * 2026-11-28, twenty-third session) a call at 5 % took the 10 % point's, where the HistoPyramid and
 * the bitmask read within 1.07, and ran the bitmask at 1.16-1.29x the HistoPyramid (llvmpipe in Node,
 * Firefox and WebKitGTK at 2^18; docs/performance.md, "The tune's densities at the ends of the range").
 */
export const TUNE_DEFAULT_DENSITIES: readonly number[] = [0.05, 0.5, 0.95];

/** Options of `engine.tune()`; every one may be left out. */
export interface TuneOptions {
  /**
   * Stream lengths to measure (default [2^10, 2^12, 2^14, 2^16, 2^18, 2^20]); calls between them take the
   * nearest. Lengths of one size class (log2 of the stream's texel capacity, rounded: e.g. 1000 and 2000) are
   * measured once, at the largest of them.
   */
  sizes?: readonly number[] | undefined;
  /** Fractions of elements kept to measure compactions at (default [0.05, 0.5, 0.95]: TUNE_DEFAULT_DENSITIES). */
  densities?: readonly number[] | undefined;
  /**
   * Timed samples per path and point (default 3; the median counts, by timer query a compaction
   * path's least sample: leastSample); 1 for a path at least twice as
   * slow as the fastest of its candidate sets by its first sample and by its single call.
   */
  repeats?: number | undefined;
  /**
   * A Web Worker whose script calls `serveTuning()`: the samples run there, on a WebGL2 context of an
   * OffscreenCanvas of its own, and the page's thread only posts the request and takes the profile (Chromium, Firefox;
   * WebKitGTK 2.50 gives workers no WebGL2 context, and the tune rejects). The profile is taken only if
   * the worker's context reports this engine's renderer. The worker is the app's to terminate.
   */
  worker?: TuneWorker | undefined;
  /**
   * Called after each point is timed (a size at a density, or a size's scans), with how many of
   * `total` (sizes × (densities + 1)) are done: a tune takes seconds on a CPU renderer. Larger sizes
   * take longer, so `done / total` counts points, not time. With a worker, called on this thread.
   */
  onProgress?: ((progress: TuneProgress) => void) | undefined;
}

/** What engine.tune()'s `onProgress` is told after each timed point. */
export interface TuneProgress {
  /** Points timed so far. */
  done: number;
  /** Points in this tune: sizes × (densities + 1 for the scans). */
  total: number;
  /** The point just timed: its stream length. */
  size: number;
  /** The point just timed: its kept fraction (undefined for the size's scans). */
  density: number | undefined;
}

const compactCandidates: ReadonlyArray<{ path: CompactionAlgorithm; keepsOrder: boolean }> = [
  { path: 'bitmask', keepsOrder: true },
  { path: 'horn', keepsOrder: true },
  { path: 'horn-global', keepsOrder: true },
  { path: 'histopyramid', keepsOrder: true },
  { path: 'jumping-jack', keepsOrder: false },
  { path: 'hybrid', keepsOrder: false },
];

export const scanCandidates: readonly ScanAlgorithm[] = ['reduce-then-scan', 'blelloch', 'recursive-doubling'];

/** The compaction options that run `path` (the hybrid: 'auto' with a block size and order 'any'). */
export function optionsForPath(path: CompactionAlgorithm): Record<string, unknown> {
  switch (path) {
    case 'hybrid': return { algorithm: 'auto', order: 'any', blockSize: 256 };
    case 'horn-global': return { algorithm: 'horn', global: true };
    case 'horn': return { algorithm: 'horn', blockSize: 256 };
    case 'jumping-jack': return { algorithm: 'jumping-jack', blockSize: 256 };
    default: return { algorithm: path };
  }
}

export { compactCandidates };

/** The size class of a stream: log2 of its texel capacity. */
export function sizeClass(capacity: number): number {
  return Math.round(Math.log2(Math.max(1, capacity)));
}

/** The key of the nearest measured size class (ties: the larger), or undefined for an empty table. */
export function nearestKey(table: Record<string, unknown>, capacity: number): string | undefined {
  const want = sizeClass(capacity);
  let best: number | undefined;
  for (const key of Object.keys(table)) {
    const k = Number(key);
    if (best === undefined || Math.abs(k - want) < Math.abs(best - want) || (Math.abs(k - want) === Math.abs(best - want) && k > best)) best = k;
  }
  return best === undefined ? undefined : String(best);
}

/** The entry of the nearest measured size class (ties: the larger), or undefined for an empty table. */
export function nearest<T>(table: Record<string, T>, capacity: number): T | undefined {
  const key = nearestKey(table, capacity);
  return key === undefined ? undefined : table[key];
}

/**
 * The size class's choice (`profile.compact[order]`) unless, at the tuned density nearest `density`
 * (a kept fraction), the profile timed another path (order-keeping for `'keep'`, any for `'any'`)
 * faster by more than `stayWithin`: then that path. Switching only on a clear loss keeps the choice
 * made over all densities (robust to one noisy timing) where it is good enough; on SwiftShader the
 * bitmask is 1.5–1.7× slower than Jumping Jack when 75–95 % of 2^18 are kept and 2–2.7× faster at
 * 5–25 % (bench/results/issue-20/tuned-sweep-chromium-*). Undefined where the profile has no timings
 * there (a hand-made one).
 */
export function choiceAtDensity(profile: TuningProfile, order: 'keep' | 'any', capacity: number, density: number, stayWithin: number): CompactionAlgorithm | undefined {
  const key = nearestKey(profile.compact[order], capacity);
  if (key === undefined) return undefined;
  let nearestDensity: number | undefined;
  for (const point of Object.keys(profile.timings)) {
    const [size, at] = point.split('/');
    const d = Number(at);
    if (size !== key || !Number.isFinite(d)) continue;
    if (nearestDensity === undefined || Math.abs(d - density) < Math.abs(nearestDensity - density)) nearestDensity = d;
  }
  if (nearestDensity === undefined) return undefined;
  const timings = profile.timings[`${key}/${nearestDensity}`]!;
  const paths = compactCandidates.filter((c) => (order === 'any' || c.keepsOrder) && typeof timings[c.path] === 'number').map((c) => c.path);
  if (paths.length === 0) return undefined;
  const best = paths.reduce((a, b) => (timings[b]! < timings[a]! ? b : a));
  const chosen = profile.compact[order][key]!;
  return typeof timings[chosen] === 'number' && timings[chosen]! <= timings[best]! * stayWithin ? chosen : best;
}

/**
 * How much faster (a ratio) another path must have been timed at the tuned density nearest a call's
 * for `auto` to leave the size class's choice there (choiceAtDensity): 1.15, the target ratio, however
 * the tune timed its samples, but 1.05 where calls block (densitySwitchMargin). Until 2026-11-28 it was 1.35 where the tune timed through glFinish
 * (headless-gl), whose first-opinion samples at small sizes are one or two calls, a lone call's latency
 * that ranked paths otherwise than back-to-back calls (the H200's HistoPyramid at 0.69 ms per call
 * against the bitmask's 0.81 at 2^18, 90 % kept, 1.5x slower in the sweep's batches). A switch stands
 * only on a second opinion at the density (densitySwitches), and through glFinish that is now calls
 * back to back (TUNE_SAMPLING), so the wider margin went: llvmpipe in Node, whose tune read the
 * HistoPyramid 1.28-1.38x faster than the bitmask at 2^20 and 10 % kept, then ran the bitmask at 1.79-1.88x
 * the HistoPyramid at 5 % kept; at 1.15, 1.25 at worst (2^18, 5 %), the H200's two sweeps 1.00 by
 * the path auto ran (docs/performance.md, "Second opinions of calls back to back through glFinish").
 */
export const DENSITY_SWITCH_MARGIN = 1.15;

/**
 * tune()'s choice for a size class among `paths`, from the timings at its tuned densities (`points`):
 * a call's density is unknown before it runs, so the best is the path whose worst ratio to the
 * fastest of `paths` over the points is smallest (then the least total time; on SwiftShader Jumping
 * Jack was fastest when most elements are kept and 2-2.7x slower at 5-25 %, and the least total had
 * picked it: bench/results/issue-20/tuned-sweep-chromium-*). The choice is the built-in default (the
 * bitmask) unless its worst ratio exceeds the best's by more than `keepDefaultWithin`: at small sizes
 * paths differ by less than the noise of one tune, and a choice that flips between tunes helps nobody.
 * Shared with bench/switch-replay.ts, which replays it at other margins.
 */
export function choiceOverDensities(timings: TuningProfile['timings'], points: readonly string[], paths: readonly string[], keepDefaultWithin: number): { best: string; choice: string } {
  const total = (path: string) => points.reduce((sum, point) => sum + timings[point]![path]!, 0);
  const worstRatio = (path: string) => Math.max(...points.map((point) => {
    const at = timings[point]!;
    return at[path]! / Math.max(Math.min(...paths.map((other) => at[other]!)), 1e-6);
  }));
  const ratios = new Map(paths.map((path) => [path, worstRatio(path)]));
  const best = paths.reduce((a, b) => (ratios.get(b)! < ratios.get(a)! || (ratios.get(b) === ratios.get(a) && total(b) < total(a)) ? b : a));
  return { best, choice: ratios.get('bitmask')! <= ratios.get(best)! * keepDefaultWithin ? 'bitmask' : best };
}

/**
 * Which paths tune() samples a second time before a size class leaves the built-in default: the
 * default and every path chosen over it (none where every choice kept it). A choice over the default
 * rests on its worst ratio over the tuned densities, which one disturbed point decides: WebKitGTK +
 * llvmpipe's bitmask at 2^14, 50 % kept, read 3.08 ms per call against 1.33 and 1.82 at 10 and 90 %,
 * and the HistoPyramid won the size class (auto's series in the sweep at up to 1.47x the bitmask's); on the H200 the
 * HistoPyramid at 2^16, 90 % kept, read 0.46 ms against 0.67-0.70 at the other densities, and won at up
 * to 1.36x (bench/results/issue-20/tuned-sweep-webkit-*-rounds7-pinned-done-timed.json,
 * tuned-sweep-h200-egl-2026-11-26-seventh-2.json). Sampled again later, each path keeps the lower of
 * its two opinions (what disturbs a sample, another process, a collection, the browser's own work, only
 * adds time; secondOpinionTime), by timer query at a compaction point the least of all its samples
 * (leastSample), at a scan point by the clock their middle (pooledSecondOpinionTime).
 */
export function secondOpinion(defaultPath: string, choices: ReadonlyArray<{ choice: string }>): string[] {
  const chosen = [...new Set(choices.map((c) => c.choice))].filter((path) => path !== defaultPath);
  return chosen.length === 0 ? [] : [defaultPath, ...chosen];
}

/**
 * Which scans tune() samples a second time at a scan point: as for the compactions (secondOpinion) the
 * default and the scan chosen over it; and where the scans are timed by the clock (`byClock`: by timer
 * query, engine.ts#scanByWall) also the default where it was chosen, with the scans read close to it
 * (below: a scan that read faster, kept within KEEP_DEFAULT_WITHIN until the thirty-first session, is
 * one of them). A scan point's three samples by the
 * clock, bursts of a few calls at 2^16, can read two scans closer than they are: Chromium +
 * SwiftShader's tunes read reduce-then-scan 1.045x and 1.08x Blelloch's time at 2^16 (Blelloch's
 * samples 3.35, 5.1 and 5.05 ms in one) where the sweep's batches read 1.19x and 1.39x, and the default
 * was kept (bench/results/issue-20/tuned-sweep-chromium-*-2026-11-29-twentyfifth-final.json,
 * -2026-12-07-worker-tune-twentysixth-all-clock.json); four tunes in five read 1.21-1.26x there.
 *
 * By the clock, where any scan is asked, so is every other scan whose first opinion reads within
 * SCAN_CONTENDER_MARGIN of the choice's, so the scans that could be chosen are judged on as many
 * samples each; where the default is the choice, it is asked with every scan read within the margin of
 * it (by the clock tune() keeps no default over a faster scan: engine.ts#KEEP_DEFAULT_WITHIN). Under the lower of two medians (secondOpinionTime, a scan's second opinion by the clock
 * until pooledSecondOpinionTime replaced it) a close scan left out lost to the lowered ones by that
 * bias alone: Chromium + SwiftShader at
 * 2^10, tuned in a worker, chose recursive doubling after its second opinion where Blelloch's one
 * opinion had read 1.04x its first (0.85 against 0.82 ms), and the page's sweep read Blelloch 1.18x
 * faster (bench/results/issue-20/tuned-sweep-chromium-*-2026-12-07-worker-tune-twentyninth-padding.json);
 * so in two of sixteen worker tunes of 2^10 alone, at 1.20x and 1.23x (-thirtieth-scan10-before-w*.json).
 */
export function scanSecondOpinion(defaultScan: string, choice: string, timings: Readonly<Record<string, number | undefined>>, scans: readonly string[], byClock: boolean): string[] {
  const asked = secondOpinion(defaultScan, [{ choice }]);
  if (!byClock) return asked;
  const chosenMs = timings[choice];
  const contenders = typeof chosenMs !== 'number' ? [] : scans.filter((scan) => scan !== choice && !asked.includes(scan) && typeof timings[scan] === 'number' && timings[scan]! <= chosenMs * SCAN_CONTENDER_MARGIN);
  if (asked.length === 0) {
    // The default kept: asked with every scan read within the margin of it (one read faster, where
    // the default was kept within KEEP_DEFAULT_WITHIN, among them), or not at all.
    return contenders.length === 0 ? [] : [defaultScan, ...contenders];
  }
  return [...asked, ...contenders];
}

/**
 * A scan point's choice from its timings: the fastest of `scans` (`best`), or the default where it reads
 * within `keepDefaultWithin` of it (tune() passes engine.ts#KEEP_DEFAULT_WITHIN, or 1 where the scans
 * are timed by the clock: there the default is kept only where it is the fastest).
 */
export function scanChoice<Scan extends string>(timings: Readonly<Record<string, number>>, scans: readonly Scan[], defaultScan: Scan, keepDefaultWithin: number): { best: Scan; choice: Scan } {
  const best = scans.reduce((a, b) => (timings[b]! < timings[a]! ? b : a));
  return { best, choice: timings[defaultScan]! <= timings[best]! * keepDefaultWithin ? defaultScan : best };
}

/**
 * How close (times the choice's first opinion) another scan's first opinion must read to be asked
 * beside it by the clock (scanSecondOpinion): the target ratio, within which either could be the faster.
 */
export const SCAN_CONTENDER_MARGIN = 1.15;

/**
 * The fastest of `paths` other than `chosen` where `chosen` reads more than `askAbove` times its time
 * (then both are worth a second opinion: densitySwitches); undefined
 * where none does. An ask margin below 1 names the fastest other path even where it read slower.
 */
export function closeRival(timings: Readonly<Record<string, number | undefined>>, chosen: string, paths: readonly string[], askAbove: number): string | undefined {
  const others = paths.filter((path) => path !== chosen && typeof timings[path] === 'number');
  if (others.length === 0 || typeof timings[chosen] !== 'number') return undefined;
  const best = others.reduce((a, b) => (timings[b]! < timings[a]! ? b : a));
  return timings[chosen]! > timings[best]! * askAbove ? best : undefined;
}

/**
 * Where `auto` would leave a size class's choice (choiceAtDensity) at one of its tuned densities: per
 * point (`key/density`), the class's choice and the fastest other path a call there could take (for
 * 'keep' and for 'any', together), where the choice reads more than `askAbove` times the other's time
 * (densityAskMargin: the switch margin, or less where samples are coarse or one call's latency). tune()
 * samples both a second time before that switch stands, as it does
 * before a class leaves the default (secondOpinion): the switch rests on one point's timings, which
 * one disturbed sample decides. Firefox + llvmpipe, 2^12 (bench/results/issue-20/tuned-sweep-firefox-
 * *-thirteenth-unpinned.json): the bitmask read 2.29 ms per call at 90 % kept against 0.75-1.0 at 10
 * and 50 %, the HistoPyramid 1.57, and auto ran the HistoPyramid at 75-95 % at 1.2-1.3x the bitmask.
 */
export function densitySwitches(profile: Pick<TuningProfile, 'compact' | 'timings'>, key: string, points: readonly string[], askAbove: number): Array<[string, string[]]> {
  const switches: Array<[string, string[]]> = [];
  for (const point of points) {
    const timings = profile.timings[point];
    if (timings === undefined) continue;
    const asked = new Set<string>();
    for (const order of ['keep', 'any'] as const) {
      const chosen = profile.compact[order][key];
      const paths = compactCandidates.filter((c) => (order === 'any' || c.keepsOrder) && typeof timings[c.path] === 'number').map((c) => c.path);
      if (chosen === undefined || typeof timings[chosen] !== 'number' || paths.length === 0) continue;
      const rival = closeRival(timings, chosen, paths, askAbove);
      if (rival !== undefined) asked.add(chosen).add(rival);
    }
    if (asked.size > 0) switches.push([point, [...asked]]);
  }
  return switches;
}

/** Checks a profile given to engine.useProfile(); returns it typed, or throws saying what is wrong. */
export function parseProfile(profile: unknown, renderer: string, what = 'engine.useProfile(profile)'): TuningProfile {
  const p = profile as Partial<TuningProfile> | null;
  if (typeof p !== 'object' || p === null || p.format !== 'glcompact-profile') {
    throw new Error(`${what}: profile must be what engine.tune() returns (or engine.profile gives), format 'glcompact-profile'; got ${typeof p === 'object' && p !== null ? `an object with format ${JSON.stringify(p.format)}` : typeof p}`);
  }
  if (p.version !== ENGINE_VERSION) {
    throw new Error(`${what}: the profile was measured by glcompact ${p.version}, this is ${ENGINE_VERSION}: tune again (a new version can change what is fastest)`);
  }
  if (p.renderer !== renderer) {
    throw new Error(`${what}: the profile was measured on '${p.renderer}', this context is '${renderer}': tune on this device, or keep one profile per renderer`);
  }
  const compactPaths = new Set<string>(compactCandidates.map((c) => c.path));
  const ordered = new Set<string>(compactCandidates.filter((c) => c.keepsOrder).map((c) => c.path));
  for (const order of ['keep', 'any'] as const) {
    for (const [key, path] of Object.entries(p.compact?.[order] ?? {})) {
      if (!Number.isInteger(Number(key)) || !compactPaths.has(path) || (order === 'keep' && !ordered.has(path))) {
        throw new Error(`${what}: profile.compact.${order}[${JSON.stringify(key)}] = ${JSON.stringify(path)} is not a path the engine can take there`);
      }
    }
  }
  for (const [key, algorithm] of Object.entries(p.scan ?? {})) {
    if (!Number.isInteger(Number(key)) || !scanCandidates.includes(algorithm)) {
      throw new Error(`${what}: profile.scan[${JSON.stringify(key)}] = ${JSON.stringify(algorithm)} is not a scan algorithm`);
    }
  }
  // Timings are optional (a hand-made profile may give only choices): auto's switch at a known
  // density reads them, so what is there must be ms per path per point.
  const timings = p.timings ?? {};
  if (typeof timings !== 'object') throw new Error(`${what}: profile.timings must be an object of { [path]: ms per call } per point, or left out; got ${describe(p.timings)}`);
  for (const [point, times] of Object.entries(timings)) {
    if (typeof times !== 'object' || times === null) throw new Error(`${what}: profile.timings[${JSON.stringify(point)}] must be an object of { [path]: ms per call }; got ${describe(times)}`);
    for (const [path, ms] of Object.entries(times)) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new Error(`${what}: profile.timings[${JSON.stringify(point)}].${path} must be a time in ms (a finite number, 0 or more); got ${describe(ms)}`);
    }
  }
  const padding = (p as { bitmaskPadding?: unknown }).bitmaskPadding;
  if (padding !== undefined && (typeof padding !== 'object' || padding === null)) {
    throw new Error(`${what}: profile.bitmaskPadding must be an object of { [size class]: 'output-pass' | 'own-pass' }, or left out; got ${describe(padding)}`);
  }
  for (const [key, form] of Object.entries(padding ?? {})) {
    if (!Number.isInteger(Number(key)) || (form !== 'output-pass' && form !== 'own-pass')) {
      throw new Error(`${what}: profile.bitmaskPadding[${JSON.stringify(key)}] = ${JSON.stringify(form)} is not where the bitmask can write its padding ('output-pass' or 'own-pass')`);
    }
  }
  // How the tune timed its samples is mostly a record, but `blockingCalls` sets auto's switch margin
  // at a known density (densitySwitchMargin): a truthy string must not pass for true.
  const sampling = p.sampling as unknown;
  if (sampling !== undefined && (typeof sampling !== 'object' || sampling === null)) {
    throw new Error(`${what}: profile.sampling must be an object (how the tune timed its samples), or left out; got ${describe(sampling)}`);
  }
  const blocking = (sampling as { blockingCalls?: unknown } | undefined)?.blockingCalls;
  if (blocking !== undefined && typeof blocking !== 'boolean') {
    throw new Error(`${what}: profile.sampling.blockingCalls must be true or false (whether the tune's calls blocked the thread), or left out; got ${describe(blocking)}`);
  }
  return { ...(p as TuningProfile), timings: { ...timings }, work: { ...p.work }, compact: { keep: { ...p.compact?.keep }, any: { ...p.compact?.any } }, scan: { ...p.scan }, ...(padding === undefined ? {} : { bitmaskPadding: { ...(padding as Record<string, BitmaskPadding>) } }) };
}

/**
 * tune()'s choice of where the bitmask writes its padding at a size class (TuningProfile.bitmaskPadding),
 * from the two forms' times at the class's lowest tuned density, where their difference is largest
 * (the padding is most of the output): the built-in default unless the padding's own pass read faster
 * by more than `keepDefaultWithin` (BITMASK_PADDING_MARGIN). Where most elements are kept the two forms were within 2 % on
 * SwiftShader (2^16-2^20, 50 and 95 %), and the default's gain on a GPU was 3-10 % (H200, 50 %): a
 * form that wins only within the noise keeps the default.
 */
export function bitmaskPaddingForm(ms: { outputPass: number; ownPass: number }, keepDefaultWithin = BITMASK_PADDING_MARGIN): BitmaskPadding {
  return ms.outputPass > ms.ownPass * keepDefaultWithin ? 'own-pass' : 'output-pass';
}

/** bitmaskPaddingForm's margin: as a size class's choice of path keeps the built-in default (engine.ts#KEEP_DEFAULT_WITHIN). */
export const BITMASK_PADDING_MARGIN = 1.1;

/** tune(): calls whose issue takes at least this share of their submit-to-done time less the fence's own wait ... */
const BLOCKING_SHARE = 0.7;
/** ... and at least this many times longer with 16 times the elements block the thread. */
const BLOCKING_GROWTH = 2;

/**
 * Whether a context's calls block the thread (tune(), where there is no timer query), from four
 * calls on n elements (`large`: their issue time until they returned, and their submit-to-done
 * time less the fence's own wait, ms) and four on n / 16 (`small`). Blocking calls (WebKitGTK: the
 * renderer does the work before they return) take most of their submit-to-done time to issue, and
 * longer with more work; calls whose issue is only host cost (headless-gl on an H200, where that
 * cost is of the order of the GPU's work) take as long with less. At least 1 ms, for clocks that
 * tick by whole milliseconds.
 */
export function callsBlock(large: { issued: number; done: number }, small: { issued: number }): boolean {
  return large.issued >= 1 && large.issued >= BLOCKING_SHARE * large.done && large.issued >= BLOCKING_GROWTH * small.issued;
}

/**
 * tune(): where calls do not block the thread, a sample is a batch of back-to-back calls meant to last
 * `sampleMs` (and at least twice the fence's own wait where timed by fence: ~4 ms in Chromium
 * without a timer query, ~5 ms in Firefox), each call reckoned at its single call's submit-to-done
 * time or its issue time, whichever is longer, at most 16 calls. With a timer query (Chromium; a scan
 * point there is timed by fence, its batch QUERY_SCAN_SAMPLE_MS long) or glFinish (headless-gl: no asynchronous
 * fence; precise to microseconds) `sampleMs` alone sizes the batch (through glFinish, the point's first
 * path's batch for every path of the point: engine.ts tune()), and its GPU work is most of what a
 * tune costs (H100 egl, the default tune's calls: 634 ms of GPU time with 2 ms samples, 161 with 0.5:
 * bench/tune-probe.ts --gpu-time). Calls that block the thread (WebKitGTK) take as many as fit in 12 ms
 * instead. Mutable for bench/tune-probe.ts --sample-ms and bench/tuned-sweep.ts --sample-ms.
 *
 * Timed through glFinish (headless-gl), a second opinion's sample issues calls back to back until they
 * have held the thread `secondOpinionMs`, while one more keeps it within `secondOpinionElements` stream
 * elements (the GPU time a contested class costs at large sizes), at most `secondOpinionMaxCalls`, at
 * least the first opinion's batch (secondOpinionContinues). The first opinion's samples, sized by a lone
 * call, are one or two calls at the small sizes on a fast GPU, mostly a lone call's round trip: on the
 * H200 at 2^11-2^14, 0.2-0.6 ms per call against 0.1-0.3 in batches of 64, which run the bitmask up to
 * 1.4x faster than the HistoPyramid there; one or two calls rank them by turns. Tunes on the H200
 * (bench/tune-repeat.ts, sizes 2^10-2^16, every path then timed in batches of 64), within 1.15 at every
 * class: with second opinions of the first opinion's batch 12 of 24 (20 of 96 classes left the bitmask
 * for the HistoPyramid); of calls for 2 ms (at most 16) 27 of 48; for 6 ms (at most 64; half of
 * them within 2^20 elements) 48 of 48, for 12 ms 24 of 24, none leaving the bitmask; with every sample
 * at a point as long as its first (as shipped) 11 and 0 of 12, the 0 in a process whose batches ran the
 * HistoPyramid 1.23x faster at a point no first opinion contested (docs/performance.md, "Second
 * opinions of calls back to back"). A second opinion is asked only where a
 * choice would leave the default or a density would leave the class's choice, so only the samples a
 * choice rests on are the longer ones; every second-opinion sample at a point holds as many calls as
 * the point's first (engine.ts tune()). The paths not asked keep their first opinions, slower by the
 * round trip, so a third path takes no choice from the two asked (as before, when the two asked
 * took the lower of their two medians). `secondOpinionSamples` such samples per path (not `repeats`), of
 * which the lower counts (what disturbs a sample only adds time): with three, a tune of the H200 that
 * contested three classes took 204.2 ms of GPU time (2^11 at two densities, 2^16 at three, the 2^14
 * scan: ~70 ms of it second opinions), over the 200 ms target; shorter ones cost quality instead
 * (4 ms within 2^19 elements, 3 ms within 2^18: 9 of 12 tunes within 1.15 each, against 12 of 12 at
 * 6 ms) (docs/performance.md, "The tune's densities at the ends of the range, and second opinions of
 * two samples"). Mutable for the bench CLIs' --second-opinion-* flags (bench/lib/second-opinion-flags.ts).
 */
export const TUNE_SAMPLING: { sampleMs: number; secondOpinionMs: number; secondOpinionMaxCalls: number; secondOpinionElements: number; secondOpinionSamples: number } = {
  sampleMs: 0.5,
  secondOpinionMs: 6,
  secondOpinionMaxCalls: 64,
  secondOpinionElements: 2 ** 20,
  secondOpinionSamples: 2,
};

/**
 * tune()'s test data: made for at most `sliceMs` of a task, uploaded `uploadElements` elements (whole
 * rows) per task. In Chromium + SwiftShader, made 2^16 values per task inside tune() V8 ran the loop
 * unoptimised (3.5-5.3 ms of CPU a task), and an upload of 2^18 values at once took 8.1 ms of CPU
 * (docs/performance.md, "The tune's tasks by Chromium's own trace"). Tunable for tests.
 */
export const TUNE_DATA: { sliceMs: number; uploadElements: number } = { sliceMs: 1, uploadElements: 2 ** 16 };

/**
 * A second opinion's samples (tune()'s confirm()): how many to take. Through glFinish (`backToBack`:
 * calls back to back for TUNE_SAMPLING.secondOpinionMs) TUNE_SAMPLING.secondOpinionSamples, never
 * more than `repeats`: most of a contested class's GPU time is these samples. Elsewhere `repeats`
 * samples of the first opinion's batch.
 */
export function secondOpinionSamples(repeats: number, backToBack: boolean): number {
  return backToBack ? Math.min(repeats, TUNE_SAMPLING.secondOpinionSamples) : repeats;
}

/**
 * What a second opinion's samples read together: through glFinish the lower (what disturbs a sample
 * only adds time), elsewhere their median. The path's time is then the lower of this and its first
 * opinion's median (secondOpinionTime).
 */
export function secondOpinionReads(fresh: readonly number[], backToBack: boolean): number {
  const sorted = [...fresh].sort((a, b) => a - b);
  return backToBack ? sorted[0]! : sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * A path's time after its second opinion, from its first opinion's median and the fresh samples, by
 * the tune's timer: the lower of the first and what the fresh read (secondOpinionReads; what disturbs
 * a sample only adds time). By timer query the tune takes neither medians: a compaction path's least
 * sample (leastSample), a scan's middle of all its samples by the clock (pooledSecondOpinionTime).
 */
export function secondOpinionTime(first: number, fresh: readonly number[], timer: 'query' | 'fence' | 'finish'): number {
  return Math.min(first, secondOpinionReads(fresh, timer === 'finish'));
}

/**
 * A scan's time after its second opinion where the scans are timed by the clock (by timer query:
 * engine.ts#scanByWall): the middle of all its samples, the first opinion's and the fresh ones
 * together, not the lower of their two medians (secondOpinionTime). There every sample of every scan
 * at the point is the same measure (batches of one size, timed by the clock through a fence), and a
 * scan's samples do not only gain time from disturbances: they swing between states. Chromium +
 * SwiftShader at 2^10 read Blelloch's 21 passes at 0.52-0.89 ms in one tune, recursive doubling's at
 * 0.61-0.70, and the lower of two medians of three chose Blelloch (0.53 against 0.65) where the
 * sweep's median read it 1.26x slower. Judged by the sweep's series of the scan chosen, over tunes of
 * 2^10 alone (bench/results/issue-20/*-thirtyfirst-scan10-*): of 48 tunes with the lower of two
 * medians, 4 missed 1.15 (1.24-1.26) where the middle of the same samples would have missed none; 24
 * tunes with the middle all met it. Over the thirtieth session's 48 (a day whose sweeps read
 * Blelloch faster: *-thirtieth-scan10-after-*, -repeats9-*) the middle would have missed 3 (1.17-1.18)
 * against the lower's 1 (1.17): neither removes what the tune's context reads otherwise than the
 * sweep's, but the middle's worst is the lower.
 */
export function pooledSecondOpinionTime(first: readonly number[], fresh: readonly number[]): number {
  const all = [...first, ...fresh].sort((a, b) => a - b);
  if (all.length === 0) throw new Error('internal: a second opinion without samples');
  return all[Math.floor(all.length / 2)]!;
}

/**
 * By timer query (Chromium), a compaction path's time at a point: the least of its samples, first and
 * second opinions together, not their median. There a sample is GPU time alone (no clock, no fence's
 * wait taken off), and what disturbs it only adds: the tune's other work, the page's in the same GPU
 * process, the host's other threads on SwiftShader's cores. Chromium + SwiftShader at 2^16 and 95 %
 * kept read Jumping Jack's lone calls at 8.25, 5.18 and 7.82 ms in one worker tune (median 7.82
 * against the bitmask's 6.28), where the sweep's batches took 5.39 against 6.39: the bitmask was
 * kept at 1.19x the fastest. Replayed from the samples recorded in the 35 full Chromium sweeps of the
 * twenty-sixth to thirty-first sessions (bench/second-opinion-replay.ts), the least sample met 1.15 at
 * every point in 30 (6 rows of 875 outside), the lower of two medians in 27 (18 rows), the second
 * opinion's median alone, the rule then, in 23 (24 rows); run, 8 sweeps of 8 against the lower of
 * two medians' 6 (docs/performance.md, "A compaction's time by timer query: its least sample"). Scans there are
 * timed by the clock (pooledSecondOpinionTime); elsewhere the median counts (secondOpinionTime).
 */
export function leastSample(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error('internal: a time without samples');
  return Math.min(...samples);
}

/** tune(): a sample of calls that block the thread holds at most this many ms of them (a frame's worth). */
export const TUNE_TASK_MS = 12;

/**
 * Where calls block the thread (WebKitGTK), how many tasks a second opinion's sample spans: each task
 * makes the path's first-opinion batch of calls (at most TUNE_TASK_MS of them) and is timed until its
 * work is done, and the sample is the sum over the tasks per call. A first-opinion sample there is one
 * task of 6-12 ms timed by a 1 ms clock, with the fence's own wait (an estimate) taken off, so two
 * paths' samples rank them only to about a tenth: WebKitGTK + llvmpipe at 2^18 and 5 % kept, the tune
 * read the HistoPyramid 1.11x faster than the bitmask (two-call samples of 6 ms against three-call
 * samples of 10), under the switch margin, where the sweep's 8-call batches had it 1.23x faster
 * (bench/results/issue-20/tuned-sweep-webkit-*-twentythird-ends.json; 1.29x in the tenth session's).
 * Over four tasks the clock's and the estimate's errors average out; every task still fits a frame.
 */
export const BLOCKING_SECOND_OPINION_TASKS = 4;

/**
 * Where the timer query times a second opinion, the calls each of its samples makes back to back (a
 * first-opinion sample there is one call: TUNE_SAMPLING.sampleMs is below every call's GPU time).
 * One call's GPU time is its latency; calls queued behind one another, as an app's are and as the
 * sweep's batches are, overlap in SwiftShader's threads, and not equally: Chromium's query gave Jumping
 * Jack 6.89 ms per call at 2^16, 95 % kept, against the bitmask's 6.32, where the sweep's batches of 8
 * took 5.19 against 6.16; reduce-then-scan and recursive doubling 1.06 ms each at 2^10, the sweep 1.22
 * against 0.98 (bench/results/issue-20/tuned-sweep-chromium-*-twentythird-ends.json). As first
 * opinions, four calls per sample doubled the tune's time for no gain beyond the spread (docs/
 * performance.md, "Polls in 4 ms steps"); as second opinions they are asked only where two paths are close.
 * Compactions only: a scan's second opinion keeps the first opinion's batch (engine.ts#queuedSecondOpinion).
 */
export const QUERY_SECOND_OPINION_CALLS = 4;

/** Where calls block the thread (WebKitGTK): a density's ask margin and auto's switch margin there (densityAskMargin, densitySwitchMargin). */
export const BLOCKING_ASK_MARGIN = 1.05;

/**
 * How much faster than a size class's choice the fastest other path must read at one of its tuned
 * densities for tune() to ask both a second opinion there (densitySwitches; a ratio, the choice's time
 * over the other's). By how the tune timed its samples (`sampling`):
 * - DENSITY_SWITCH_MARGIN where its samples resolve it (glFinish; by fence where calls do not block);
 * - 1.05 where calls block the thread (WebKitGTK), whose first-opinion samples rank paths only to
 *   about a tenth (BLOCKING_SECOND_OPINION_TASKS): a lead of 1.11 read there may be 1.23;
 * - 0.9 by timer query (Chromium), whose one-call samples can rank two close paths the wrong way
 *   round (QUERY_SECOND_OPINION_CALLS): the other path is asked even where it read up to 1.11x slower.
 * The switch itself (choiceAtDensity) is densitySwitchMargin's, on the timings after the second
 * opinion: 1.05 where calls block, else DENSITY_SWITCH_MARGIN.
 */
export function densityAskMargin(sampling: { timer: 'query' | 'fence' | 'finish'; blockingCalls?: boolean }): number {
  if (sampling.blockingCalls) return BLOCKING_ASK_MARGIN;
  return sampling.timer === 'query' ? 0.9 : DENSITY_SWITCH_MARGIN;
}

/**
 * By timer query, how long (ms) a scan point's sample lasts: calls back to back, timed by wall clock
 * (submit to done, by fence, less the fence's own wait), the same number for every scan of the point,
 * at most MAX_BATCH_CALLS. A scan's GPU time leaves out what its passes cost outside the GPU, most of a
 * small scan's time in Chromium: Blelloch's 21-32 passes read 0.51 ms of GPU time per call at 2^10
 * (its size class 11) where the sweep's wall-clock batches took 1.23 ms (reduce-then-scan 0.98 and 1.14), and tune() chose
 * it at 1.30x the fastest scan (bench/results/issue-20/tuned-sweep-chromium-*-2026-11-29-
 * twentyfifth-scan-ask-2.json).
 */
export const QUERY_SCAN_SAMPLE_MS = 16;

/**
 * The margin of auto's switch at a known density (choiceAtDensity) for a profile timed as `sampling`
 * says: DENSITY_SWITCH_MARGIN, but where calls block (WebKitGTK) the ask margin, 1.05. There every lead
 * above 1.05 was sampled again over four tasks a sample (BLOCKING_SECOND_OPINION_TASKS), so the timings
 * a switch rests on are the finer ones, and a lead of 1.13 is not noise: WebKitGTK + llvmpipe at 2^18,
 * 5 % kept, the second opinion read the HistoPyramid 1.13x faster than the bitmask (2.29 against 2.6
 * ms) and the sweep 1.19x; at 1.15 auto stayed on the bitmask, a miss. Replayed over seven WebKitGTK
 * sweeps with these second opinions, the switch met 1.15 at every point in six at 1.05, five at 1.1,
 * four at 1.15; the seventh's miss (1.25 at 2^16, 25 %) was a 1.06 lead at 5 % that the sweep had the
 * other way round (bench/results/issue-20/switch-replay-2026-11-29-twentyfourth-webkit.txt).
 * Elsewhere a first opinion under the ask margin decides, and 1.15 (the target) keeps the class's choice
 * where the two are close. A profile without `sampling` (older ones) switches at 1.15.
 */
export function densitySwitchMargin(sampling: { blockingCalls?: boolean } | undefined): number {
  return sampling?.blockingCalls ? BLOCKING_ASK_MARGIN : DENSITY_SWITCH_MARGIN;
}
/** tune(): the most calls in one sample. */
export const MAX_BATCH_CALLS = 16;

/**
 * How many back-to-back calls one tune() sample holds (TUNE_SAMPLING's rule), from one call's
 * submit-to-done time less the fence floor (`oneMs`) and its time on the thread until it returned
 * (`issuedMs`). Calls that block the thread: as many as fit in TUNE_TASK_MS, each call taking the
 * longer of its two times. A call that blocks may still return before its work is done, and the next
 * one then waits for it: WebKitGTK + llvmpipe's bitmask at 2^18 returned after 1 ms of its 9, and a
 * sample sized by the issue time alone, 12 calls, held the thread for ~160 ms
 * (bench/results/issue-20/tuned-sweep-webkit-*-rounds7-pinned.json). Otherwise enough to last the
 * sample's length, and at least twice the fence's own wait, each call again taking the longer of its
 * two times (calls issued back to back wait for neither the GPU nor each other: where the
 * submit-to-done less the floor is at the clamp, headless-gl's small calls, sizing by it alone made
 * every batch MAX_BATCH_CALLS). Always 1 to MAX_BATCH_CALLS.
 */
export function batchCalls(call: { oneMs: number; issuedMs: number }, timing: { blocking: boolean; fenceFloorMs: number; sampleMs?: number }): number {
  const callMs = Math.max(call.oneMs, call.issuedMs);
  const calls = timing.blocking
    ? Math.floor(TUNE_TASK_MS / Math.max(callMs, 0.01))
    : Math.ceil(Math.max(timing.sampleMs ?? TUNE_SAMPLING.sampleMs, 2 * timing.fenceFloorMs) / callMs);
  return Math.max(1, Math.min(MAX_BATCH_CALLS, calls));
}

/**
 * ms per call of a tune() sample of `calls` calls that block the thread: from the sample's start until
 * its work was done (`doneMs`, waited for by fence) less the fence's own wait, or its time on the
 * thread (`onThreadMs`) where that is longer. A call that blocks may return before its work is done
 * (WebKitGTK + llvmpipe, 2^18 at 90 % kept: Horn's calls after 9 ms of their 17); timed on the thread
 * alone such samples had read 11 ms per call where the sweep's batches took 19-23, and auto chose
 * Horn there at 1.9x the fastest (bench/results/issue-20/tuned-sweep-webkit-*-rounds7-pinned.json).
 */
export function blockingSampleMs(sample: { onThreadMs: number; doneMs: number }, fenceFloorMs: number, calls: number, clockTickMs = 0): number {
  return wallSampleMs(Math.max(sample.onThreadMs, sample.doneMs - fenceFloorMs), calls, clockTickMs);
}

/**
 * ms per call of a tune() sample timed by the page's clock (by fence, through glFinish, or on the
 * thread): `elapsedMs` over `calls` calls, at least one clock tick over them. Less than a tick is
 * below what the clock tells, and a reading of 0 (a sample within the fence's own wait, which is taken
 * off) made every other path at that density look infinitely slower in choiceOverDensities: WebKitGTK
 * (a 1 ms clock) read the bitmask at 0 ms at 20 % kept and kept it for the class where it was 61x the
 * HistoPyramid at 80 % (test/tuning.test.ts "a second opinion undoes ...", failing 1 run in 5 before).
 */
export function wallSampleMs(elapsedMs: number, calls: number, clockTickMs: number): number {
  return Math.max(elapsedMs, clockTickMs) / calls;
}

/**
 * Whether a second opinion's sample through glFinish issues another call, after `calls` calls of
 * `elements` stream elements each that have held the thread `issuedMs` since the sample began: until
 * they have held it TUNE_SAMPLING.secondOpinionMs, while one more keeps the sample within
 * TUNE_SAMPLING.secondOpinionElements elements, at most TUNE_SAMPLING.secondOpinionMaxCalls, and never
 * fewer than `firstBatch` (the calls of the path's first-opinion samples).
 */
export function secondOpinionContinues(calls: number, firstBatch: number, issuedMs: number, elements: number): boolean {
  if (calls < firstBatch) return true;
  const { secondOpinionMs, secondOpinionMaxCalls, secondOpinionElements } = TUNE_SAMPLING;
  return calls < secondOpinionMaxCalls && issuedMs < secondOpinionMs && (calls + 1) * elements <= secondOpinionElements;
}

/** tune(): a path this many times slower than the fastest after one sample is not sampled again (see pathsToResample). */
export const DROP_AFTER_FIRST = 2;
/**
 * tune(), timed through glFinish (headless-gl): DROP_AFTER_FIRST there. Such samples read a
 * microsecond clock with no fence floor taken off, and the H200's tune must keep within 200 ms of GPU
 * time with the longer second opinions (TUNE_SAMPLING): at 1.5 its 2^18-2^20 classes sample the paths
 * 1.5-4x slower than the bitmask once (~31 ms of the default tune's 198.8 with second opinions at three
 * points, bench/results/issue-20/tune-h200-egl-2026-11-28-twentysecond-final.json).
 */
export const DROP_AFTER_FIRST_THROUGH_FINISH = 1.5;

/** The `dropAfter` of pathsToResample for a tune timed by `timer` (TuneSampling.timer). */
export function dropAfterFirst(timer: TuneSampling['timer']): number {
  return timer === 'finish' ? DROP_AFTER_FIRST_THROUGH_FINISH : DROP_AFTER_FIRST;
}
/** tune(): a single call timed at or below this (ms) is the clamp, not a measurement. */
export const SINGLE_CALL_CLAMP_MS = 0.01;
/**
 * tune(): single calls faster than this (ms, less the fence's wait where timed by fence) are mostly noise, so
 * they are no second measurement for pathsToResample (the H200's 12/0.5 had dropped the HistoPyramid
 * at 1.33x the bitmask on its first sample alone, with single calls at the clamp).
 */
export const SINGLE_CALL_INFORMATIVE_MS = 10 * SINGLE_CALL_CLAMP_MS;

/**
 * Which paths of one point tune() samples again after one sample each: all but those at least
 * `dropAfter` times slower than the fastest of every candidate set they belong to (e.g. all
 * compaction paths, and the order-keeping ones: `keep` chooses among those alone), by their first
 * sample and by their single call too (two measurements, so one spike does not drop the fastest).
 * The fastest of each set by its first sample always stays, and nothing is dropped where the fastest
 * single call is under SINGLE_CALL_INFORMATIVE_MS (then there is no second measurement) or a first
 * sample is zero. A choice can still rest on a dropped path (it is made over several densities, and
 * against the default): tune() then completes its samples before choosing.
 * @param first - ms per call of each path's first sample.
 * @param single - ms of each path's single call (its submit-to-done less the fence floor).
 * @param sets - the candidate sets the choices are made among (each a list of paths).
 * @param dropAfter - DROP_AFTER_FIRST, or DROP_AFTER_FIRST_THROUGH_FINISH where samples are timed through glFinish.
 */
export function pathsToResample(first: Record<string, number>, single: Record<string, number>, sets: ReadonlyArray<readonly string[]>, dropAfter = DROP_AFTER_FIRST): Set<string> {
  const paths = Object.keys(first);
  const again = new Set<string>();
  for (const set of sets) {
    const members = set.filter((path) => path in first);
    if (members.length === 0) continue;
    const leader = members.reduce((a, b) => (first[b]! < first[a]! ? b : a));
    const fastestFirst = first[leader]!;
    const fastestOne = Math.min(...members.map((path) => single[path]!));
    const informative = fastestFirst > 0 && fastestOne >= SINGLE_CALL_INFORMATIVE_MS;
    for (const path of members) {
      const outpaced = informative && first[path]! >= dropAfter * fastestFirst && single[path]! >= dropAfter * fastestOne;
      if (path === leader || !outpaced) again.add(path);
    }
  }
  // A path in no set is sampled again (nothing says it cannot be chosen).
  for (const path of paths) if (!sets.some((set) => set.includes(path))) again.add(path);
  return again;
}
