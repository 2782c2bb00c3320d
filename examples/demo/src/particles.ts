// "Particles": a pool of GPU particles compacted every frame by the engine; only the live ones are
// drawn, straight from the compacted texture. The rules (shared/particles-sim.ts) count whole
// frames, so the Playwright test can replay them on the CPU and compare the live count per frame.
//
// Per frame k >= 1, with no GPU->CPU readback (the live count never leaves the GPU):
//   1. simulate (our own fragment pass) into the pool stream's texture: texel p < live(k-1) is
//      particle p of last frame's compacted texture with one frame less of life; the next
//      min(emit, capacity - live) texels are new particles; the rest is dead (life 0). live(k-1) is
//      read in the shader from last frame's `result.stream.lengthTexture` (streamGlsl).
//   2. engine.compact(pool, { keep: { glsl: 'return value.w > 0.0;' } }) -> live particles first.
//   3. draw the stream's whole capacity as points; each fetches its particle from the compacted
//      texture, and the ones at index >= glcompactLength(lengthTexture) are moved outside clip space.
// Frame 0 compacts the initial pool (uploaded once with engine.stream). The count is read only to
// check the page (Pause, the end of ?frames=F, and after each frame with ?counts=1 for its test).
//
// The pool is a stream the engine made (engine.stream), and we render into its public texture
// (stream.texture), keeping its layout (stream.layout); the engine owns and frees it.
//
// Why compact and not engine.partition (which keeps the dead slots behind the live ones): this
// pool has no slots to keep. Nothing refers to a particle by its slot, so every frame the live
// particles move to the front (compact) and the simulate pass appends the new ones right behind
// them, at [live, live + emit), finding `live` on the GPU in the length texture: the free space is
// always the tail past the live count, and it needs no list. A partition would put the dead ones in
// that tail, where the next simulate pass overwrites them unread. A free-slot list pays off where
// particles must stay in their slots (other buffers index them, or their state is too big to move
// every frame): there `engine.partition(pool, { keep, output: 'indices' })` lists the free slots
// after the live ones, and a respawn pass has to scatter new particles into them (a point draw per
// new particle, since a fragment pass writes only its own texel). Also, a partition's kept count is
// read with `await result.count()` only (its stream's length, and so its lengthTexture, is the whole
// pool's), and this page reads no count in its render loop.
import { streamGlsl, type CompactResult, type Stream } from 'glcompact';
import { compileProgram } from './shared/gl-program.js';
import { element, engineOn, showError } from './shared/page.js';
import { defaultParticleParams, emittedId, initialLife, lifetime, LIFE_RANGE, MIN_LIFE, simulateParticles, type ParticleParams } from './shared/particles-sim.js';
import { countReadbacks } from './shared/readback-counter.js';
import { hash32, numberParam } from './shared/random.js';

type Algorithm = 'jumping-jack' | 'horn' | 'auto';

interface DemoState {
  frame: number;
  /** The last live count read (Pause, the end, or every frame with ?counts=1); undefined before. */
  liveCount: number | undefined;
  /** counts[k]: live particles after frame k, read after the frame was drawn (?counts=1 only). */
  counts: number[];
  /** readPixels/getBufferSubData calls while each frame was rendered (0: no readback in the loop). */
  readbacksPerFrame: number[];
  algorithm: Algorithm;
  params: ParticleParams;
  timing: { source: 'gpu-timer-query' | 'cpu'; ms: number | undefined };
  done: boolean;
  /**
   * Every frame's timing, for bench/particles-frames.mjs: GPU ms of the frame's whole GL work
   * (simulate + compact + draw) from the timer query (frames without a free query are missing), CPU ms
   * from the frame's start until its draw is submitted, and ms between consecutive frame starts.
   */
  frameLog: { gpuMs: number[]; stepMs: number[]; intervalMs: number[]; engineMs: number[] };
  /** At the end (?frames=F): the ids of the particles in the compacted texture, sorted, and whether all had life > 0. */
  final?: { liveIds: number[]; allAlive: boolean; liveCount: number; litPixels: number };
}

/** What the page exposes for its test (test/demo-pages.node.test.ts): window.demoState. */
const exposed = window as unknown as { demoState?: DemoState };

const params = new URLSearchParams(location.search);
const simParams: ParticleParams = {
  capacity: Math.max(1, Math.round(numberParam(params, 'n', defaultParticleParams.capacity))),
  emitPerFrame: Math.max(0, Math.round(numberParam(params, 'emit', defaultParticleParams.emitPerFrame))),
};
const stopAfter = numberParam(params, 'frames', Infinity);
/** ?counts=1 (the page's test): read each frame's count after the frame is drawn, to check them all. */
const recordCounts = params.get('counts') === '1';
const algorithmSelect = element<HTMLSelectElement>('algorithm');
if (['jumping-jack', 'horn', 'auto'].includes(params.get('algorithm') ?? '')) algorithmSelect.value = params.get('algorithm')!;

const canvas = element<HTMLCanvasElement>('view');
const { gl, engine } = engineOn(canvas, { antialias: false, alpha: false });
const readbacks = countReadbacks(gl);

// --- the particles' motion (cosmetic; the counts depend only on the integer life rules) ---

const motionGlsl = /* glsl */ `
uint hash32(uint x) {  // lowbias32, same as shared/random.ts
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x;
}
float unit(uint h) { return float(h & 0xFFFFu) / 65535.0; }
uint lifetime(uint id) { return ${MIN_LIFE}u + hash32(id) % ${LIFE_RANGE}u; }
// Three fountains; position after 'age' frames of a ballistic flight.
vec2 positionAt(uint id, float age) {
  uint h = hash32(id * 2u + 1u);
  float fountain = float(id % 3u) - 1.0;
  float angle = 1.5707963 + (unit(h) - 0.5) * 0.7 - fountain * 0.25;
  float speed = 0.02 + 0.012 * unit(h >> 16);
  vec2 start = vec2(fountain * 0.55, -0.92);
  return start + vec2(cos(angle), sin(angle)) * speed * age - vec2(0.0, 0.5 * 0.00034 * age * age);
}
`;

function positionAt(id: number, age: number): [number, number] {
  const h = hash32(Math.imul(id, 2) + 1);
  const unit = (x: number) => (x & 0xffff) / 65535;
  const fountain = (id % 3) - 1;
  const angle = Math.PI / 2 + (unit(h) - 0.5) * 0.7 - fountain * 0.25;
  const speed = 0.02 + 0.012 * unit(h >>> 16);
  return [fountain * 0.55 + Math.cos(angle) * speed * age, -0.92 + Math.sin(angle) * speed * age - 0.5 * 0.00034 * age * age];
}

const simulateFragment = /* glsl */ `#version 300 es
precision highp float;
precision highp int;
precision highp usampler2D;
${streamGlsl}
uniform highp usampler2D u_previous;        // last frame's compacted particles (x, y, id, life bits)
uniform highp usampler2D u_previousLength;  // ... and their number, on the GPU
uniform int u_poolWidthLog2;
uniform int u_capacity;
uniform int u_emitPerFrame;
uniform int u_firstNewId;
out uvec4 outValue;
${motionGlsl}
void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  int p = (texel.y << u_poolWidthLog2) | texel.x;
  int liveCount = int(glcompactLength(u_previousLength));
  int emitCount = min(u_emitPerFrame, u_capacity - liveCount);
  uint id;
  float life;
  if (p < liveCount) {
    uvec4 particle = glcompactElement(u_previous, uint(p));
    id = particle.z;
    life = uintBitsToFloat(particle.w) - 1.0;   // whole frames: exact in float32
  } else if (p < liveCount + emitCount) {
    id = uint(u_firstNewId + (p - liveCount));
    life = float(lifetime(id));
  } else {
    outValue = uvec4(0u);
    return;
  }
  vec2 position = positionAt(id, float(lifetime(id)) - life);
  outValue = uvec4(floatBitsToUint(position), id, floatBitsToUint(life));
}`;

const fullscreenVertex = /* glsl */ `#version 300 es
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}`;

const pointVertex = /* glsl */ `#version 300 es
precision highp float;
precision highp int;
precision highp usampler2D;
${streamGlsl}
uniform highp usampler2D u_particles;  // the compacted stream: live particles first
uniform highp usampler2D u_liveCount;  // its length texture: the count never comes to the CPU
uniform float u_pointSize;
out vec4 v_color;
${motionGlsl}
void main() {
  uint i = uint(gl_VertexID);
  if (i >= glcompactLength(u_liveCount)) {  // past the live ones: outside clip space, not drawn
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = 1.0;
    v_color = vec4(0.0);
    return;
  }
  uvec4 particle = glcompactElement(u_particles, i);
  vec2 position = uintBitsToFloat(particle.xy);
  float life = uintBitsToFloat(particle.w);
  float fraction = clamp(life / float(lifetime(particle.z)), 0.0, 1.0);
  vec3 hue = particle.z % 3u == 0u ? vec3(1.0, 0.45, 0.15) : particle.z % 3u == 1u ? vec3(0.3, 0.75, 1.0) : vec3(0.55, 1.0, 0.35);
  v_color = vec4(mix(vec3(1.0, 0.2, 0.1), hue, fraction), 0.25 + 0.6 * fraction);
  gl_Position = vec4(position.x * 0.5625, position.y, 0.0, 1.0);  // 16:9 canvas
  gl_PointSize = u_pointSize;
}`;

const pointFragment = /* glsl */ `#version 300 es
precision highp float;
in vec4 v_color;
out vec4 color;
void main() {
  vec2 d = gl_PointCoord - 0.5;
  float falloff = smoothstep(0.5, 0.1, length(d));
  color = vec4(v_color.rgb, v_color.a * falloff);
}`;


const simulateProgram = compileProgram(gl, fullscreenVertex, simulateFragment, 'particle');
const pointProgram = compileProgram(gl, pointVertex, pointFragment, 'particle');
const uniform = (program: WebGLProgram, name: string) => gl.getUniformLocation(program, name);
const emptyVertexArray = gl.createVertexArray();
const timer = gl.getExtension('EXT_disjoint_timer_query_webgl2');
const keep = { glsl: 'return value.w > 0.0;' };

// --- state ---

let pool: Stream;
let poolFramebuffer: WebGLFramebuffer;
let live: CompactResult | undefined;
let liveCount: number | undefined;
let frame = 0;
let counts: number[] = [];
let paused = false;
let done = false;
const pendingQueries: WebGLQuery[] = [];
const gpuTimes: number[] = [];
const cpuTimes: number[] = [];
const frameStamps: number[] = [];
const frameLog: DemoState['frameLog'] = { gpuMs: [], stepMs: [], intervalMs: [], engineMs: [] };
let lastStepStart: number | undefined;

function initialPool(): Float32Array {
  const data = new Float32Array(simParams.capacity * 4);
  const bits = new Uint32Array(data.buffer);
  for (let id = 0; id < simParams.capacity; id++) {
    const life = initialLife(id);
    const [x, y] = positionAt(id, lifetime(id) - life);
    data[4 * id] = x;
    data[4 * id + 1] = y;
    bits[4 * id + 2] = id;
    data[4 * id + 3] = life;
  }
  return data;
}

function reset(): void {
  live?.dispose();
  live = undefined;
  if (pool) pool.dispose();
  if (poolFramebuffer) gl.deleteFramebuffer(poolFramebuffer);
  pool = engine.stream(initialPool(), { components: 4 });
  poolFramebuffer = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, poolFramebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, pool.texture, 0);
  if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error('cannot render into the pool texture');
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  liveCount = undefined;
  frame = -1;
  counts = [];
  done = false;
  element('check').textContent = '';
}

/** Step 1: age the live particles and emit new ones into the pool texture (`frame` is the new frame). */
function simulate(previous: CompactResult, newFrame: number): void {
  gl.bindFramebuffer(gl.FRAMEBUFFER, poolFramebuffer);
  gl.viewport(0, 0, pool.layout.width, pool.layout.height);
  gl.useProgram(simulateProgram);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, previous.stream.texture);
  gl.uniform1i(uniform(simulateProgram, 'u_previous'), 0);
  gl.activeTexture(gl.TEXTURE1);
  gl.bindTexture(gl.TEXTURE_2D, previous.stream.lengthTexture);
  gl.uniform1i(uniform(simulateProgram, 'u_previousLength'), 1);
  gl.uniform1i(uniform(simulateProgram, 'u_poolWidthLog2'), pool.layout.widthLog2);
  gl.uniform1i(uniform(simulateProgram, 'u_capacity'), simParams.capacity);
  gl.uniform1i(uniform(simulateProgram, 'u_emitPerFrame'), simParams.emitPerFrame);
  gl.uniform1i(uniform(simulateProgram, 'u_firstNewId'), emittedId(simParams, newFrame, 0));
  gl.bindVertexArray(emptyVertexArray);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  gl.bindTexture(gl.TEXTURE_2D, null);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, null);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
}

/** Step 3: draw the compacted stream's capacity as points; the shader culls past the GPU's count. */
function draw(result: CompactResult): void {
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.viewport(0, 0, canvas.width, canvas.height);
  gl.clearColor(0.02, 0.027, 0.05, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.useProgram(pointProgram);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, result.stream.texture);
  gl.uniform1i(uniform(pointProgram, 'u_particles'), 0);
  gl.activeTexture(gl.TEXTURE1);
  gl.bindTexture(gl.TEXTURE_2D, result.stream.lengthTexture);
  gl.uniform1i(uniform(pointProgram, 'u_liveCount'), 1);
  gl.uniform1f(uniform(pointProgram, 'u_pointSize'), Math.max(2, canvas.width / 420));
  gl.enable(gl.BLEND);
  gl.blendFunc(gl.SRC_ALPHA, gl.ONE);
  gl.bindVertexArray(emptyVertexArray);
  gl.drawArrays(gl.POINTS, 0, result.stream.layout.capacity);
  gl.disable(gl.BLEND);
  gl.bindVertexArray(null);
  gl.bindTexture(gl.TEXTURE_2D, null);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, null);
}

function pollTimer(): void {
  if (!timer) return;
  while (pendingQueries.length > 0) {
    const query = pendingQueries[0];
    if (!gl.getQueryParameter(query, gl.QUERY_RESULT_AVAILABLE)) break;
    const disjoint = gl.getParameter(timer.GPU_DISJOINT_EXT);
    const ns = gl.getQueryParameter(query, gl.QUERY_RESULT) as number;
    if (!disjoint) {
      gpuTimes.push(ns / 1e6);
      frameLog.gpuMs.push(ns / 1e6);
    }
    gl.deleteQuery(query);
    pendingQueries.shift();
  }
  if (gpuTimes.length > 30) gpuTimes.splice(0, gpuTimes.length - 30);
}

const average = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined);

/** One frame: simulate, compact, draw. No readback: nothing here waits for the GPU. */
function step(): void {
  const algorithm = algorithmSelect.value as Algorithm;
  const started = performance.now();
  if (lastStepStart !== undefined) frameLog.intervalMs.push(started - lastStepStart);
  lastStepStart = started;
  const query = timer && pendingQueries.length < 4 ? gl.createQuery() : null;
  if (query) gl.beginQuery(timer!.TIME_ELAPSED_EXT, query);
  if (live) simulate(live, frame + 1);
  // Main-thread time of the engine's calls in this frame (README "Using glcompact in a graphics app").
  const engineStarted = performance.now();
  const next = engine.compact(pool, { keep, algorithm });
  let engineMs = performance.now() - engineStarted;
  draw(next);
  if (query) {
    gl.endQuery(timer!.TIME_ELAPSED_EXT);
    pendingQueries.push(query);
  }
  cpuTimes.push(performance.now() - started);
  frameLog.stepMs.push(performance.now() - started);
  if (cpuTimes.length > 30) cpuTimes.shift();
  const disposeStarted = performance.now();
  live?.dispose();
  engineMs += performance.now() - disposeStarted;
  frameLog.engineMs.push(engineMs);
  live = next;
  frame += 1;
  pollTimer();
}

function showStats(): void {
  element('live').textContent = liveCount === undefined ? 'on the GPU' : liveCount.toLocaleString('en-US');
  element('frame').textContent = String(frame);
  const gpu = average(gpuTimes);
  const cpu = average(cpuTimes);
  const usingGpu = timer !== null && gpu !== undefined;
  element('time').textContent = (usingGpu ? gpu : cpu)?.toFixed(2) ?? '–';
  element('time-label').textContent = usingGpu ? 'ms GPU per frame (simulate + compact + draw)' : 'ms CPU per frame (simulate + compact + draw, submitted)';
  element('timing-source').textContent = timer
    ? `GPU time from EXT_disjoint_timer_query_webgl2 (average of the last ${gpuTimes.length} frames); CPU time from the frame's start until its draw is submitted (nothing waits for the GPU): ${cpu?.toFixed(2) ?? '–'} ms.`
    : 'No EXT_disjoint_timer_query_webgl2 here: the time shown is CPU time (performance.now from the frame\'s start until its draw is submitted; nothing waits for the GPU).';
  const now = performance.now();
  frameStamps.push(now);
  while (frameStamps.length > 0 && frameStamps[0] < now - 1000) frameStamps.shift();
  element('fps').textContent = String(frameStamps.length);
  exposed.demoState = {
    frame,
    liveCount,
    counts: [...counts],
    readbacksPerFrame: [...readbacks.perFrame],
    algorithm: algorithmSelect.value as Algorithm,
    params: simParams,
    timing: { source: usingGpu ? 'gpu-timer-query' : 'cpu', ms: usingGpu ? gpu : cpu },
    frameLog,
    done,
    final: exposed.demoState?.final,
  };
}

/** Canvas pixels brighter than the background, right after a draw (before the browser presents it). */
function countLitPixels(): number {
  const pixels = new Uint8Array(canvas.width * canvas.height * 4);
  gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  let lit = 0;
  for (let k = 0; k < pixels.length; k += 4) if (pixels[k] + pixels[k + 1] + pixels[k + 2] > 60) lit++;
  return lit;
}

/** Compares what the GPU holds now with the CPU replay of the same frames (reads the stream back). */
async function checkAgainstCpu(litPixels = -1): Promise<DemoState['final']> {
  const values = (await live!.read()) as Float32Array;
  liveCount = await live!.count();
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const ids: number[] = [];
  let allAlive = true;
  for (let k = 0; k < liveCount; k++) {
    ids.push(bits[4 * k + 2]);
    if (!(values[4 * k + 3] > 0)) allAlive = false;
  }
  ids.sort((a, b) => a - b);
  const cpu = simulateParticles(simParams, frame);
  // Per-frame counts exist with ?counts=1 only; otherwise the last frame's count is checked.
  const countsMatch = recordCounts ? cpu.counts.join() === counts.join() : cpu.counts[frame] === liveCount;
  const idsMatch = cpu.liveIds.length === ids.length && ids.every((id, k) => id === cpu.liveIds[k]);
  const ok = countsMatch && idsMatch && allAlive;
  const check = element('check');
  check.className = ok ? 'ok' : 'bad';
  const countsChecked = recordCounts ? `live counts of all ${frame + 1} frames` : 'the live count';
  check.textContent = `${ok ? '✓' : '✗'} frame ${frame}: ${countsChecked} ${countsMatch ? (recordCounts ? 'match' : 'matches') : (recordCounts ? 'differ from' : 'differs from')} the CPU replay; ` +
    `the ${ids.length.toLocaleString('en-US')} particles in the compacted texture ${idsMatch ? 'are exactly' : 'are not'} the CPU's live ones` +
    `${allAlive ? ', all with life > 0' : ', and some have life <= 0'}.`;
  return { liveIds: ids, allAlive, liveCount, litPixels };
}

async function loop(): Promise<void> {
  try {
    if (!paused && !done) {
      readbacks.frame(step);
      // Before any await: the canvas is cleared once the browser has presented it.
      const litPixels = frame >= stopAfter ? countLitPixels() : -1;
      // The page's test only: the count, read after the frame was drawn (outside the frame).
      if (recordCounts) counts.push((liveCount = await live!.count()));
      if (frame >= stopAfter) {
        done = true;
        const final = await checkAgainstCpu(litPixels);
        showStats();
        exposed.demoState = { ...exposed.demoState!, final, done: true };
        return;
      }
      showStats();
    }
    requestAnimationFrame(() => void loop());
  } catch (error) {
    showError(error);
  }
}

element('pause').addEventListener('click', async () => {
  paused = !paused;
  element('pause').textContent = paused ? 'Resume' : 'Pause';
  if (paused && live) await checkAgainstCpu().catch(showError);
});
element('reset').addEventListener('click', () => {
  const wasDone = done;
  reset();
  element('check').className = 'muted';
  if (wasDone) requestAnimationFrame(() => void loop());
});

element('pool').textContent =
  `pool of ${simParams.capacity.toLocaleString('en-US')} particles (one stream of vec4), ` +
  `${simParams.emitPerFrame} emitted per frame, lifetimes ${MIN_LIFE}–${MIN_LIFE + LIFE_RANGE - 1} frames. ` +
  'The render loop never reads the live count back: the shaders read it from the compaction\'s length texture. ' +
  'Pause reads it, and compares the GPU state with a CPU replay of the same frames.';
element('renderer').textContent = `renderer: ${engine.caps.renderer}`;

try {
  reset();
  requestAnimationFrame(() => void loop());
} catch (error) {
  showError(error);
}
