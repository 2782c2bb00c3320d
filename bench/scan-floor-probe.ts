// Issue 23's floor probe: what a full-size scan pass can cost at best on this GPU's graphics pipe.
// It times synthetic passes (not results: yardsticks) over a stream of 2^n R32UI elements, each in
// batches of back-to-back calls, next to the engine's own scan and the profile of its passes:
// - writes only (one R32UI texel per fragment; 8 RGBA32UI layers per fragment): the ROP rate;
// - "up" passes reading 32 (or 8, 16) consecutive elements per fragment and writing their values,
//   their running sums (with and without the engine's bounds checks) or only their sum;
// - "down" passes writing one element per fragment from a lane in one of three lane layouts
//   (RGBA32UI, RG32UI, R32UI layers) plus its group's prefix, from two element-layout fetches, or
//   from re-adding a group of 4 of the input.
// Each helper texture is laid out two ways: 'wide' (rows as wide as the stream's, as the engine laid
// out its helper textures before 2026-11-26) and row-aligned (the groups of one input row in one
// row: layout.ts#groupsLayout).
// Usage: node bench/build-probe.mjs scan-floor-probe, then on the GPU server (bench/README.md):
//   GPU_BACKEND=egl bash .gpu/device.sh scan-floor-probe.mjs [--sizes 22,24] [--repeats 7] [--batch 10] [--out DIR]
import { parseArgs } from 'node:util';
import { PAIR_FORMAT, texelFormats, type TargetFormat } from '../src/texel-format.js';
import { copyPassYardstick, passTimes, perCall as timePerCall, probeEngine, writeProbeJson } from './probe-timing.js';

const { values: options } = parseArgs({
  options: {
    sizes: { type: 'string', default: '22,24' },
    repeats: { type: 'string', default: '7' },
    batch: { type: 'string', default: '10' },
    out: { type: 'string' },
  },
});
const sizes = options.sizes.split(',').map(Number);
const repeats = Number(options.repeats);
const batch = Number(options.batch);
if (!sizes.every((s) => Number.isInteger(s) && s >= 10 && s <= 24) || !(repeats >= 1) || !(batch >= 1)) {
  console.error('usage: scan-floor-probe [--sizes 22,24 (log2, 10..24)] [--repeats 7] [--batch 10] [--out DIR]');
  process.exit(2);
}

const { engine, gpu, renderer } = probeEngine();
console.log(`renderer: ${renderer}; draw buffers: ${engine.caps.drawBuffers}; batches of ${batch}, median of ${repeats}`);
if (engine.caps.drawBuffers < 8) throw new Error('scan-floor-probe needs 8 draw buffers (the egl route with bench/gpu\'s shim)');

const header = `#version 300 es
precision highp float;
precision highp int;
precision highp usampler2D;
precision highp usampler2DArray;
uniform usampler2D u_src;
uniform int u_srcLog2;
uniform int u_outLog2;
uniform int u_count;
uint at(uint i) { uint w = (1u << uint(u_srcLog2)) - 1u; return texelFetch(u_src, ivec2(int(i & w), int(i >> uint(u_srcLog2))), 0).r; }
uint fragmentIndex() { return (uint(gl_FragCoord.y) << uint(u_outLog2)) + uint(gl_FragCoord.x); }
`;
const range = (n: number) => Array.from({ length: n }, (_, k) => k);
const components = ['x', 'y', 'z', 'w'];

/** An up pass over `perFragment` elements into `layers` attachments of `perTexel` components. */
function upShader(kind: 'values' | 'sums' | 'checked sums', layers: number, perTexel: 1 | 2 | 4): string {
  const type = perTexel === 1 ? 'uint' : `uvec${perTexel}`;
  const lines = [header, `layout(location = 0) out ${type} o[${layers}];`, 'void main() {',
    `  uint f = fragmentIndex() * ${layers * perTexel}u;`, '  uint last = uint(u_count) - 1u;', '  uint s = 0u;'];
  for (const a of range(layers)) {
    lines.push(`  ${type} t${a};`);
    for (const c of range(perTexel)) {
      const k = a * perTexel + c;
      const slot = perTexel === 1 ? `t${a}` : `t${a}.${components[c]}`;
      if (kind === 'values') lines.push(`  ${slot} = at(f + ${k}u);`);
      else if (kind === 'sums') lines.push(`  s += at(f + ${k}u); ${slot} = s;`);
      else lines.push(`  { uint e = f + ${k}u; uint v = at(min(e, last)); s = e <= last ? s + v : s; ${slot} = s; }`);
    }
    lines.push(`  o[${a}] = t${a};`);
  }
  lines.push('}');
  return lines.join('\n');
}

/** A reduce pass: the sum of `perFragment` consecutive elements, one R32UI texel per fragment. */
function reduceShader(perFragment: number): string {
  const adds = range(perFragment).map((k) => `  s += at(f + ${k}u);`);
  return [header, 'out uint o;', 'void main() {', `  uint f = fragmentIndex() * ${perFragment}u;`, '  uint s = 0u;', ...adds, '  o = s;', '}'].join('\n');
}

/** Writes only: a constant into `layers` attachments of `type`. */
function writeShader(layers: number, type: string): string {
  const writes = range(layers).map((a) => `  o[${a}] = ${type}(${a + 1}u);`);
  return [header, `layout(location = 0) out ${type} o[${layers}];`, 'void main() {', ...writes, '}'].join('\n');
}

/**
 * A down pass: element i = its lane (from layers of `perTexel` lanes per texel, groups of
 * `group` lanes) + its group's prefix (an R32UI texture of groups); or from two fetches in the
 * element layout; or the input's group of 4 re-added.
 */
function downShader(kind: 'lanes' | 'element layout' | 'readd 4', perTexel: 1 | 2 | 4, group: number): string {
  const lines = [header, 'uniform usampler2DArray u_lanes;', 'uniform usampler2D u_parent;', 'uniform int u_groupLog2;', 'out uint o;', 'void main() {',
    '  uint i = (uint(gl_FragCoord.y) << uint(u_srcLog2)) + uint(gl_FragCoord.x);',
    `  uint g = i / ${group}u;`,
    '  uint gw = (1u << uint(u_groupLog2)) - 1u;',
    '  uint prefix = texelFetch(u_parent, ivec2(int(g & gw), int(g >> uint(u_groupLog2))), 0).r;'];
  if (kind === 'lanes') {
    lines.push(`  uint lane = i % ${group}u;`,
      `  uvec4 t = texelFetch(u_lanes, ivec3(int(g & gw), int(g >> uint(u_groupLog2)), int(lane / ${perTexel}u)), 0);`,
      `  o = prefix + t[lane % ${perTexel}u];`);
  } else if (kind === 'element layout') {
    lines.push('  o = prefix + at(i);');
  } else {
    lines.push('  uint base = i & ~3u; uint k = i & 3u;', '  uint s = at(base);',
      '  if (k >= 1u) s += at(base + 1u);', '  if (k >= 2u) s += at(base + 2u);', '  if (k >= 3u) s += at(base + 3u);', '  o = prefix + s;');
  }
  lines.push('}');
  return lines.join('\n');
}

interface Row { what: string; log2n: number; ms: number }
const rows: Row[] = [];
const report = (row: Row) => {
  rows.push(row);
  console.log(`2^${row.log2n} ${row.what.padEnd(72)} ${row.ms.toFixed(3).padStart(8)} ms`);
};
const perCall = (run: () => void) => timePerCall(engine, run, { repeats, batch });
const profile: Record<string, number> = {};

for (const log2n of sizes) {
  const n = 2 ** log2n;
  const values = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i, 2654435761) >>> 27) & 7);
  const stream = engine.stream(values);
  const { width, height, widthLog2 } = stream.layout;
  for (const layout of ['wide', 'rows'] as const) {
    // Where group g's texel lies: 'wide', rows as wide as the stream's (the engine's layouts); 'rows',
    // the groups of one input row in one row (a fragment row reads one input row).
    const shape = (entries: number) => {
      const w = layout === 'wide' ? Math.min(width, entries) : Math.max(1, entries / height);
      return { width: w, height: Math.max(1, entries / w), log2: Math.log2(w) };
    };
    const tag = layout === 'wide' ? '' : ' [row-aligned groups]';
    const base = { u_src: stream.texture, u_srcLog2: widthLog2, u_count: n };
    // Each pass into two targets in turn: llvmpipe drops a draw that the next one into the same
    // framebuffer covers (probe-timing.ts#copyPassYardstick), which halved these passes there in
    // batches of 2 before 2026-11-26.
    const time = async (what: string, fragment: string, target: { width: number; height: number; format: TargetFormat; layers: number }, uniforms: Record<string, unknown>) => {
      const outputs = [0, 1].map(() => gpu.target(target.width, target.height, target.format, target.layers));
      const program = gpu.program({ name: what, fragment });
      let turn = 0;
      report({ what, log2n, ms: await perCall(() => gpu.pass(program, outputs[turn++ % 2]!, { ...base, ...uniforms })) });
      for (const output of outputs) output.free();
    };
    const full = { width, height, format: texelFormats.r32ui, layers: 1 };

    if (layout === 'wide') {
      // Chained, so that no renderer drops one (probe-timing.ts#copyPassYardstick).
      const copyMs = await copyPassYardstick(engine, { texture: stream.texture, width, height }, { repeats, batch });
      report({ what: 'copy pass (R32UI), chained', log2n, ms: copyMs.chained });
      report({ what: `copy pass (R32UI), ${batch} back to back into one target`, log2n, ms: copyMs.backToBack });
      await time('write only, R32UI, 1 per fragment', writeShader(1, 'uint'), full, { u_outLog2: widthLog2 });
    }
    const g32 = shape(n / 32);
    await time('write only, 8 RGBA32UI layers (32 per fragment)' + tag, writeShader(8, 'uvec4'), { ...g32, format: texelFormats.rgba32ui, layers: 8 }, { u_outLog2: g32.log2 });
    await time('up 32: values -> 8 RGBA32UI layers' + tag, upShader('values', 8, 4), { ...g32, format: texelFormats.rgba32ui, layers: 8 }, { u_outLog2: g32.log2 });
    await time('up 32: running sums -> 8 RGBA32UI layers' + tag, upShader('sums', 8, 4), { ...g32, format: texelFormats.rgba32ui, layers: 8 }, { u_outLog2: g32.log2 });
    await time('up 32: running sums, bounds-checked -> 8 RGBA32UI layers' + tag, upShader('checked sums', 8, 4), { ...g32, format: texelFormats.rgba32ui, layers: 8 }, { u_outLog2: g32.log2 });
    await time('up 32: sum only -> R32UI' + tag, reduceShader(32), { ...g32, format: texelFormats.r32ui, layers: 1 }, { u_outLog2: g32.log2 });
    const g16 = shape(n / 16);
    await time('up 16: running sums -> 8 RG32UI layers' + tag, upShader('sums', 8, 2), { ...g16, format: PAIR_FORMAT, layers: 8 }, { u_outLog2: g16.log2 });
    await time('up 16: sum only -> R32UI' + tag, reduceShader(16), { ...g16, format: texelFormats.r32ui, layers: 1 }, { u_outLog2: g16.log2 });
    const g8 = shape(n / 8);
    await time('up 8: running sums -> 8 R32UI layers' + tag, upShader('sums', 8, 1), { ...g8, format: texelFormats.r32ui, layers: 8 }, { u_outLog2: g8.log2 });
    await time('up 8: sum only -> R32UI' + tag, reduceShader(8), { ...g8, format: texelFormats.r32ui, layers: 1 }, { u_outLog2: g8.log2 });

    // Down passes read lanes written by the up pass of the same shape, and group sums written by a
    // reduce (the values do not matter; textures that were drawn, as the engine's are).
    for (const [perTexel, group, g, format] of [[4, 32, g32, texelFormats.rgba32ui], [2, 16, g16, PAIR_FORMAT], [1, 8, g8, texelFormats.r32ui]] as const) {
      const lanes = gpu.target(g.width, g.height, format, 8);
      const parent = gpu.target(g.width, g.height, texelFormats.r32ui, 1);
      gpu.pass(gpu.program({ name: `fill lanes ${group}`, fragment: upShader('sums', 8, perTexel) }), lanes, { ...base, u_outLog2: g.log2 });
      gpu.pass(gpu.program({ name: `fill sums ${group}`, fragment: reduceShader(group) }), parent, { ...base, u_outLog2: g.log2 });
      await time(`down: lane (${perTexel} per texel, groups of ${group}) + group prefix${tag}`, downShader('lanes', perTexel, group), full,
        { u_lanes: lanes.texture, u_parent: parent.texture, u_groupLog2: g.log2 });
      if (group === 32) {
        await time('down: two R32UI fetches in the element layout' + tag, downShader('element layout', 1, 32), full, { u_lanes: lanes.texture, u_parent: parent.texture, u_groupLog2: g.log2 });
        const g4 = shape(n / 4);
        const parent4 = gpu.target(g4.width, g4.height, texelFormats.r32ui, 1);
        gpu.pass(gpu.program({ name: 'fill sums 4', fragment: reduceShader(4) }), parent4, { ...base, u_outLog2: g4.log2 });
        await time('down: the input group of 4 re-added + group prefix' + tag, downShader('readd 4', 1, 4), full, { u_lanes: lanes.texture, u_parent: parent4.texture, u_groupLog2: g4.log2 });
        parent4.free();
      }
      lanes.free();
      parent.free();
    }
  }

  // The engine's own scan, checked once, then timed and profiled.
  const expected = new Uint32Array(n);
  for (let i = 0, sum = 0; i < n; i++) expected[i] = sum = (sum + values[i]) >>> 0;
  const once = engine.scan(stream);
  const got = await once.read();
  once.dispose();
  for (let i = 0; i < n; i++) if (got[i] !== expected[i]) throw new Error(`scan 2^${log2n}: element ${i} is ${got[i]}, the CPU says ${expected[i]}`);
  report({ what: `engine scan (default, ${engine.lastScanStats!.passes} passes)`, log2n, ms: await perCall(() => engine.scan(stream).dispose()) });
  for (const [pass, ms] of passTimes(engine, () => engine.scan(stream).dispose())) {
    profile[`2^${log2n} ${pass}`] = ms;
    console.log(`  profile 2^${log2n} ${pass.padEnd(60)} ${ms.toFixed(3)} ms`);
  }
  stream.dispose();
}

if (options.out) writeProbeJson(options.out, 'scan-floor-probe', { renderer, batch, repeats, rows, profile });
engine.dispose();
