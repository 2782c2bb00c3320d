// The page's main thread on a core of its own (Linux, taskset): bench/tuned-sweep-browser.mjs --pin.
//
// Why: on this 2-core host the CPU renderers (SwiftShader in Chromium's GPU process, llvmpipe's
// threads) draw on both cores, so the page's main thread waits for a core between its own tasks, and
// a stretch the page measures holds time the thread was not running at all (the fourth session's
// traces: Chromium's and Firefox's longest stretches held no WebGL time). On a device whose GPU draws,
// the cores are the app's. Pinned, the page's main thread runs alone on core 0 and every other thread
// of the browser (the renderer's, the GPU process's, this script's) on core 1, so a stretch is time
// the main thread spent on the page's work, waits for the GL process included.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Which processes belong to each engine, and which of them run pages (their main thread goes to core 0). */
// Matched on the command line as one string: Chromium's zygote children rewrite theirs into one
// space-separated argument.
const FAMILIES = {
  chromium: { member: (line) => /^\S*chrom/.test(line), page: (line) => line.includes(' --type=renderer') },
  firefox: { member: (line) => /^\S*firefox/.test(line), page: (line) => / -contentproc .* tab$/.test(line) },
  webkit: { member: (line) => /^\S*(WebKit|MiniBrowser)/.test(line), page: (line) => /^\S*WebKitWebProcess/.test(line) },
};

const commandLineOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return ''; // gone
  }
};

const tasksOf = (pid) => {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
};

const pin = (tid, mask) => {
  try {
    execFileSync('taskset', ['-p', mask, String(tid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false; // the thread ended meanwhile
  }
};

/**
 * Pins the threads of `engine`'s processes (and this process's): page main threads to core 0, all
 * others to core 1. Call it again now and then: threads made since inherit their maker's core.
 * @returns How many page main threads and other threads it pinned.
 */
export function pinBrowser(engine) {
  const family = FAMILIES[engine];
  if (!family) throw new Error(`pinBrowser: unknown engine '${engine}'`);
  const counts = { pageMainThreads: 0, otherThreads: 0 };
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    const self = pid === String(process.pid);
    const line = commandLineOf(pid);
    if (!self && !family.member(line)) continue;
    const page = !self && family.page(line);
    for (const tid of tasksOf(pid)) {
      const main = page && tid === pid;
      if (pin(tid, main ? '1' : '2')) counts[main ? 'pageMainThreads' : 'otherThreads'] += 1;
    }
  }
  return counts;
}
