// What engine.tune() costs and what it chooses (issue 20): wall time of a default tune, the longest
// stretch it kept the thread busy without yielding (an event-loop lag monitor: the longest gap
// between two 1 ms ticks), the profile, and per size and density how the built-in default and the
// tuned choice compare with the fastest path measured in the same tune (ratios from its own timings).
// Usage: node bench/build-bundle.mjs tune-probe && bash scripts/with-display.sh node bench/tmp/tune-probe.mjs [--json FILE] [--repeats 3]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, repeats: { type: 'string', default: '3' } } });
const gl = createHeadlessContext();
const engine = createEngine(gl);
const renderer = headlessRenderer(gl);
let last = performance.now();
let longestGap = 0;
const monitor = setInterval(() => {
  const now = performance.now();
  longestGap = Math.max(longestGap, now - last);
  last = now;
}, 1);
const start = performance.now();
const profile = await engine.tune({ repeats: Number(values.repeats) });
const wallMs = performance.now() - start;
clearInterval(monitor);
const ordered = ['bitmask', 'horn', 'horn-global', 'histopyramid'];
const rows: Array<Record<string, unknown>> = [];
for (const [point, times] of Object.entries(profile.timings)) {
  const [key, density] = point.split('/');
  if (density === 'scan') {
    const fastest = Math.min(...Object.values(times));
    rows.push({ point, defaultScan: null, tuned: profile.scan[key], tunedRatio: times[profile.scan[key]] / fastest, times });
    continue;
  }
  const fastestKeep = Math.min(...ordered.map((p) => times[p]));
  const fastestAny = Math.min(...Object.values(times));
  rows.push({
    point,
    builtInDefaultRatio: times.bitmask / fastestKeep,
    tunedKeep: profile.compact.keep[key],
    tunedKeepRatio: times[profile.compact.keep[key]] / fastestKeep,
    tunedAny: profile.compact.any[key],
    tunedAnyRatio: times[profile.compact.any[key]] / fastestAny,
    times,
  });
}
console.log(`renderer: ${renderer}`);
console.log(`tune(): ${wallMs.toFixed(0)} ms wall, longest stretch without yielding ${longestGap.toFixed(1)} ms`);
for (const row of rows) console.log(JSON.stringify(row));
const result = { renderer, date: new Date().toISOString(), wallMs, longestGapMs: longestGap, profile, rows };
if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 1)}\n`);
engine.dispose();
