// bench/lib/chrome-trace.mjs: what `bench/tuned-sweep-browser.mjs --chrome-trace` reports of a
// Chromium trace (the tune's tasks on the page's main thread, their CPU time and V8's samples),
// checked on a small trace made here.
import { describe, expect, it } from 'vitest';
import { tuneTasks } from '../bench/lib/chrome-trace.mjs';

const PAGE = 7;
const MAIN = 1;
const WORKER = 2;
const X = (name: string, ts: number, dur: number, tdur: number, tid = MAIN, pid = PAGE) => ({ ph: 'X', name, ts, dur, tdur, pid, tid });

function trace() {
  return {
    traceEvents: [
      { ph: 'M', name: 'thread_name', pid: PAGE, tid: MAIN, args: { name: 'CrRendererMain' } },
      { ph: 'M', name: 'thread_name', pid: PAGE, tid: WORKER, args: { name: 'DedicatedWorker thread' } },
      { ph: 'R', name: 'tune-start', pid: PAGE, tid: MAIN, ts: 1000 },
      // Before the tune: not counted.
      X('ThreadControllerImpl::RunTask', 0, 9000, 9000),
      // A task of 5 ms wall, 1 ms CPU (a link question), nesting a RunTask of its own.
      X('ThreadControllerImpl::RunTask', 2000, 5000, 1000),
      X('RunTask', 2000, 4999, 999),
      X('GLES2Implementation::GetProgramiv', 2100, 4800, 200),
      // A task of 3 ms of CPU (script), then a short one.
      X('ThreadControllerImpl::RunTask', 10_000, 3000, 3000),
      X('ThreadControllerImpl::RunTask', 20_000, 500, 500),
      // A worker's long task: not the page's main thread.
      X('ThreadControllerImpl::RunTask', 11_000, 50_000, 50_000, WORKER),
      { ph: 'R', name: 'tune-end', pid: PAGE, tid: MAIN, ts: 30_000 },
      X('ThreadControllerImpl::RunTask', 31_000, 9000, 9000), // after the tune
      // V8's samples: the main thread's profile (two in the script task) and a worker's (ignored).
      { ph: 'P', name: 'Profile', id: '0x1', pid: PAGE, tid: MAIN, ts: 0, args: { data: { startTime: 10_000 } } },
      { ph: 'P', name: 'ProfileChunk', id: '0x1', pid: PAGE, tid: 99, ts: 0, args: { data: {
        cpuProfile: { nodes: [{ id: 1, callFrame: { functionName: 'fillTuneData', url: 'http://x/index.js', lineNumber: 9 } }], samples: [1, 1] },
        timeDeltas: [500, 1000] } } },
      { ph: 'P', name: 'Profile', id: '0x2', pid: PAGE, tid: WORKER, ts: 0, args: { data: { startTime: 10_000 } } },
      { ph: 'P', name: 'ProfileChunk', id: '0x2', pid: PAGE, tid: 99, ts: 0, args: { data: {
        cpuProfile: { nodes: [{ id: 1, callFrame: { functionName: 'workerWork', url: 'http://x/w.js', lineNumber: 0 } }], samples: [1] },
        timeDeltas: [700] } } },
    ],
  };
}

describe('bench/lib/chrome-trace.mjs tuneTasks', () => {
  it("counts the tune's outermost tasks on the page's main thread, by wall and by CPU time, with what ran inside and the samples", () => {
    const report = tuneTasks(JSON.stringify(trace()));
    expect(report.tasks).toBe(3);
    expect(report.over).toBe(2);
    expect(report.overCpu).toBe(1);
    expect(report.longestMs).toBe(5);
    expect(report.longestCpuMs).toBe(3);
    expect(report.long.map((t: { atMs: number }) => t.atMs)).toEqual([1, 9]);
    expect(report.long[0].inside).toEqual({ 'GLES2Implementation::GetProgramiv': 4.8 });
    expect(report.long[1].samples).toEqual({ 'fillTuneData (index.js:10)': 2 });
    expect(report.long[0].samples).toEqual({});
  });

  it('refuses a trace without the tune marks', () => {
    const events = trace().traceEvents.filter((e) => e.name !== 'tune-end');
    expect(() => tuneTasks(JSON.stringify({ traceEvents: events }))).toThrow(/tune-start \/ tune-end/);
  });
});
