// tuning.ts#batchCalls: how many back-to-back calls one tune() sample holds. Where the engine's own
// tune runs (test/tuning.test.ts), most batches are one call (Node's and Chromium's calls outlast
// the 0.5 ms sample), which cannot tell one rule from another; here each rule meets a case that only
// it decides. The figures are of the kinds measured (docs/performance.md, issue 20).
import { expect, it } from 'vitest';
import { batchCalls, blockingSampleMs, MAX_BATCH_CALLS, secondOpinionContinues, TUNE_SAMPLING, TUNE_TASK_MS, wallSampleMs } from '../src/tuning.js';

const free = { blocking: false, fenceFloorMs: 0 };

it('a batch lasts the sample length, each call at the longer of its submit-to-done and issue times', () => {
  expect(TUNE_SAMPLING.sampleMs).toBe(0.5);
  // 0.1 ms calls: five fill 0.5 ms.
  expect(batchCalls({ oneMs: 0.1, issuedMs: 0.02 }, free)).toBe(5);
  // The same by their issue time (headless-gl's small calls: submit-to-done at the clamp).
  expect(batchCalls({ oneMs: 0.01, issuedMs: 0.1 }, free)).toBe(5);
  // Rounded up: 0.3 ms calls take two (0.6 ms), not one (0.3).
  expect(batchCalls({ oneMs: 0.3, issuedMs: 0.05 }, free)).toBe(2);
  // A longer sample length, where given (bench/tune-probe.ts --sample-ms): eight 0.25 ms calls.
  expect(batchCalls({ oneMs: 0.25, issuedMs: 0.02 }, { ...free, sampleMs: 2 })).toBe(8);
});

it('timed by fence, a batch lasts at least twice the fence floor', () => {
  // Firefox: a 4 ms floor, 1 ms calls: eight (8 ms), where the sample length alone would take one.
  expect(batchCalls({ oneMs: 1, issuedMs: 0.1 }, { blocking: false, fenceFloorMs: 4 })).toBe(8);
  // A floor below half the sample length changes nothing.
  expect(batchCalls({ oneMs: 0.1, issuedMs: 0.02 }, { blocking: false, fenceFloorMs: 0.2 })).toBe(5);
});

it('one call at least and MAX_BATCH_CALLS at most', () => {
  expect(MAX_BATCH_CALLS).toBe(16);
  expect(batchCalls({ oneMs: 30, issuedMs: 1 }, free)).toBe(1);
  expect(batchCalls({ oneMs: 0.001, issuedMs: 0.001 }, free)).toBe(16);
  expect(batchCalls({ oneMs: 0, issuedMs: 0 }, { blocking: false, fenceFloorMs: 4 })).toBe(16);
});

it('calls that block the thread: as many as fit in TUNE_TASK_MS, each at the longer of its two times', () => {
  expect(TUNE_TASK_MS).toBe(12);
  // WebKitGTK: 5 ms calls, two per sample (10 ms), whatever the fence floor or the sample length.
  expect(batchCalls({ oneMs: 5, issuedMs: 5 }, { blocking: true, fenceFloorMs: 8 })).toBe(2);
  expect(batchCalls({ oneMs: 0.1, issuedMs: 5 }, { blocking: true, fenceFloorMs: 0 })).toBe(2);
  // A call that returns before its work is done (WebKitGTK + llvmpipe's bitmask at 2^18: 1 ms to
  // return, 9 to be done): the next one waits for it, so one per sample, not 12 (~160 ms of thread).
  expect(batchCalls({ oneMs: 9, issuedMs: 1 }, { blocking: true, fenceFloorMs: 4 })).toBe(1);
  expect(batchCalls({ oneMs: 4, issuedMs: 1 }, { blocking: true, fenceFloorMs: 4 })).toBe(3);
  // Rounded down: 5 ms calls do not take three (15 ms).
  expect(batchCalls({ oneMs: 5, issuedMs: 5 }, { blocking: true, fenceFloorMs: 0, sampleMs: 15 })).toBe(2);
  // One at least (a 30 ms call), 16 at most (a clock that read 0).
  expect(batchCalls({ oneMs: 30, issuedMs: 30 }, { blocking: true, fenceFloorMs: 0 })).toBe(1);
  expect(batchCalls({ oneMs: 0, issuedMs: 0 }, { blocking: true, fenceFloorMs: 0 })).toBe(16);
});

it('a sample of calls that block is timed until its work is done, less the fence floor, at least its time on the thread', () => {
  // WebKitGTK + llvmpipe, Horn at 2^18: one call back on the thread after 9 ms, done after 21 (a 4 ms
  // fence floor): 17 ms per call, not the 9 the thread saw.
  expect(blockingSampleMs({ onThreadMs: 9, doneMs: 21 }, 4, 1)).toBe(17);
  // Per call: two calls done after 20 ms with a 4 ms floor.
  expect(blockingSampleMs({ onThreadMs: 12, doneMs: 20 }, 4, 2)).toBe(8);
  // Calls that return when their work is done: the fence adds only its own wait (on a clock of whole
  // milliseconds it can read a little less), so the thread's time stands.
  expect(blockingSampleMs({ onThreadMs: 10, doneMs: 13 }, 4, 2)).toBe(5);
});

it('a sample timed by the clock reads at least one clock tick over its calls', () => {
  // Firefox / WebKitGTK (1 ms ticks): a 2-call sample within the fence's own wait read 0 and made every
  // other path at its density look infinitely slower; now half a tick per call.
  expect(wallSampleMs(-0.4, 2, 1)).toBe(0.5);
  expect(wallSampleMs(0, 1, 1)).toBe(1);
  // Longer samples are their own time.
  expect(wallSampleMs(6, 3, 1)).toBe(2);
  // Node's microsecond clock changes nothing measurable.
  expect(wallSampleMs(0.3, 1, 0.001)).toBe(0.3);
  // The blocking form takes the same floor.
  expect(blockingSampleMs({ onThreadMs: 0, doneMs: 3 }, 4, 2, 1)).toBe(0.5);
});

it('a second opinion through glFinish issues calls for 6 ms, within 2^20 elements, at least the first batch, at most 64', () => {
  expect(TUNE_SAMPLING).toMatchObject({ secondOpinionMs: 6, secondOpinionMaxCalls: 64, secondOpinionElements: 2 ** 20 });
  const small = 2 ** 11;
  // The H200 at 2^11: 0.15 ms calls back to back, first-opinion samples of 2: on to 6 ms of them.
  expect(secondOpinionContinues(2, 2, 0.3, small)).toBe(true);
  expect(secondOpinionContinues(39, 2, 5.9, small)).toBe(true);
  expect(secondOpinionContinues(40, 2, 6.05, small)).toBe(false);
  // Never fewer calls than the first opinion's samples held, however long they took or however large.
  expect(secondOpinionContinues(1, 2, 50, 2 ** 22)).toBe(true);
  expect(secondOpinionContinues(2, 2, 50, small)).toBe(false);
  // At most 2^20 elements of calls: 16 at 2^16, 4 at 2^18, one at 2^20 (the first opinion's batch).
  expect(secondOpinionContinues(15, 1, 1, 2 ** 16)).toBe(true);
  expect(secondOpinionContinues(16, 1, 1, 2 ** 16)).toBe(false);
  expect(secondOpinionContinues(3, 1, 1, 2 ** 18)).toBe(true);
  expect(secondOpinionContinues(4, 1, 1, 2 ** 18)).toBe(false);
  expect(secondOpinionContinues(1, 1, 0.1, 2 ** 20)).toBe(false);
  // At most 64 calls (calls that return at once: a clock that barely moves).
  expect(secondOpinionContinues(63, 1, 0, 16)).toBe(true);
  expect(secondOpinionContinues(64, 1, 0, 16)).toBe(false);
});
