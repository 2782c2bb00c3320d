// bench/lib/gecko-profile.mjs: what `bench/tuned-sweep-browser.mjs --gecko-profile` reports of a
// Firefox profile (the page's main thread's awake stretches during the tune and the idle baseline,
// their CPU time, the busiest frame, whose work the long ones were), checked on a small profile made
// here in the shape Firefox writes (markers and samples as schema'd rows, strings in a table).
import { describe, expect, it } from 'vitest';
import { tuneAwake } from '../bench/lib/gecko-profile.mjs';

/** One thread: markers [name, start, end, phase, data], samples [stack, time] over frames named in `frames`. */
function thread(name: string, markers: Array<[string, number, number, number, object | null]>, samples: Array<[string, number]> = []) {
  const strings: string[] = [];
  const string = (s: string) => (strings.includes(s) ? strings.indexOf(s) : strings.push(s) - 1);
  const frames: string[] = [];
  const frame = (location: string) => (frames.includes(location) ? frames.indexOf(location) : frames.push(location) - 1);
  // Each sample's stack: the frame under a native address (skipped when named).
  const stacks: Array<[number | null, number]> = [];
  const sampleRows = samples.map(([location, time]) => {
    stacks.push([null, frame(location)]);
    stacks.push([stacks.length - 1, frame('0x7fd532bc7907')]);
    return [stacks.length - 1, time];
  });
  return {
    name,
    pid: 11,
    markers: { schema: { name: 0, startTime: 1, endTime: 2, phase: 3, category: 4, data: 5 }, data: markers.map(([n, s, e, p, d]) => [string(n), s, e, p, 0, d]) },
    samples: { schema: { stack: 0, time: 1 }, data: sampleRows },
    stackTable: { schema: { prefix: 0, frame: 1 }, data: stacks },
    frameTable: { schema: { location: 0 }, data: frames.map((f) => [string(f)]) },
    stringTable: strings,
  };
}

const mark = (name: string, at: number): [string, number, number, number, object] => [name, at, 0, 0, { type: 'UserTiming', name, entryType: 'mark' }];
const awake = (start: number, end: number, cpuMs: number): Array<[string, number, number, number, object]> => [
  ['Awake', start, 0, 2, { type: 'Awake', 'CPU Id': 0 }],
  ['Awake', 0, end, 3, { type: 'Awake', 'CPU Time': cpuMs }],
];

function profile() {
  const page = thread('GeckoMain', [
    mark('idle-start', 100),
    ...awake(150, 151, 0.5),
    mark('idle-end', 600),
    mark('tune-start', 1000),
    // Straddles the start: 2 of its 4 ms inside, half its CPU.
    ...awake(998, 1002, 4),
    // The engine's: 5 ms awake, 3 of CPU.
    ...awake(1010, 1015, 3),
    // A collection: 3 ms of CPU.
    ...awake(1100, 1103.5, 3),
    // The harness's poll over WebDriver BiDi: 2.5 ms of CPU.
    ...awake(1200, 1203, 2.5),
    // Waiting for a core: 6 ms awake, 0.2 of CPU.
    ...awake(1300, 1306, 0.2),
    // A worker's profile arriving: its message, then the task taking it, which marks the end.
    ['DOMEvent', 1397, 0, 2, { type: 'DOMEvent', eventType: 'message' }],
    ['DOMEvent', 0, 1397.5, 3, { type: 'DOMEvent', eventType: 'message' }],
    ['setTimeout callback', 1397.6, 1401, 1, null],
    ['setTimeout callback', 1300, 1300.1, 1, null], // too early
    mark('tune-end', 1400),
    ...awake(1500, 1600, 100), // after the tune
  ], [
    ['serveTuning (http://127.0.0.1:4173/assets/main.js:10:2)', 1011],
    ['samples (http://127.0.0.1:4173/assets/main.js:20:2)', 1012],
    ['js::GCRuntime::sweepPhase', 1101],
    ['Minor GC', 1102],
    ['executeInRealmWithBindings (chrome://remote/content/shared/Realm.sys.mjs:327:29)', 1201],
  ]);
  // The parent process's main thread and a worker: no tune marks, not counted.
  const parent = thread('GeckoMain', [...awake(1000, 1300, 300)]);
  const worker = thread('DOM Worker', [mark('tune-start', 0), mark('tune-end', 5000), ...awake(0, 5000, 5000)]);
  return { meta: { interval: 1 }, threads: [parent], processes: [{ threads: [page, worker] }] };
}

describe('bench/lib/gecko-profile.mjs tuneAwake', () => {
  it('counts the page thread\'s awake stretches between the tune\'s marks, by wall and CPU time, and whose they were', () => {
    const { tune, idle } = tuneAwake(profile());
    expect(tune.ms).toBe(400);
    expect(tune.stretches).toBe(5);
    expect(tune.longestMs).toBe(6);
    expect(tune.longestCpuMs).toBe(3);
    expect(tune.cpuMs).toBeCloseTo(2 + 3 + 3 + 2.5 + 0.2, 9);
    // Over 2 ms of wall: 1010 (5), 1100 (3.5), 1200 (3), 1300 (6); of CPU: 1010, 1100, 1200.
    expect(tune.over).toBe(4);
    expect(tune.overCpu).toBe(3);
    expect(tune.overCpuBy).toEqual({ page: 1, gc: 1, webdriver: 1, browser: 0 });
    expect(tune.long.map((t: { atMs: number; whose: string }) => [t.atMs, t.whose])).toEqual([[10, 'page'], [100, 'gc'], [200, 'webdriver'], [300, 'browser']]);
    expect(tune.long[0]!.samples).toEqual({ 'serveTuning (main.js:10:2)': 1, 'samples (main.js:20:2)': 1 });
    // Frames of 1000/60 ms from the start: the first holds 2 ms (from the straddling stretch) + 5 (1010-1015).
    expect(tune.busiestFrameMs).toBeCloseTo(7, 9);
    expect(tune.busiestFrameCpuMs).toBeCloseTo(5, 9);
    expect(tune.framesOverCpu).toBe(3);
    expect(idle).toMatchObject({ ms: 500, stretches: 1, over: 0, overCpu: 0, cpuMs: 0.5 });
    const tasks = tuneAwake(profile()).tasksBeforeEnd.map((t: { name: string; atMs: number; ms: number }) => [t.name, Number(t.atMs.toFixed(3)), Number(t.ms.toFixed(3))]);
    expect(tasks).toEqual([['message event', -3, 0.5], ['setTimeout callback', -2.4, 2.4]]);
  });

  it('says so when no main thread holds the tune\'s marks', () => {
    const p = profile();
    p.processes[0]!.threads[0]!.markers.data = [];
    expect(() => tuneAwake(p)).toThrow(/no GeckoMain thread of the profile holds the tune-start \/ tune-end marks/);
  });
});
