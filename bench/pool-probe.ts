// The texture pool under changing lengths (issue 25): a particle-system-like stream whose length
// changes every frame (0 to ~600k over 300 frames: two rises and falls with jitter), each frame an
// upload, a compaction, a scan of its output and a count read. Reports after the run: idle texture
// bytes and count, the pool's hit rate (targets handed out again / all targets handed out), textures
// alive, and the process's resident memory (llvmpipe keeps textures in it).
// Usage: node bench/build-bundle.mjs pool-probe && bash scripts/with-display.sh node bench/tmp/pool-probe.mjs [--frames 300] [--pool-mib N] [--json FILE]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';
import { gpuOf } from '../src/internal.js';

const { values } = parseArgs({ options: { frames: { type: 'string', default: '300' }, 'pool-mib': { type: 'string' }, json: { type: 'string' } } });
const frames = Number(values.frames);
const gl = createHeadlessContext();
const engine = createEngine(gl, values['pool-mib'] === undefined ? {} : { texturePoolBytes: Number(values['pool-mib']) * 2 ** 20 });
const pool = gpuOf(engine).pool as unknown as { hits?: number; misses?: number; idleTextureBytes: number };
const renderer = headlessRenderer(gl);
let seed = 12345;
const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const rss0 = process.memoryUsage().rss;
let checked = 0;
for (let frame = 0; frame < frames; frame++) {
  const wave = 0.5 - 0.5 * Math.cos((2 * Math.PI * frame) / 150);
  const length = Math.max(0, Math.round(600_000 * wave + (random() - 0.5) * 20_000));
  const data = new Float32Array(length);
  for (let i = 0; i < length; i++) data[i] = random();
  const stream = engine.stream(data);
  const live = engine.compact(stream, { keep: { glsl: 'return value.x > 0.25;' } });
  const sums = engine.scan(live.stream);
  const count = await live.count();
  if (frame % 25 === 0) {
    let want = 0;
    for (let i = 0; i < length; i++) if (data[i] > 0.25) want++;
    if (count !== want) throw new Error(`frame ${frame}: count ${count}, expected ${want}`);
    checked++;
  }
  sums.dispose();
  live.dispose();
  stream.dispose();
  if (frame % 50 === 49) process.stderr.write(`frame ${frame + 1}/${frames}: length ${length}, idle ${(engine.idleTextureBytes / 2 ** 20).toFixed(1)} MiB\n`);
}
await engine.finish();
const textures = engine.resources.textures;
const result = {
  renderer,
  frames,
  poolBudgetMiB: values['pool-mib'] === undefined ? 'default' : Number(values['pool-mib']),
  idleMiB: engine.idleTextureBytes / 2 ** 20,
  texturesAlive: textures,
  hitRate: pool.hits === undefined ? null : pool.hits / (pool.hits + pool.misses!),
  hits: pool.hits ?? null,
  misses: pool.misses ?? null,
  rssMiB: process.memoryUsage().rss / 2 ** 20,
  rssGrowthMiB: (process.memoryUsage().rss - rss0) / 2 ** 20,
  countsChecked: checked,
};
console.log(JSON.stringify(result));
if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 1)}\n`);
engine.dispose();
