// Issue 23's yardstick check: does a batch of copy passes cost what its passes cost on this renderer?
// The CPU-renderer targets are in "copy passes of one run" (an operation's time over one R32UI copy
// pass's), and the probes used to time that copy back to back into one target. This times one copy
// pass over 2^n R32UI elements, per call in batches of 1, 2 and 10 (median of --repeats batches):
// - back to back into one target (what the probes timed before 2026-11-26);
// - alternating between two targets (the same work, but no copy covers the one before it);
// - chained: a → b after source → a, each reading the last one's output, per copy
//   (probe-timing.ts#copyPassYardstick, what the probes time now).
// On llvmpipe the first form costs about one copy per batch, whatever the batch: llvmpipe drops a
// draw whose tiles a later opaque draw into the same framebuffer covers before they are rasterised.
// Usage: node bench/build-probe.mjs copy-yardstick-probe && bash scripts/with-display.sh node
//   bench/tmp/copy-yardstick-probe.mjs [--log2n 22] [--repeats 5] [--json FILE]
// (or through bench/gpu's shim: GPU_BACKEND=egl bash .gpu/device.sh copy-yardstick-probe.mjs ...).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { copyPassShader, copyPassYardstick, perCall, probeEngine } from './probe-timing.js';

const { values: options } = parseArgs({ options: { log2n: { type: 'string', default: '22' }, repeats: { type: 'string', default: '5' }, json: { type: 'string' } } });
const log2n = Number(options.log2n);
const repeats = Number(options.repeats);
if (!Number.isInteger(log2n) || log2n < 10 || log2n > 24 || !(repeats >= 1)) {
  console.error('usage: copy-yardstick-probe [--log2n 22 (10..24)] [--repeats 5] [--json FILE]');
  process.exit(2);
}

const { gl, engine, gpu, renderer } = probeEngine();
console.log(`renderer: ${renderer}; 2^${log2n} R32UI elements; ms per copy pass, median of ${repeats} batches`);
const n = 2 ** log2n;
const stream = engine.stream(Uint32Array.from({ length: n }, (_, i) => Math.imul(i, 2654435761) >>> 0));
const { width, height } = stream.layout;
const source = { texture: stream.texture, width, height };
const copy = gpu.program({ name: 'copy', fragment: copyPassShader });
const a = gpu.target(width, height);
const b = gpu.target(width, height);

const rows: Array<{ batch: number; backToBack: number; alternating: number; chained: number }> = [];
let flip = false;
for (const batch of [1, 2, 10]) {
  const timing = { repeats, batch };
  // Back to back into one target, and chained: the yardstick's two forms.
  const { backToBack, chained } = await copyPassYardstick(engine, source, timing);
  const alternating = await perCall(engine, () => {
    flip = !flip;
    gpu.pass(copy, flip ? a : b, { u_source: stream.texture });
  }, timing);
  rows.push({ batch, backToBack, alternating, chained });
  console.log(`batches of ${String(batch).padStart(2)}: back to back into one target ${backToBack.toFixed(2).padStart(7)} ms, alternating two targets ${alternating.toFixed(2).padStart(7)} ms, chained ${chained.toFixed(2).padStart(7)} ms`);
}
// The copies are exact (a yardstick that copied nothing would be no yardstick): the last
// alternating copy's target.
const got = new Uint32Array(width * height * 4);
gl.bindFramebuffer(gl.FRAMEBUFFER, (flip ? a : b).framebuffer);
gl.readPixels(0, 0, width, height, gl.RGBA_INTEGER, gl.UNSIGNED_INT, got);
gl.bindFramebuffer(gl.FRAMEBUFFER, null);
for (let i = 0; i < n; i++) {
  if (got[i * 4] !== Math.imul(i, 2654435761) >>> 0) throw new Error(`copy: element ${i} is ${got[i * 4]}`);
}
a.free();
b.free();
stream.dispose();
engine.dispose();
if (options.json) writeFileSync(options.json, JSON.stringify({ renderer, log2n, repeats, rows, date: new Date().toISOString() }, null, 2));
