// tune()'s choice for a size class over its tuned densities (src/tuning.ts#choiceOverDensities), case
// by case: the path with the smallest worst ratio to the fastest, the least total time on a tie, and
// the bitmask kept unless its worst ratio is more than the margin above the best's. Pure arithmetic:
// Node only.
import { describe, expect, it } from 'vitest';
import { choiceOverDensities, closeRival, densityAskMargin, densitySwitches, densitySwitchMargin, DENSITY_SWITCH_MARGIN, SCAN_CONTENDER_MARGIN, scanChoice, scanSecondOpinion, leastSample, secondOpinion, pooledSecondOpinionTime, secondOpinionReads, secondOpinionSamples, secondOpinionTime, TUNE_SAMPLING } from '../src/tuning.js';

const points = ['16/0.1', '16/0.5', '16/0.9'];
const paths = ['bitmask', 'histopyramid', 'jumping-jack'];
/** Timings per point: ms of bitmask, histopyramid, jumping-jack. */
const timingsOf = (rows: Array<[number, number, number]>) =>
  Object.fromEntries(points.map((point, i) => [point, { bitmask: rows[i]![0], histopyramid: rows[i]![1], 'jumping-jack': rows[i]![2] }]));

describe('choiceOverDensities', () => {
  it('takes the path whose worst ratio over the densities is smallest, not the least total time', () => {
    // Jumping Jack: the least in total (3.2 ms against the HistoPyramid's 3.4) but 1.8x the fastest at
    // 10 % kept; the HistoPyramid at most 1.71x (1.2 against 0.7 at 50 and 90 %).
    const timings = timingsOf([[3, 1, 1.8], [3, 1.2, 0.7], [3, 1.2, 0.7]]);
    expect(choiceOverDensities(timings, points, paths, 1.1)).toEqual({ best: 'histopyramid', choice: 'histopyramid' });
  });

  it('breaks a tie of worst ratios by the least total time (the first listed where those tie too)', () => {
    // Worst ratios: bitmask 1.5 (at 0.5), histopyramid 1.5 (at 0.1); totals 3.5 and 3.5.
    const tied = timingsOf([[1, 1.5, 3], [1.5, 1, 3], [1, 1, 3]]);
    expect(choiceOverDensities(tied, points, paths, 1).best).toBe('bitmask');
    // The same worst ratios (bitmask 1 / 0.9 = 1.11 at 0.9 stays below 1.5), the HistoPyramid 0.1 ms less in total.
    const lessTotal = timingsOf([[1, 1.5, 3], [1.5, 1, 3], [1, 0.9, 3]]);
    expect(choiceOverDensities(lessTotal, points, paths, 1).best).toBe('histopyramid');
  });

  it('keeps the bitmask within the margin of the best, and not beyond it', () => {
    // bitmask worst 1.2 (at 0.5), histopyramid worst 1 (fastest everywhere but equal at 0.1).
    const timings = timingsOf([[1, 1, 2], [1.2, 1, 2], [1.1, 1, 2]]);
    expect(choiceOverDensities(timings, points, paths, 1.25)).toEqual({ best: 'histopyramid', choice: 'bitmask' });
    expect(choiceOverDensities(timings, points, paths, 1.1)).toEqual({ best: 'histopyramid', choice: 'histopyramid' });
  });

  it('ranks among the paths given only (order-keeping ones for keep)', () => {
    const timings = timingsOf([[2, 1.5, 1], [2, 1.5, 1], [2, 1.5, 1]]);
    expect(choiceOverDensities(timings, points, ['bitmask', 'histopyramid'], 1).best).toBe('histopyramid');
    expect(choiceOverDensities(timings, points, paths, 1).best).toBe('jumping-jack');
  });
});

describe('secondOpinion', () => {
  it('asks again of the default and every path chosen over it, and of none where every choice kept it', () => {
    expect(secondOpinion('bitmask', [{ choice: 'bitmask' }, { choice: 'bitmask' }])).toEqual([]);
    expect(secondOpinion('bitmask', [{ choice: 'histopyramid' }, { choice: 'bitmask' }])).toEqual(['bitmask', 'histopyramid']);
    // Each path once: keep and any chose the same.
    expect(secondOpinion('bitmask', [{ choice: 'histopyramid' }, { choice: 'histopyramid' }])).toEqual(['bitmask', 'histopyramid']);
    expect(secondOpinion('bitmask', [{ choice: 'histopyramid' }, { choice: 'jumping-jack' }])).toEqual(['bitmask', 'histopyramid', 'jumping-jack']);
    // The scan's default is whichever the engine has there.
    expect(secondOpinion('reduce-then-scan', [{ choice: 'blelloch' }])).toEqual(['reduce-then-scan', 'blelloch']);
  });
});

describe('scanChoice', () => {
  const scans = ['reduce-then-scan', 'blelloch', 'recursive-doubling'];
  it('the fastest scan, or the default where it reads within the margin of it; with a margin of 1 (by the clock) only where it is the fastest', () => {
    // The thirty-first session's page tune at 2^16: reduce-then-scan 1.086x Blelloch's time (the sweep read 1.23x).
    const timings = { 'reduce-then-scan': 5.033, blelloch: 4.633, 'recursive-doubling': 7.433 };
    expect(scanChoice(timings, scans, 'reduce-then-scan', 1.1)).toEqual({ best: 'blelloch', choice: 'reduce-then-scan' });
    expect(scanChoice(timings, scans, 'reduce-then-scan', 1)).toEqual({ best: 'blelloch', choice: 'blelloch' });
    expect(scanChoice({ ...timings, blelloch: 4.5 }, scans, 'reduce-then-scan', 1.1)).toEqual({ best: 'blelloch', choice: 'blelloch' });
    // A tie keeps the default.
    expect(scanChoice({ ...timings, blelloch: 5.033 }, scans, 'reduce-then-scan', 1)).toEqual({ best: 'reduce-then-scan', choice: 'reduce-then-scan' });
  });
});

describe('scanSecondOpinion', () => {
  const scans = ['reduce-then-scan', 'blelloch', 'recursive-doubling'];
  // The twenty-fifth session's final Chromium tune at 2^16: the default kept at 1.045x Blelloch's time.
  const keptClose = { 'reduce-then-scan': 3.97, blelloch: 3.8, 'recursive-doubling': 6.07 };
  it('asks, as secondOpinion does, of the default and the scan chosen over it', () => {
    expect(scanSecondOpinion('reduce-then-scan', 'blelloch', { 'reduce-then-scan': 14.55, blelloch: 9.65, 'recursive-doubling': 24.2 }, scans, false)).toEqual(['reduce-then-scan', 'blelloch']);
    expect(scanSecondOpinion('reduce-then-scan', 'blelloch', { 'reduce-then-scan': 14.55, blelloch: 9.65, 'recursive-doubling': 24.2 }, scans, true)).toEqual(['reduce-then-scan', 'blelloch']);
  });
  it('by the clock, also where the default was chosen: the default and every scan read within the margin of it, a faster one among them', () => {
    expect(scanSecondOpinion('reduce-then-scan', 'reduce-then-scan', keptClose, scans, true)).toEqual(['reduce-then-scan', 'blelloch']);
    expect(scanSecondOpinion('reduce-then-scan', 'reduce-then-scan', { ...keptClose, blelloch: 3.97 }, scans, true)).toEqual(['reduce-then-scan', 'blelloch']);
    // Not where no other scan read within the margin, nor where the scans are not timed by the clock.
    expect(scanSecondOpinion('reduce-then-scan', 'reduce-then-scan', { ...keptClose, blelloch: 3.97 * 1.16 }, scans, true)).toEqual([]);
    expect(scanSecondOpinion('reduce-then-scan', 'reduce-then-scan', keptClose, scans, false)).toEqual([]);
    // Among the scans with a timing.
    expect(scanSecondOpinion('reduce-then-scan', 'reduce-then-scan', { 'reduce-then-scan': 3.97, 'recursive-doubling': 3.5 }, scans, true)).toEqual(['reduce-then-scan', 'recursive-doubling']);
  });
  it('by the clock, also every other scan within SCAN_CONTENDER_MARGIN of the choice, so none loses to the others\' second chance alone', () => {
    // The twenty-ninth session's worker tune at 2^10: recursive doubling chosen over the default, Blelloch 1.04x behind it.
    const workerTune = { 'reduce-then-scan': 1.1875, blelloch: 0.85, 'recursive-doubling': 0.819 };
    expect(scanSecondOpinion('reduce-then-scan', 'recursive-doubling', workerTune, scans, true)).toEqual(['reduce-then-scan', 'recursive-doubling', 'blelloch']);
    // Not through glFinish or by fence, as before.
    expect(scanSecondOpinion('reduce-then-scan', 'recursive-doubling', workerTune, scans, false)).toEqual(['reduce-then-scan', 'recursive-doubling']);
    // Not beyond the margin (0.95 is 1.16x 0.819); at it, yes.
    expect(SCAN_CONTENDER_MARGIN).toBe(1.15);
    expect(scanSecondOpinion('reduce-then-scan', 'recursive-doubling', { ...workerTune, blelloch: 0.95 }, scans, true)).toEqual(['reduce-then-scan', 'recursive-doubling']);
    expect(scanSecondOpinion('reduce-then-scan', 'recursive-doubling', { ...workerTune, blelloch: 0.819 * 1.15 }, scans, true)).toEqual(['reduce-then-scan', 'recursive-doubling', 'blelloch']);
    // The default kept though another read faster: a third within the margin of the default is asked too.
    expect(scanSecondOpinion('reduce-then-scan', 'reduce-then-scan', { 'reduce-then-scan': 1, blelloch: 0.95, 'recursive-doubling': 1.1 }, scans, true)).toEqual(['reduce-then-scan', 'blelloch', 'recursive-doubling']);
    // The default chosen and the fastest: asked with the scans within the margin of it, none beyond.
    expect(scanSecondOpinion('reduce-then-scan', 'reduce-then-scan', { 'reduce-then-scan': 1, blelloch: 1.05, 'recursive-doubling': 1.1 }, scans, true)).toEqual(['reduce-then-scan', 'blelloch', 'recursive-doubling']);
    expect(scanSecondOpinion('reduce-then-scan', 'reduce-then-scan', { 'reduce-then-scan': 1, blelloch: 1.05, 'recursive-doubling': 1.2 }, scans, true)).toEqual(['reduce-then-scan', 'blelloch']);
    expect(scanSecondOpinion('reduce-then-scan', 'reduce-then-scan', { 'reduce-then-scan': 1, blelloch: 1.05, 'recursive-doubling': 1.1 }, scans, false)).toEqual([]);
  });
});

describe('DENSITY_SWITCH_MARGIN', () => {
  it('is the target ratio, whatever timed the profile (test/tuning.test.ts: a profile timed through glFinish switches at 1.3x as the others do)', () => {
    expect(DENSITY_SWITCH_MARGIN).toBe(1.15);
  });
});
describe('densitySwitches', () => {
  const profileOf = (timings: ReturnType<typeof timingsOf>, keep: string, any: string) => ({ timings, compact: { keep: { 16: keep }, any: { 16: any } } }) as unknown as Parameters<typeof densitySwitches>[0];

  it('names, per tuned density, the class\'s choice and the faster path a call there would switch to', () => {
    // The bitmask is the class's choice for both orders; at 0.9 the HistoPyramid is 2x faster (a
    // switch for 'keep' and 'any'), Jumping Jack faster still (a switch for 'any' only).
    const timings = timingsOf([[1, 1.1, 3], [1, 1.1, 3], [2, 1, 0.8]]);
    expect(densitySwitches(profileOf(timings, 'bitmask', 'bitmask'), '16', points, 1.15)).toEqual([['16/0.9', ['bitmask', 'histopyramid', 'jumping-jack']]]);
  });

  it('asks nothing where the choice is within the margin of the fastest, or is the fastest', () => {
    const timings = timingsOf([[1, 1.1, 3], [1.14, 1, 3], [2, 1, 0.8]]);
    // 1.14 / 1 is within 1.15; at 0.9 Jumping Jack, the 'any' choice below, is the fastest.
    expect(densitySwitches(profileOf(timings, 'bitmask', 'bitmask'), '16', points.slice(0, 2), 1.15)).toEqual([]);
    expect(densitySwitches(profileOf(timings, 'histopyramid', 'jumping-jack'), '16', ['16/0.9'], 1.15)).toEqual([]);
    // At a wider margin (1.35, glFinish-timed profiles' until 2026-11-28) the 2x loss still asks.
    expect(densitySwitches(profileOf(timings, 'bitmask', 'jumping-jack'), '16', ['16/0.9'], 1.35)).toEqual([['16/0.9', ['bitmask', 'histopyramid']]]);
  });

  it('asks below the switch margin where first opinions are coarse (calls that block) or one call\'s latency (timer query): densityAskMargin', () => {
    expect(densityAskMargin({ timer: 'finish', blockingCalls: false })).toBe(DENSITY_SWITCH_MARGIN);
    expect(densityAskMargin({ timer: 'fence', blockingCalls: false })).toBe(DENSITY_SWITCH_MARGIN);
    expect(densityAskMargin({ timer: 'fence', blockingCalls: true })).toBe(1.05);
    expect(densityAskMargin({ timer: 'query', blockingCalls: false })).toBe(0.9);
    // WebKitGTK's first opinions at 2^18, 5 % kept (under this file's key, 16): the bitmask 3.33 ms,
    // the HistoPyramid 3.0 (1.11x).
    const webkit = { '16/0.05': { bitmask: 3.33, histopyramid: 3.0, 'jumping-jack': 10 } } as unknown as ReturnType<typeof timingsOf>;
    expect(densitySwitches(profileOf(webkit, 'bitmask', 'bitmask'), '16', ['16/0.05'], DENSITY_SWITCH_MARGIN)).toEqual([]);
    expect(densitySwitches(profileOf(webkit, 'bitmask', 'bitmask'), '16', ['16/0.05'], 1.05)).toEqual([['16/0.05', ['bitmask', 'histopyramid']]]);
    // A lead within 1.05 asks nothing there.
    const close = { '16/0.05': { bitmask: 3.1, histopyramid: 3.0, 'jumping-jack': 10 } } as unknown as ReturnType<typeof timingsOf>;
    expect(densitySwitches(profileOf(close, 'bitmask', 'bitmask'), '16', ['16/0.05'], 1.05)).toEqual([]);
    // Chromium's timer query at 2^16, 95 % kept: Jumping Jack read 1.09x slower than the bitmask (the
    // sweep's queued calls: 1.19x faster). At 0.9 it is asked for 'any' (not for 'keep': it reorders).
    const chromium = { '16/0.95': { bitmask: 6.32, histopyramid: 7.78, 'jumping-jack': 6.89 } } as unknown as ReturnType<typeof timingsOf>;
    expect(densitySwitches(profileOf(chromium, 'bitmask', 'bitmask'), '16', ['16/0.95'], 0.9)).toEqual([['16/0.95', ['bitmask', 'jumping-jack']]]);
    expect(densitySwitches(profileOf(chromium, 'bitmask', 'bitmask'), '16', ['16/0.95'], DENSITY_SWITCH_MARGIN)).toEqual([]);
  });

  it('auto switches at a known density by 1.15, or where calls block by the ask margin (densitySwitchMargin)', () => {
    expect(densitySwitchMargin(undefined)).toBe(DENSITY_SWITCH_MARGIN);
    expect(densitySwitchMargin({})).toBe(DENSITY_SWITCH_MARGIN);
    expect(densitySwitchMargin({ blockingCalls: false })).toBe(DENSITY_SWITCH_MARGIN);
    expect(densitySwitchMargin({ blockingCalls: true })).toBe(densityAskMargin({ timer: 'fence', blockingCalls: true }));
    expect(densitySwitchMargin({ blockingCalls: true })).toBe(1.05);
  });

  it('skips points and paths with no timings (a path never sampled there)', () => {
    const timings = { '16/0.1': { bitmask: 3, histopyramid: 1 } } as unknown as ReturnType<typeof timingsOf>;
    expect(densitySwitches(profileOf(timings, 'bitmask', 'bitmask'), '16', ['16/0.1', '16/0.5'], 1.15)).toEqual([['16/0.1', ['bitmask', 'histopyramid']]]);
    expect(densitySwitches(profileOf(timings, 'horn', 'horn'), '16', ['16/0.1'], 1.15)).toEqual([]);
  });
});

describe('secondOpinionSamples / secondOpinionReads: a second opinion\'s samples', () => {
  it('through glFinish: TUNE_SAMPLING.secondOpinionSamples (2), never more than repeats; elsewhere repeats', () => {
    expect(TUNE_SAMPLING.secondOpinionSamples).toBe(2);
    expect(secondOpinionSamples(3, true)).toBe(2);
    expect(secondOpinionSamples(1, true)).toBe(1);
    expect(secondOpinionSamples(5, true)).toBe(2);
    expect(secondOpinionSamples(3, false)).toBe(3);
    expect(secondOpinionSamples(1, false)).toBe(1);
  });

  it('through glFinish the lower sample counts (a disturbance only adds time); elsewhere the median', () => {
    // Two samples, the second disturbed: the median rule of a list of two would take the larger.
    expect(secondOpinionReads([0.2, 0.5], true)).toBe(0.2);
    expect(secondOpinionReads([0.5, 0.2], true)).toBe(0.2);
    expect(secondOpinionReads([0.3, 0.9, 0.1], false)).toBe(0.3);
    expect(secondOpinionReads([0.3], false)).toBe(0.3);
    // The input is not reordered (the caller's samples stay as taken).
    const fresh = [0.5, 0.2];
    secondOpinionReads(fresh, true);
    expect(fresh).toEqual([0.5, 0.2]);
  });
});

describe('closeRival: the other path worth a second opinion beside a choice', () => {
  const timings = { 'reduce-then-scan': 1.064, blelloch: 1.104, 'recursive-doubling': 1.062 };
  const scans = ['reduce-then-scan', 'blelloch', 'recursive-doubling'];
  it('names the fastest other path where the choice reads more than askAbove times its time', () => {
    // Chromium's one-call query samples at 2^10: a tie the sweep's queued calls split 1.22 to 0.98.
    expect(closeRival(timings, 'reduce-then-scan', scans, 0.9)).toBe('recursive-doubling');
    expect(closeRival(timings, 'reduce-then-scan', scans, 1.15)).toBeUndefined();
    // Below 1 it names the fastest other path even where that read slower.
    expect(closeRival(timings, 'recursive-doubling', scans, 0.9)).toBe('reduce-then-scan');
    expect(closeRival(timings, 'recursive-doubling', scans, 0.95)).toBe('reduce-then-scan');
    expect(closeRival(timings, 'recursive-doubling', scans, 1)).toBeUndefined();
  });
  it('skips paths with no timing, and answers undefined where the choice has none or is alone', () => {
    expect(closeRival({ bitmask: 2, histopyramid: 1 }, 'bitmask', ['bitmask', 'histopyramid', 'horn'], 1.15)).toBe('histopyramid');
    expect(closeRival({ histopyramid: 1 }, 'bitmask', ['bitmask', 'histopyramid'], 1.15)).toBeUndefined();
    expect(closeRival({ bitmask: 1 }, 'bitmask', ['bitmask'], 0.5)).toBeUndefined();
  });
});

describe('secondOpinionTime: a path\'s time after its second opinion', () => {
  it('the lower of the first opinion and the fresh samples (their lower through glFinish, their median elsewhere)', () => {
    expect(secondOpinionTime(3, [4, 2.5], 'finish')).toBe(2.5);
    expect(secondOpinionTime(2, [4, 2.5], 'finish')).toBe(2);
    expect(secondOpinionTime(3, [1, 2.8, 9], 'fence')).toBe(2.8);
    expect(secondOpinionTime(2, [1, 2.8, 9], 'fence')).toBe(2);
  });
});

describe('leastSample: by timer query, a compaction path\'s time', () => {
  it('the least of its samples, first and second opinions together, so disturbed samples cannot hide a lead', () => {
    // Jumping Jack and the bitmask at 2^16, 95 % kept, in one Chromium + SwiftShader worker tune (ms per
    // call, GPU time): Jumping Jack's median 7.816 had the bitmask (6.278) chosen, 1.19x slower in the sweep.
    expect(leastSample([8.25, 5.183, 7.816])).toBe(5.183);
    expect(leastSample([5.853, 6.278, 6.874, 6.081, 7.08, 6.312])).toBe(5.853);
    expect(leastSample([2])).toBe(2);
    expect(() => leastSample([])).toThrow(/without samples/);
  });
});

describe('pooledSecondOpinionTime: a scan\'s time after its second opinion by the clock', () => {
  it('the middle of all its samples, first and fresh together, so a scan that swings between states does not win by its low swing', () => {
    // Blelloch and recursive doubling at 2^10 in one Chromium + SwiftShader tune (ms per call): the
    // lower of two medians gave Blelloch 0.531 against 0.65, the sweep read it 1.26x slower.
    const blelloch = pooledSecondOpinionTime([0.775, 0.787, 0.887], [0.531, 0.519, 0.731]);
    const recursiveDoubling = pooledSecondOpinionTime([0.637, 0.7, 0.688], [0.65, 0.65, 0.612]);
    expect(blelloch).toBe(0.775);
    expect(recursiveDoubling).toBe(0.65);
    expect(secondOpinionTime(0.787, [0.531, 0.519, 0.731], 'fence')).toBe(0.531);
    // It can raise a time as well as lower it, and it is one of the samples (odd and even counts alike).
    expect(pooledSecondOpinionTime([0.525, 0.556, 1.469], [1.094, 0.944, 1.006])).toBe(1.006);
    expect(pooledSecondOpinionTime([2], [1, 3])).toBe(2);
    expect(pooledSecondOpinionTime([1, 2], [])).toBe(2);
    expect(() => pooledSecondOpinionTime([], [])).toThrow(/without samples/);
  });
});
