// The page's main thread during engine.tune(), from Firefox's own profiler (the Gecko profiler,
// started with the browser: bench/tuned-sweep-browser.mjs --gecko-profile).
//
// Why: the tune's target is at most 2 ms of main-thread time in one frame. A stretch the page measures
// between its own ticks is wall time, and on this loaded 2-core host it holds time the thread waited
// for a core (an idle page's longest gap was 10-28 ms). Gecko marks every stretch a thread is awake
// (an `Awake` marker: from its wake-up to its next sleep, with the CPU time it used), so the thread's
// work can be told from its waiting, as Chromium's trace does for its tasks (chrome-trace.mjs). The
// page marks the tune (`performance.mark('tune-start' | 'tune-end')`) and an idle baseline before it
// (`idle-start` / `idle-end`), which the profile holds as UserTiming markers of the same thread.

/** The marker table's rows as objects ({ name, start, end, phase, data }), in recorded order. */
function markersOf(thread) {
  const { schema, data } = thread.markers;
  const strings = thread.stringTable;
  return data.map((row) => ({ name: strings[row[schema.name]], start: row[schema.startTime], end: row[schema.endTime], phase: row[schema.phase], data: row[schema.data] }));
}

/** Every thread of the profile, its subprocesses' too. */
function threadsOf(profile) {
  return [...profile.threads, ...(profile.processes ?? []).flatMap(threadsOf)];
}

/** A UserTiming mark's time on this thread (Gecko names the marker after the mark; its data says so too). */
function markTime(markers, name) {
  const mark = markers.find((m) => m.data?.type === 'UserTiming' && (m.data.name === name || m.name === name));
  return mark === undefined ? undefined : mark.start;
}

/**
 * The thread's awake stretches: an interval start (phase 2, `CPU Id`) closed by the next interval end
 * (phase 3, `CPU Time` in ms). A start with no end (the profile stopped) is left out. `CPU Time` can
 * exceed the stretch's wall time (Firefox ESR 153 on this host: 1,332 ms of CPU in 1,030 ms awake over
 * 15 s of idle page), as if it counted the thread's CPU since the last stretch ended; the wall time
 * is the firmer figure.
 */
function awakeStretches(markers) {
  const stretches = [];
  let open;
  for (const m of markers) {
    if (m.name !== 'Awake') continue;
    if (m.phase === 2) open = m.start;
    else if (m.phase === 3 && open !== undefined) {
      stretches.push({ start: open, end: m.end, cpuMs: m.data?.['CPU Time'] ?? 0 });
      open = undefined;
    }
  }
  return stretches;
}

/**
 * The sampled stacks' innermost named frames (a JS function with its script, or a label; unsymbolicated
 * native addresses are skipped) in [from, to), counted, most first (at most 4).
 */
function namedFrames(thread, from, to) {
  const { samples, stackTable, frameTable, stringTable } = thread;
  const s = samples.schema;
  const counts = new Map();
  for (const row of samples.data) {
    const time = row[s.time];
    if (time < from || time >= to) continue;
    let stack = row[s.stack];
    let name;
    while (stack !== null && stack !== undefined && name === undefined) {
      const [prefix, frame] = [stackTable.data[stack][stackTable.schema.prefix], stackTable.data[stack][stackTable.schema.frame]];
      const location = stringTable[frameTable.data[frame][frameTable.schema.location]];
      if (!/^0x[0-9a-f]+$/i.test(location)) name = location.replace(/https?:\/\/[^ )]*\//, '');
      stack = prefix;
    }
    if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, 4));
}

/**
 * Whose a stretch's work was, by its samples' named frames: 'webdriver' (the harness's WebDriver BiDi
 * agent, chrome://remote/, evaluating its polls of the page), 'gc' (mostly a garbage or cycle
 * collection of the page's heap), 'page' (a sample in one of the page's scripts, the engine's among
 * them), else 'browser' (only the browser's own labels and native frames: its event loop, timers,
 * layout, the profiler; or no sample at all).
 */
function whose(samples) {
  const entries = Object.entries(samples);
  if (entries.some(([name]) => name.includes('chrome://remote/'))) return 'webdriver';
  const count = (list) => list.reduce((sum, [, n]) => sum + n, 0);
  const collecting = entries.filter(([name]) => /GC|\bCC\b|sweepPhase|UnmarkGray/.test(name));
  if (entries.length > 0 && 2 * count(collecting) >= count(entries)) return 'gc';
  // A page script's frame: `function (file.js:line:column)`, not a browser-internal one (self-hosted, chrome://).
  if (entries.some(([name]) => /\.m?[jt]s:\d+:\d+\)/.test(name) && !name.includes('self-hosted'))) return 'page';
  return 'browser';
}

/** What the thread did in [from, to): its awake stretches, those over `overMs`, and its busiest frame. */
function summarize(thread, stretches, from, to, overMs, frameMs) {
  const inside = stretches
    .filter((a) => a.end > from && a.start < to)
    .map((a) => {
      const start = Math.max(a.start, from);
      const end = Math.min(a.end, to);
      // Clipped at the window's edges, the CPU time in proportion.
      const share = a.end > a.start ? (end - start) / (a.end - a.start) : 1;
      return { start, end, ms: end - start, cpuMs: a.cpuMs * share };
    });
  // Frames of frameMs from the window's start: the most awake time (and CPU time) one of them holds.
  const frames = Math.max(1, Math.ceil((to - from) / frameMs));
  const wall = new Float64Array(frames);
  const cpu = new Float64Array(frames);
  for (const a of inside) {
    for (let f = Math.floor((a.start - from) / frameMs); f < frames && from + f * frameMs < a.end; f++) {
      const overlap = Math.min(a.end, from + (f + 1) * frameMs) - Math.max(a.start, from + f * frameMs);
      if (overlap <= 0) continue;
      wall[f] += overlap;
      cpu[f] += a.ms > 0 ? (a.cpuMs * overlap) / a.ms : 0;
    }
  }
  const over = inside
    .filter((a) => a.ms > overMs || a.cpuMs > overMs)
    .sort((a, b) => b.cpuMs - a.cpuMs)
    .map((a) => {
      const samples = namedFrames(thread, a.start, a.end);
      return { atMs: a.start - from, ms: a.ms, cpuMs: a.cpuMs, whose: whose(samples), samples };
    });
  return {
    ms: to - from,
    stretches: inside.length,
    over: inside.filter((a) => a.ms > overMs).length,
    overCpu: inside.filter((a) => a.cpuMs > overMs).length,
    // The stretches over overMs of CPU, by whose work their samples show.
    // (CPU time as Gecko counts it per stretch: see awakeStretches, it can exceed the wall time.)
    overCpuBy: Object.fromEntries(['page', 'gc', 'webdriver', 'browser'].map((w) => [w, over.filter((a) => a.cpuMs > overMs && a.whose === w).length])),
    longestMs: Math.max(0, ...inside.map((a) => a.ms)),
    longestCpuMs: Math.max(0, ...inside.map((a) => a.cpuMs)),
    awakeMs: inside.reduce((sum, a) => sum + a.ms, 0),
    cpuMs: inside.reduce((sum, a) => sum + a.cpuMs, 0),
    busiestFrameMs: Math.max(...wall),
    busiestFrameCpuMs: Math.max(...cpu),
    framesOverCpu: cpu.filter((ms) => ms > overMs).length,
    frames,
    long: over.slice(0, 16),
  };
}

/**
 * The tasks that ran in the last `withinMs` before `at` (the tune's end): message events (DOMEvent,
 * an interval start and end) and timer callbacks (one interval marker), with their start (ms from `at`,
 * negative before it) and length; a callback still running at `at` counts up to `at`. A tune in a
 * worker ends with two: the profile's message, then the task taking it (src/engine.ts #tuneInWorker).
 */
function tasksBefore(markers, at, withinMs) {
  const tasks = [];
  let event;
  for (const m of markers) {
    if (m.name === 'DOMEvent' && m.phase === 2) event = m;
    else if (m.name === 'DOMEvent' && m.phase === 3 && event !== undefined) {
      if (m.end <= at && m.end > at - withinMs) tasks.push({ name: `${event.data?.eventType ?? ''} event`, atMs: event.start - at, ms: m.end - event.start });
      event = undefined;
    } else if (m.name === 'setTimeout callback' && m.phase === 1 && m.start < at && m.end > at - withinMs) {
      tasks.push({ name: 'setTimeout callback', atMs: m.start - at, ms: Math.min(m.end, at) - m.start });
    }
  }
  return tasks.sort((a, b) => a.atMs - b.atMs);
}

/**
 * @param {object} profile The Gecko profile (the JSON Firefox writes at shutdown with MOZ_PROFILER_SHUTDOWN).
 * @param {{ overMs?: number, frameMs?: number }} [options] Stretches and frames over `overMs` (2) are
 *   counted; frames are `frameMs` (1000 / 60) from the window's start.
 * @returns The page's main thread (the GeckoMain thread holding the tune's marks) during the tune and
 *   during the idle baseline before it, if marked: awake stretches, how many over `overMs` of wall or
 *   CPU time, the longest, the busiest frame's awake and CPU time, and the longest stretches (by CPU
 *   time, at most 16) with the named frames their samples were in.
 */
export function tuneAwake(profile, { overMs = 2, frameMs = 1000 / 60 } = {}) {
  for (const thread of threadsOf(profile)) {
    if (thread.name !== 'GeckoMain') continue;
    const markers = markersOf(thread);
    const start = markTime(markers, 'tune-start');
    const end = markTime(markers, 'tune-end');
    if (start === undefined || end === undefined) continue;
    const stretches = awakeStretches(markers);
    const idleStart = markTime(markers, 'idle-start');
    const idleEnd = markTime(markers, 'idle-end');
    return {
      pid: thread.pid,
      tune: summarize(thread, stretches, start, end, overMs, frameMs),
      tasksBeforeEnd: tasksBefore(markers, end, 5),
      ...(idleStart !== undefined && idleEnd !== undefined ? { idle: summarize(thread, stretches, idleStart, idleEnd, overMs, frameMs) } : {}),
    };
  }
  throw new Error('no GeckoMain thread of the profile holds the tune-start / tune-end marks (was the page profiled, and did the tune end?)');
}
