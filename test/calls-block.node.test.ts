// tuning.ts#callsBlock: whether tune() times its samples on the thread (calls that block it) or by
// fence. The figures are the kinds measured (docs/performance.md, issue 20): WebKitGTK + llvmpipe,
// whose calls return when the work is done; Firefox + llvmpipe, whose calls return at once; and
// headless-gl on an H200, whose calls' host cost is of the order of the GPU's work at 2^16, which the
// share test alone had read as blocking.
import { expect, it } from 'vitest';
import { callsBlock } from '../src/tuning.js';

it('calls block where issuing takes most of the submit-to-done time and grows with the work', () => {
  // WebKitGTK: four scans of 2^16 issue in 12 ms of their 13; four of 2^12 in 2.
  expect(callsBlock({ issued: 12, done: 13 }, { issued: 2 })).toBe(true);
  // H200, headless-gl: 1.3 ms of 1.5 to issue, but four scans of 2^12 issue in 1.1 (host cost).
  expect(callsBlock({ issued: 1.3, done: 1.5 }, { issued: 1.1 })).toBe(false);
  // Firefox: the calls return at once; the work runs after.
  expect(callsBlock({ issued: 0.6, done: 9 }, { issued: 0.4 })).toBe(false);
  // A 1 ms clock: under a millisecond of issue cannot tell.
  expect(callsBlock({ issued: 0.9, done: 1 }, { issued: 0.1 })).toBe(false);
  // Most of the time to issue, and twice as long with 16 times the elements: blocking.
  expect(callsBlock({ issued: 4, done: 5 }, { issued: 2 })).toBe(true);
  expect(callsBlock({ issued: 4, done: 6 }, { issued: 2 })).toBe(false);
  expect(callsBlock({ issued: 4, done: 5 }, { issued: 2.1 })).toBe(false);
});
