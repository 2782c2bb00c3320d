// The page's main-thread tasks during engine.tune(), from Chromium's own trace
// (bench/tuned-sweep-browser.mjs --chrome-trace).
//
// Why: a stretch the page measures between its own ticks is wall time; on a loaded host it holds time
// the thread was waiting for a core. Chromium's trace gives, per task of the renderer's main thread,
// its wall time (`dur`) and the thread's CPU time in it (`tdur`), and what ran inside (V8's garbage
// collector, script, the GL command buffer's waits), so a long task can be told apart: the page's
// work, a wait for the GPU process, or no core.

/** The trace categories the analysis needs. */
export const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'gpu', 'disabled-by-default-v8.cpu_profiler'];

/**
 * V8's CPU profile samples on the page's main thread (ProfileChunk events): each sample's time and the
 * function it was in, named `function (file:line)`.
 */
function profileSamples(events, pid, tid) {
  const nodes = new Map();
  const samples = [];
  // The main thread's profiles only (a worker's have their own Profile event on its thread).
  const ids = new Set(events.filter((e) => e.pid === pid && e.tid === tid && e.name === 'Profile').map((e) => e.id));
  const chunks = events.filter((e) => e.pid === pid && ids.has(e.id) && (e.name === 'Profile' || e.name === 'ProfileChunk')).sort((a, b) => a.ts - b.ts);
  const clock = new Map(); // per profile id: the time of its last sample
  for (const e of chunks) {
    const id = e.id;
    if (e.name === 'Profile') {
      clock.set(id, e.args.data.startTime);
      continue;
    }
    const data = e.args.data;
    for (const node of data.cpuProfile?.nodes ?? []) {
      const f = node.callFrame;
      const file = (f.url ?? '').split('/').pop().replace(/\?.*$/, '');
      nodes.set(`${id}:${node.id}`, f.functionName || file ? `${f.functionName || '(anonymous)'}${file ? ` (${file}:${f.lineNumber + 1})` : ''}` : f.codeType ?? '(program)');
    }
    let t = clock.get(id) ?? 0;
    const ids = data.cpuProfile?.samples ?? [];
    ids.forEach((node, i) => {
      t += data.timeDeltas?.[i] ?? 0;
      samples.push({ ts: t, name: nodes.get(`${id}:${node}`) ?? '?' });
    });
    clock.set(id, t);
  }
  return samples;
}

/**
 * @param {Buffer | string} raw The trace JSON from stopTracing().
 * @param {number} [overMs] Tasks longer than this (wall) are listed.
 * @returns The tune's tasks on the page's main thread over `overMs`, longest first (at most 16), with
 *   the events inside each summed by name (the 6 longest), and how many tasks there were in all.
 */
export function tuneTasks(raw, overMs = 2) {
  const parsed = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const start = events.find((e) => e.name === 'tune-start');
  const end = events.find((e) => e.name === 'tune-end');
  if (!start || !end) throw new Error('the trace holds no tune-start / tune-end marks (was the tune traced?)');
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === start.pid);
  if (!main) throw new Error('the trace names no CrRendererMain thread in the page\'s process');
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.ts >= start.ts && e.ts <= end.ts);
  // Top-level tasks: the scheduler's RunTask events (what a frame waits behind), outermost only (the
  // trace nests a RunTask in a ThreadControllerImpl::RunTask).
  const inside = (task) => onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur);
  const runs = onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask').sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = [];
  for (const e of runs) {
    const outer = tasks.at(-1);
    if (!outer || e.ts >= outer.ts + outer.dur) tasks.push(e);
  }
  const long = tasks.filter((t) => t.dur / 1000 > overMs).sort((a, b) => b.dur - a.dur).slice(0, 16);
  const samples = profileSamples(events, main.pid, main.tid);
  return {
    tasks: tasks.length,
    over: tasks.filter((t) => t.dur / 1000 > overMs).length,
    overCpu: tasks.filter((t) => (t.tdur ?? 0) / 1000 > overMs).length,
    longestMs: Math.max(0, ...tasks.map((t) => t.dur / 1000)),
    longestCpuMs: Math.max(0, ...tasks.map((t) => (t.tdur ?? 0) / 1000)),
    long: long.map((task) => {
      const byName = new Map();
      // The scheduler's and V8's wrappers say nothing about where the time went.
      for (const e of inside(task)) if (!/RunTask|TimerFire|v8\.callFunction|FunctionCall|^RunMicrotasks$/.test(e.name)) byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
      const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 6);
      // Where the script's time went: the functions V8's sampler found it in (about a sample per ms
      // here: a task of a few ms may hold none of its own functions).
      const byFunction = new Map();
      for (const x of samples) if (x.ts >= task.ts && x.ts <= task.ts + task.dur) byFunction.set(x.name, (byFunction.get(x.name) ?? 0) + 1);
      const functions = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 5);
      return {
        atMs: (task.ts - start.ts) / 1000, ms: task.dur / 1000, cpuMs: (task.tdur ?? 0) / 1000,
        inside: Object.fromEntries(top.map(([n, ms]) => [n, Math.round(ms * 100) / 100])),
        samples: Object.fromEntries(functions),
      };
    }),
  };
}
