// Exactness past 2^24 elements on the GPU server, with the draw buffers a browser has: the scale
// tests (test/scale.node.test.ts) run in Node, where headless-gl writes one attachment, so the
// paths that need 4 or 8 (reduce-then-scan's lanes of several attachments, the bitmask's select
// writing values or positions, the sort's select) are checked here, whole, against the CPU. Not a benchmark: it
// prints one line per check and exits non-zero on the first difference.
// Usage: node bench/build-probe.mjs scale-probe, then on the GPU server (bench/README.md):
//   GPU_BACKEND=egl bash .gpu/device.sh scale-probe.mjs [--n 17825795]
import { parseArgs } from 'node:util';
import { createEngine } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';

const { values: options } = parseArgs({ options: { n: { type: 'string', default: String(2 ** 24 + 2 ** 20 + 3) } } });
const n = Number(options.n);
if (!Number.isInteger(n) || n < 1 || n > 8192 * 8192) {
  console.error(`usage: scale-probe [--n ELEMENTS (1 .. 8192², default 2^24 + 2^20 + 3)]; got ${options.n}`);
  process.exit(2);
}
const gl = createHeadlessContext();
const engine = createEngine(gl, { maxTextureSize: 8192, texturePoolBytes: 2 ** 31 });
console.log(`renderer: ${headlessRenderer(gl)}; draw buffers: ${engine.caps.drawBuffers}; n = ${n}`);
if (engine.caps.drawBuffers < 4) console.log('fewer than 4 draw buffers: the paths this probe is for do not run here');

function compare(what: string, got: ArrayLike<number>, expected: ArrayLike<number>): void {
  if (got.length !== expected.length) throw new Error(`${what}: length ${got.length}, the CPU says ${expected.length}`);
  for (let i = 0; i < expected.length; i++) {
    if (got[i] !== expected[i]) throw new Error(`${what}: element ${i} is ${got[i]}, the CPU says ${expected[i]}`);
  }
  console.log(`${what}: ${expected.length} elements equal to the CPU's`);
}

let seed = 12345;
const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
const values = Uint32Array.from({ length: n }, () => next());
const stream = engine.stream(values);

// Whole-stream scan (reduce-then-scan with lanes where the context has 4+ draw buffers), wrapping.
{
  const expected = new Uint32Array(n);
  for (let i = 0, sum = 0; i < n; i++) expected[i] = sum = (sum + values[i]) >>> 0;
  const scanned = engine.scan(stream);
  compare(`scan (${engine.lastScanStats!.algorithm}, ${engine.lastScanStats!.passes} passes)`, (await scanned.read()) as Uint32Array, expected);
  scanned.dispose();
}

// Bitmask compaction at ~50 %: values (the select writes them) and indices (its positions).
{
  const keep = { glsl: 'return (value.x & 1u) == 0u;' };
  const expectedIndices: number[] = [];
  for (let i = 0; i < n; i++) if ((values[i] & 1) === 0) expectedIndices.push(i);
  const kept = Uint32Array.from(expectedIndices, (i) => values[i]);
  const byValue = engine.compact(stream, { keep, algorithm: 'bitmask' });
  compare(`bitmask compaction, values (${byValue.stats.passes} passes)`, (await byValue.read()) as Uint32Array, kept);
  byValue.dispose();
  const byIndex = engine.compact(stream, { keep, algorithm: 'bitmask', output: 'indices' });
  compare('bitmask compaction, indices', (await byIndex.read()) as Uint32Array, Uint32Array.from(expectedIndices));
  byIndex.dispose();
}

// Sort of uint32 keys with their input positions as values: stable, against an LSD radix sort here.
{
  const order = new Uint32Array(n).map((_, i) => i);
  const buffer = new Uint32Array(n);
  for (const shift of [0, 16]) {
    const counts = new Uint32Array(65537);
    for (let i = 0; i < n; i++) counts[((values[order[i]] >>> shift) & 0xffff) + 1]++;
    for (let d = 1; d < 65537; d++) counts[d] += counts[d - 1];
    for (let i = 0; i < n; i++) buffer[counts[(values[order[i]] >>> shift) & 0xffff]++] = order[i];
    order.set(buffer);
  }
  const positions = engine.stream(new Uint32Array(n).map((_, i) => i));
  const sorted = engine.sort(stream, { values: positions });
  compare('sort, keys', (await sorted.keys.read()) as Uint32Array, order.map((i) => values[i]));
  compare('sort, values (input positions: stable)', (await sorted.values!.read()) as Uint32Array, order);
  sorted.dispose();
  positions.dispose();
}

// Reduce: the sum wraps mod 2^32, min and max in the stream's type.
{
  let sum = 0;
  let min = 0xffffffff;
  let max = 0;
  for (let i = 0; i < n; i++) {
    sum = (sum + values[i]) >>> 0;
    min = Math.min(min, values[i]);
    max = Math.max(max, values[i]);
  }
  for (const [op, expected] of [['sum', sum], ['min', min], ['max', max]] as const) {
    const reduced = engine.reduce(stream, { op });
    compare(`reduce ${op}`, (await reduced.read()) as Uint32Array, [expected]);
    reduced.dispose();
  }
}
stream.dispose();
engine.dispose();
console.log('all equal');
