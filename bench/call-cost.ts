// What a public call costs the host (issue 18): back-to-back calls of engine.compact() / engine.scan()
// against raw GL drawing the same number of passes of the same shapes (the floor: bind framebuffer,
// viewport, texture, draw; one trivial program), with GL calls and blocking calls counted per call,
// per-call time at 2^20 against one call timed alone (is the GPU the bound there?), and heap growth
// over 10,000 calls. Both engine modes: preserveState true (default) and false.
//
// Usage: node bench/build-bundle.mjs call-cost && bash scripts/with-display.sh node bench/tmp/call-cost.mjs
//          [--sizes 10,12,16,20] [--calls 300] [--heap-calls 10000] [--json FILE]
// On the GPU machine: bench/gpu/README.md (it prints the renderer; every figure names it).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine, type Engine, type Stream } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';
import { gpuOf } from '../src/internal.js';

const usage = 'usage: node bench/tmp/call-cost.mjs [--sizes 10,12,16,20] [--calls 300] [--heap-calls 10000] [--json FILE]';
const { values: flags } = (() => {
  try {
    return parseArgs({ options: { sizes: { type: 'string', default: '10,12,16,20' }, calls: { type: 'string', default: '300' }, 'heap-calls': { type: 'string', default: '10000' }, json: { type: 'string' }, help: { type: 'boolean', default: false } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
})();
if (flags.help) {
  console.log(usage);
  process.exit(0);
}
const sizes = flags.sizes.split(',').map(Number);
const callsPerRun = Number(flags.calls);
const heapCalls = Number(flags['heap-calls']);
if (!sizes.every((s) => Number.isInteger(s) && s >= 4 && s <= 24) || !(callsPerRun >= 1) || !(heapCalls >= 0)) {
  console.error(usage);
  process.exit(2);
}

const blocking = new Set(['getParameter', 'isEnabled', 'getError', 'checkFramebufferStatus', 'getProgramParameter', 'getShaderParameter', 'getUniformLocation', 'getActiveUniform', 'getAttribLocation', 'finish', 'getTexParameter', 'getFramebufferAttachmentParameter', 'getBufferParameter', 'getSamplerParameter', 'getIndexedParameter']);
const gl = createHeadlessContext();
// Counting wrappers, installed before any engine (the engines' interceptors then sit on top of them).
const counter = { on: false, calls: 0, blocking: 0, finishes: 0 };
for (const name of Object.keys(gl)) {
  const method = (gl as unknown as Record<string, unknown>)[name];
  if (typeof method !== 'function') continue;
  const isBlocking = blocking.has(name);
  (gl as unknown as Record<string, unknown>)[name] = function (...args: unknown[]) {
    if (counter.on) {
      counter.calls += 1;
      if (isBlocking) counter.blocking += 1;
    }
    return (method as (...a: unknown[]) => unknown)(...args);
  };
}
const renderer = headlessRenderer(gl);
console.log(`renderer: ${renderer}`);

const engines = { preserve: createEngine(gl), 'no-preserve': createEngine(gl, { preserveState: false }) } as const;

// --- the raw-GL floor ---------------------------------------------------------------------------------
const rawProgram = (() => {
  const vs = gl.createShader(gl.VERTEX_SHADER)!;
  gl.shaderSource(vs, '#version 300 es\nvoid main() { vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0); gl_Position = vec4(p, 0.0, 1.0); }');
  gl.compileShader(vs);
  const fs = gl.createShader(gl.FRAGMENT_SHADER)!;
  gl.shaderSource(fs, '#version 300 es\nprecision highp float; precision highp usampler2D; uniform usampler2D u_source; out uvec4 o;\nvoid main() { o = texelFetch(u_source, ivec2(gl_FragCoord.xy) & ivec2(0), 0) + uvec4(1u); }');
  gl.compileShader(fs);
  const program = gl.createProgram()!;
  gl.attachShader(program, vs);
  gl.attachShader(program, fs);
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`raw program: ${gl.getProgramInfoLog(program)}`);
  return program;
})();
const rawVertexArray = gl.createVertexArray();

interface Shape { width: number; height: number }
interface RawTarget extends Shape { texture: WebGLTexture; framebuffer: WebGLFramebuffer }
const rawTargets = new Map<string, RawTarget[]>();
function rawTarget(shape: Shape, k: number): RawTarget {
  const key = `${shape.width}x${shape.height}`;
  let list = rawTargets.get(key);
  if (!list) rawTargets.set(key, (list = []));
  while (list.length <= k) {
    const texture = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32UI, shape.width, shape.height);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    const framebuffer = gl.createFramebuffer()!;
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    list.push({ ...shape, texture, framebuffer });
  }
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  return list[k];
}

/** The passes one call draws, as target shapes (learnt once through the engine's profiling hook). */
function shapesOf(engine: Engine, call: () => void): Shape[] {
  const gpu = gpuOf(engine);
  gpu.profile = new Map();
  call();
  const shapes: Shape[] = [];
  for (const [key, times] of gpu.profile) {
    const size = key.match(/ (\d+)x(\d+)$/);
    // transform-feedback captures have no target: a 1-texel pass stands in for them
    const shape = size ? { width: Number(size[1]), height: Number(size[2]) } : { width: 1, height: 1 };
    for (let i = 0; i < times.length; i++) shapes.push(shape);
  }
  gpu.profile = undefined;
  return shapes;
}

/** The same passes as raw GL: each samples the previous target and draws into the next. */
function rawPasses(shapes: Shape[], source: WebGLTexture): void {
  gl.useProgram(rawProgram);
  gl.bindVertexArray(rawVertexArray);
  let input = source;
  shapes.forEach((shape, k) => {
    const target = rawTarget(shape, k % 2);
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.viewport(0, 0, shape.width, shape.height);
    gl.bindTexture(gl.TEXTURE_2D, input);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    input = target.texture;
  });
}

// --- timing -----------------------------------------------------------------------------------------------
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Back-to-back calls: host time per call up to the last submit, and per call including the final finish. */
function backToBack(run: () => void, calls: number): { submit: number; total: number } {
  gl.finish();
  const start = performance.now();
  for (let i = 0; i < calls; i++) run();
  const submitted = performance.now();
  gl.finish();
  const end = performance.now();
  return { submit: (submitted - start) / calls, total: (end - start) / calls };
}

function single(run: () => void, repeats: number): number {
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    gl.finish();
    const start = performance.now();
    run();
    gl.finish();
    times.push(performance.now() - start);
  }
  return median(times);
}

function countCalls(run: () => void): { calls: number; blocking: number } {
  counter.calls = 0;
  counter.blocking = 0;
  counter.on = true;
  run();
  counter.on = false;
  return { calls: counter.calls, blocking: counter.blocking };
}

interface Row { log2n: number; operation: string; mode: string; passes: number; glCalls: number; blockingCalls: number; submitMs: number; perCallMs: number; rawSubmitMs: number; rawPerCallMs: number; ratio: number; singleCallMs: number; rawGlCalls: number }
const rows: Row[] = [];

for (const log2n of sizes) {
  const n = 2 ** log2n;
  const data = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i, 2654435761) >>> 0) % 2);
  const calls = log2n >= 20 ? Math.max(20, Math.floor(callsPerRun / 10)) : callsPerRun;
  for (const [mode, engine] of Object.entries(engines)) {
    const stream: Stream = engine.stream(data);
    const operations: Array<[string, () => void]> = [
      ['compaction (default: bitmask)', () => engine.compact(stream, { keep: 'nonzero' }).dispose()],
      ['scan (default)', () => engine.scan(stream).dispose()],
    ];
    for (const [operation, run] of operations) {
      for (let i = 0; i < 5; i++) run(); // first use, pool warm
      const shapes = shapesOf(engine, run);
      const raw = () => rawPasses(shapes, stream.texture);
      for (let i = 0; i < 5; i++) raw();
      const counted = countCalls(run);
      const rawCounted = countCalls(raw);
      // interleave three rounds of each, take the medians
      const ours: Array<{ submit: number; total: number }> = [];
      const floor: Array<{ submit: number; total: number }> = [];
      for (let round = 0; round < 3; round++) {
        ours.push(backToBack(run, calls));
        floor.push(backToBack(raw, calls));
      }
      const submitMs = median(ours.map((t) => t.submit));
      const perCallMs = median(ours.map((t) => t.total));
      const rawSubmitMs = median(floor.map((t) => t.submit));
      const rawPerCallMs = median(floor.map((t) => t.total));
      const singleCallMs = single(run, 15);
      const row = { log2n, operation, mode, passes: shapes.length, glCalls: counted.calls, blockingCalls: counted.blocking, submitMs, perCallMs, rawSubmitMs, rawPerCallMs, ratio: perCallMs / rawPerCallMs, singleCallMs, rawGlCalls: rawCounted.calls };
      rows.push(row);
      console.log(
        `2^${log2n} ${operation.padEnd(30)} ${mode.padEnd(11)} ${String(shapes.length).padStart(3)} passes ${String(counted.calls).padStart(4)} GL calls (${counted.blocking} blocking) ` +
          `per call ${perCallMs.toFixed(3)} ms (submit ${submitMs.toFixed(3)}) | raw GL ${rawPerCallMs.toFixed(3)} ms (submit ${rawSubmitMs.toFixed(3)}, ${rawCounted.calls} calls) | ×${row.ratio.toFixed(2)} | one call alone ${singleCallMs.toFixed(3)} ms`,
      );
    }
    stream.dispose();
  }
}

// Heap growth over many calls (retained, after GC where --expose-gc is given).
const heap: Record<string, number> = {};
if (heapCalls > 0) {
  const gc = (globalThis as { gc?: () => void }).gc;
  const engine = engines.preserve;
  const stream = engine.stream(Uint32Array.from({ length: 1024 }, (_, i) => i & 1));
  for (let i = 0; i < 100; i++) engine.compact(stream, { keep: 'nonzero' }).dispose();
  gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < heapCalls; i++) {
    engine.compact(stream, { keep: 'nonzero' }).dispose();
    if (i % 1000 === 999) gl.finish();
  }
  gc?.();
  const after = process.memoryUsage().heapUsed;
  heap.calls = heapCalls;
  heap.bytesPerCall = (after - before) / heapCalls;
  heap.growthKiB = (after - before) / 1024;
  heap.gc = gc ? 1 : 0;
  console.log(`heap: ${heapCalls} compactions of 2^10 + dispose: ${(heap.growthKiB).toFixed(1)} KiB retained (${heap.bytesPerCall.toFixed(1)} B per call; ${gc ? 'after GC' : 'no --expose-gc: includes garbage'})`);
  stream.dispose();
}

if (flags.json) {
  writeFileSync(flags.json, `${JSON.stringify({ renderer, date: new Date().toISOString(), rows, heap }, null, 1)}\n`);
  console.log(`wrote ${flags.json}`);
}
for (const engine of Object.values(engines)) engine.dispose();
