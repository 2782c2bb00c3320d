// tuning.ts#pathsToResample: which paths tune() samples again after one sample each. The figures are
// of the kind the H200's tune measured (docs/performance.md, issue 20: 2^20 at 50 % kept, ms per call).
import { expect, it } from 'vitest';
import { DROP_AFTER_FIRST, DROP_AFTER_FIRST_THROUGH_FINISH, dropAfterFirst, pathsToResample, SINGLE_CALL_CLAMP_MS, SINGLE_CALL_INFORMATIVE_MS } from '../src/tuning.js';

const all = ['bitmask', 'horn', 'horn-global', 'histopyramid', 'jumping-jack', 'hybrid'];
const ordered = ['bitmask', 'horn', 'horn-global', 'histopyramid'];
const sets = [all, ordered];

it('drops a path twice as slow as the fastest by its first sample and by its single call', () => {
  const first = { bitmask: 0.29, horn: 2.05, 'horn-global': 1.67, histopyramid: 0.95, 'jumping-jack': 0.5, hybrid: 0.4 };
  const single = { bitmask: 0.3, horn: 2.1, 'horn-global': 1.7, histopyramid: 1.0, 'jumping-jack': 0.55, hybrid: 0.45 };
  // Horn, global Horn and the HistoPyramid are 3.3-7x the bitmask by both: one sample each.
  expect([...pathsToResample(first, single, sets)].sort()).toEqual(['bitmask', 'hybrid', 'jumping-jack']);
  expect(DROP_AFTER_FIRST).toBe(2);
});

it('through glFinish, drops a path 1.5 times as slow by both (the H200 at 2^20: the GPU-time budget)', () => {
  expect(DROP_AFTER_FIRST_THROUGH_FINISH).toBe(1.5);
  // What tune() passes, by how its samples are timed.
  expect([dropAfterFirst('finish'), dropAfterFirst('fence'), dropAfterFirst('query')]).toEqual([1.5, 2, 2]);
  // Of the kind the H200's tune reads at 2^20, 50 % kept (ms per call): all but the hybrid (1.42x by its first sample) 1.5x the bitmask or more by both.
  const first = { bitmask: 0.74, horn: 1.27, 'horn-global': 1.32, histopyramid: 1.45, 'jumping-jack': 1.31, hybrid: 1.05 };
  const single = { bitmask: 0.73, horn: 1.4, 'horn-global': 1.4, histopyramid: 1.55, 'jumping-jack': 1.31, hybrid: 1.31 };
  expect([...pathsToResample(first, single, sets, DROP_AFTER_FIRST_THROUGH_FINISH)].sort()).toEqual(['bitmask', 'hybrid']);
  // By the default rule all are within 2x: every path is sampled again.
  expect(pathsToResample(first, single, sets).size).toBe(all.length);
});

it('keeps a path whose single call says it may be close (one spike is not enough)', () => {
  const first = { bitmask: 0.3, histopyramid: 0.9 };
  const single = { bitmask: 0.3, histopyramid: 0.4 };
  expect([...pathsToResample(first, single, [['bitmask', 'histopyramid']])].sort()).toEqual(['bitmask', 'histopyramid']);
});

it('judges the order-keeping paths among themselves: a fast order-changing path drops none of them', () => {
  // Jumping Jack 4x faster than every order-keeping path: 'keep' still chooses among those.
  const first = { bitmask: 1, horn: 1.5, 'horn-global': 3, histopyramid: 1.2, 'jumping-jack': 0.25, hybrid: 0.3 };
  const single = { bitmask: 1, horn: 1.5, 'horn-global': 3, histopyramid: 1.2, 'jumping-jack': 0.25, hybrid: 0.3 };
  // horn-global is 3x the fastest order-keeping path: dropped; the others stay.
  expect([...pathsToResample(first, single, sets)].sort()).toEqual(['bitmask', 'histopyramid', 'horn', 'hybrid', 'jumping-jack'].sort());
});

it('always keeps the fastest first sample, and drops nothing without two real measurements', () => {
  // A zero first sample (a fence sample clamped at 0): no ratio can be judged.
  expect(pathsToResample({ a: 0, b: 5 }, { a: 1, b: 5 }, [['a', 'b']]).size).toBe(2);
  // The fastest single call at the clamp, or just above it (the fence's noise): it says nothing.
  expect(pathsToResample({ a: 0.2, b: 0.9 }, { a: SINGLE_CALL_CLAMP_MS, b: 0.5 }, [['a', 'b']]).size).toBe(2);
  expect(pathsToResample({ a: 0.2, b: 0.9 }, { a: 0.011, b: 0.5 }, [['a', 'b']]).size).toBe(2);
  expect(pathsToResample({ a: 0.2, b: 0.9 }, { a: SINGLE_CALL_INFORMATIVE_MS, b: 0.5 }, [['a', 'b']]).size).toBe(1);
  // The leader by first sample stays even where its single call was slow.
  expect([...pathsToResample({ a: 0.2, b: 0.9 }, { a: 3, b: 0.5 }, [['a', 'b']])]).toContain('a');
  // A path in no candidate set is sampled again.
  expect([...pathsToResample({ a: 0.2, b: 0.9, c: 9 }, { a: 0.2, b: 0.9, c: 9 }, [['a', 'b']])]).toContain('c');
});
