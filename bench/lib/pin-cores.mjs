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

const parentOf = (pid) => {
  try {
    return /^PPid:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined; // gone
  }
};

/** This process and every process started from it (the browser it launched, with its children). */
function ownProcesses() {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const parents = new Map(pids.map((pid) => [pid, parentOf(pid)]));
  const own = new Set([String(process.pid)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!own.has(pid) && own.has(parent)) {
        own.add(pid);
        grew = true;
      }
    }
  }
  return own;
}

/**
 * Pins the threads of the `engine` browser this process launched (and this process's own): page main
 * threads to core 0, all others to core 1. Other browsers on the host (another job's) are left alone.
 * Call it again now and then: threads made since inherit their maker's core. The page should wait a
 * moment before what it measures (bench/tuned-sweep-page idles 1.5 s before the tune).
 * @returns How many page main threads and other threads it pinned.
 * @throws Error when it found no page's main thread (nothing would be measured pinned).
 */
export function pinBrowser(engine) {
  const family = FAMILIES[engine];
  if (!family) throw new Error(`pinBrowser: unknown engine '${engine}'`);
  const counts = { pageMainThreads: 0, otherThreads: 0 };
  for (const pid of ownProcesses()) {
    const self = pid === String(process.pid);
    const line = commandLineOf(pid);
    if (!self && !family.member(line)) continue;
    const page = !self && family.page(line);
    for (const tid of tasksOf(pid)) {
      const main = page && tid === pid;
      if (pin(tid, main ? '1' : '2')) counts[main ? 'pageMainThreads' : 'otherThreads'] += 1;
    }
  }
  if (counts.pageMainThreads === 0) throw new Error(`pinBrowser: no page process of ${engine} found among this process's children`);
  return counts;
}
