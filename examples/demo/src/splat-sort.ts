// "Splat sort": 2^20 (1,048,576) small gaussian splats, alpha-blended back to front, sorted on the GPU
// every frame by their view depth. The page owns its WebGL2 context (raw GL, no three.js); the
// engine's calls set and restore what they use.
//
// Per frame (?sort=gpu, the default):
//   1. the page's key pass draws one fragment per point into `keys.texture` (an engine stream of n
//      uint32, or float32 with ?keys=float): the point's view depth, as a 16-bit key
//      floor((depth − lo) · scale) (default) or as the float32 depth itself (exact in both: see
//      shared/splat-scene.ts);
//   2. order = engine.argsort(keys, { descending: true, bits: 16 }) (16-bit keys: 4 radix digits of
//      4 bits; float keys: all 32 bits, 8 digits): the point indices, farthest first (the order
//      engine.sort would move an index stream into, without moving one or gathering the keys);
//   3. one draw of n gl.POINTS: the vertex shader fetches the point's index from
//      order.texture at gl_VertexID (streamGlsl's glcompactElement), then its position and
//      colour; the fragment shader fades a gaussian disc, premultiplied, blended ONE,
//      ONE_MINUS_SRC_ALPHA with no depth test: drawn back to front, each splat covers what is behind.
// Nothing is read back and nothing waits on the GPU (both counted per frame).
//
// ?sort=cpu: a Web Worker (splat-sort-worker.ts) holds the positions; each frame the page posts the
// camera if the worker is idle, the worker computes the same keys and sorts the indices (a counting
// sort on 16-bit keys, as splat viewers do) and posts them back; the page uploads the latest order it
// has (texSubImage2D into an R32UI texture of the same layout) and draws with it, so the order lags
// the camera by a frame or more, as in real viewers. ?sort=none draws the points in index order.
// *Compare* (or ?compare=1; ?compareFrames=N frames each, default 20) runs each mode in turn and
// fills the table. ?n= points (default 2^20), ?size= canvas size, ?frames=F stops after frame F,
// ?capture=1 (the page's test): after each frame, outside it, reads the pixels, the frame's keys and
// the order drawn; in cpu mode each frame then waits for the worker's order of its own camera.
import { createEngine, streamGlsl, type Stream } from 'glcompact';
import { compileProgram } from './shared/gl-program.js';
import { element, showError, webgl2 } from './shared/page.js';
import { numberParam } from './shared/random.js';
import { blockingQueries, countCalls, countReadbacks } from './shared/readback-counter.js';
import { BASE_RADIUS, DEFAULT_POINTS, makePoints, viewAt, type KeyKind, type SplatView } from './shared/splat-scene.js';
import type { WorkerReply, WorkerRequest } from './splat-sort-worker.js';

type Mode = 'gpu' | 'cpu' | 'none';
const modes: Mode[] = ['gpu', 'cpu', 'none'];
type Phase = 'keys' | 'sort' | 'draw';
const phases: Phase[] = ['keys', 'sort', 'draw'];

interface ModeTiming {
  frames: number;
  /** ms between the starts of consecutive frames of this mode. */
  frameMs: number | undefined;
  /** ms of main thread inside the frame. */
  mainThreadMs: number | undefined;
  /** GPU ms per phase (EXT_disjoint_timer_query_webgl2; cpu mode's "sort" is the order's upload). */
  gpuMs: Record<Phase, number | undefined>;
  /** cpu mode: the worker's ms per order (keys + sort), and how many frames old the order drawn was. */
  workerMs: number | undefined;
  orderAge: number | undefined;
}

interface DemoState {
  mode: Mode;
  keys: KeyKind;
  n: number;
  size: number;
  frame: number;
  done: boolean;
  readbacksPerFrame: number[];
  readbacksOutsideFrames: number;
  blockingPerFrame: number[];
  /** With ?capture=1: the frames captured (their data in window.splatCapture). */
  captured: number;
  timings: Record<Mode, ModeTiming>;
  compared: boolean;
  glError?: number;
  renderer: string;
}

/** ?capture=1, per frame (base64 of the raw bytes): the canvas (RGBA), the keys (n uint32 words), the order drawn (n indices). */
interface Capture {
  pixels: string[];
  keys: string[];
  order: string[];
}

const exposed = window as unknown as { demoState?: DemoState; splatCapture?: Capture };
const params = new URLSearchParams(location.search);
const requested = params.get('sort');
const startMode: Mode = requested === 'cpu' || requested === 'none' ? requested : 'gpu';
const keyKind: KeyKind = params.get('keys') === 'float' ? 'float' : 'u16';
const n = Math.max(16, Math.round(numberParam(params, 'n', DEFAULT_POINTS)));
const size = Math.max(64, Math.round(numberParam(params, 'size', 512)));
const stopAfter = numberParam(params, 'frames', Infinity);
const capture = params.get('capture') === '1';
const compareFrames = Math.max(3, Math.round(numberParam(params, 'compareFrames', 20)));
const radius = BASE_RADIUS * Math.sqrt(DEFAULT_POINTS / n);

const canvas = element<HTMLCanvasElement>('view');
canvas.width = size;
canvas.height = size;
// ?capture=1 keeps the drawing buffer, so that the test's pixel read can wait for the GPU first (a
// readPixels of a frame still being drawn would stall, and Chromium warns of it).
const gl = webgl2(canvas, { antialias: false, alpha: false, depth: false, stencil: false, preserveDrawingBuffer: capture, powerPreference: 'high-performance' });
const readbacks = countReadbacks(gl);
const blocking = countCalls(gl, blockingQueries);
const engine = createEngine(gl);

// --- the points and the streams ---

const pointWords = makePoints(n);
/** x, y, z (float32 bits) and RGBA8 colour per point: one RGBA32UI texel. */
const points = engine.stream(pointWords, { components: 4 });
/** Rewritten by the key pass every frame: 16-bit keys as uint32, or float32 view depths. */
const keys: Stream<Uint32Array> | Stream<Float32Array> = keyKind === 'float' ? engine.stream(new Float32Array(n)) : engine.stream(new Uint32Array(n));
/** 0..n−1: the order ?sort=none draws. */
const indices = engine.stream(Uint32Array.from({ length: n }, (_, i) => i));
const { width, height, widthLog2, capacity } = keys.layout;

// --- the key pass: the page's own program, into keys.texture ---

const fullscreenVertex = /* glsl */ `#version 300 es
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}`;

const keyProgram = compileProgram(gl, fullscreenVertex, /* glsl */ `#version 300 es
precision highp float;
precision highp int;
precision highp usampler2D;
${keyKind === 'float' ? '#define FLOAT_KEYS' : ''}
${streamGlsl}
uniform highp usampler2D points;
uniform int count;
uniform int widthLog2;
uniform vec3 eye;
uniform vec3 dir;     // integer components: the depth is exact (shared/splat-scene.ts)
uniform float lo;     // 16-bit keys: floor((depth - lo) * scale)
uniform float scale;
out uvec4 key;
void main() {
  uint i = (uint(gl_FragCoord.y) << uint(widthLog2)) | uint(gl_FragCoord.x);
  if (i >= uint(count)) { key = uvec4(0u); return; }  // padding: zeros
  vec3 rel = uintBitsToFloat(glcompactElement(points, i).xyz) - eye;
  float depth = rel.x * dir.x + rel.y * dir.y + rel.z * dir.z;
#ifdef FLOAT_KEYS
  key = uvec4(floatBitsToUint(depth), 0u, 0u, 0u);
#else
  key = uvec4(uint(clamp(floor((depth - lo) * scale), 0.0, 65535.0)), 0u, 0u, 0u);
#endif
}`, 'splat key pass');

const drawProgram = compileProgram(gl, /* glsl */ `#version 300 es
precision highp float;
precision highp int;
precision highp usampler2D;
${streamGlsl}
uniform highp usampler2D points;
uniform highp usampler2D order;   // the point drawn at position gl_VertexID: engine.argsort's order
uniform mat4 viewProj;
uniform float focal;              // pixels per world unit at view depth 1
uniform float radius;             // world units
out vec4 color;
uint hash(uint x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
void main() {
  uint i = glcompactElement(order, uint(gl_VertexID)).r;
  uvec4 point = glcompactElement(points, i);
  vec4 clip = viewProj * vec4(uintBitsToFloat(point.xyz), 1.0);
  float r = radius * (0.6 + 0.8 * float(hash(i) & 255u) / 255.0);
  gl_PointSize = clamp(2.0 * r * focal / clip.w, 1.0, 64.0);
  gl_Position = clip;
  vec4 rgba = vec4(uvec4(point.w, point.w >> 8, point.w >> 16, point.w >> 24) & 255u) / 255.0;
  color = vec4(rgba.rgb * rgba.a, rgba.a);  // premultiplied
}`, /* glsl */ `#version 300 es
precision highp float;
in vec4 color;
out vec4 fragColor;
void main() {
  vec2 d = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(d, d);
  if (r2 > 1.0) discard;
  fragColor = color * exp(-4.0 * r2);  // a gaussian disc, premultiplied
}`, 'splat draw');

// Uniform locations once, at start-up (each getUniformLocation is a query that waits for the GPU).
const locationsOf = (program: WebGLProgram, names: string[]) => Object.fromEntries(names.map((name) => [name, gl.getUniformLocation(program, name)])) as Record<string, WebGLUniformLocation | null>;
const keyUniforms = locationsOf(keyProgram, ['points', 'count', 'widthLog2', 'eye', 'dir', 'lo', 'scale']);
const drawUniforms = locationsOf(drawProgram, ['points', 'order', 'viewProj', 'focal', 'radius']);
const emptyVertexArray = gl.createVertexArray()!;
const keyFramebuffer = gl.createFramebuffer()!;
gl.bindFramebuffer(gl.FRAMEBUFFER, keyFramebuffer);
gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, keys.texture, 0);
if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error('cannot render into the keys stream');
gl.bindFramebuffer(gl.FRAMEBUFFER, null);

/** The CPU mode's order: an R32UI texture in the streams' layout, uploaded from the worker's indices. */
const cpuOrder = gl.createTexture()!;
gl.bindTexture(gl.TEXTURE_2D, cpuOrder);
gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32UI, width, height);
gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
const identity = new Uint32Array(capacity);
for (let i = 0; i < n; i++) identity[i] = i;
gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RED_INTEGER, gl.UNSIGNED_INT, identity); // until the worker's first order
gl.bindTexture(gl.TEXTURE_2D, null);

function writeKeys(view: SplatView): void {
  gl.bindFramebuffer(gl.FRAMEBUFFER, keyFramebuffer);
  gl.viewport(0, 0, width, height);
  gl.disable(gl.BLEND);
  gl.useProgram(keyProgram);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, points.texture);
  gl.uniform1i(keyUniforms.points, 0);
  gl.uniform1i(keyUniforms.count, n);
  gl.uniform1i(keyUniforms.widthLog2, widthLog2);
  gl.uniform3f(keyUniforms.eye, ...view.eye);
  gl.uniform3f(keyUniforms.dir, ...view.dir);
  gl.uniform1f(keyUniforms.lo, view.lo);
  gl.uniform1f(keyUniforms.scale, view.scale);
  gl.bindVertexArray(emptyVertexArray);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
}

function draw(view: SplatView, order: WebGLTexture): void {
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.viewport(0, 0, size, size);
  gl.clearColor(0.008, 0.01, 0.03, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  gl.enable(gl.BLEND);
  gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
  gl.useProgram(drawProgram);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, points.texture);
  gl.uniform1i(drawUniforms.points, 0);
  gl.activeTexture(gl.TEXTURE1);
  gl.bindTexture(gl.TEXTURE_2D, order);
  gl.uniform1i(drawUniforms.order, 1);
  gl.activeTexture(gl.TEXTURE0);
  gl.uniformMatrix4fv(drawUniforms.viewProj, false, view.viewProj);
  gl.uniform1f(drawUniforms.focal, view.focal);
  gl.uniform1f(drawUniforms.radius, radius);
  gl.bindVertexArray(emptyVertexArray);
  gl.drawArrays(gl.POINTS, 0, n);
  gl.disable(gl.BLEND);
}

// --- the CPU sort, in a worker ---

const worker = new Worker(new URL('./splat-sort-worker.ts', import.meta.url), { type: 'module' });
worker.addEventListener('error', (event) => showError(new Error(`sort worker: ${event.message}`)));
{
  const copy = pointWords.slice();
  const message: WorkerRequest = { type: 'points', points: copy, n, capacity, kind: keyKind };
  worker.postMessage(message, [copy.buffer]);
}
/** The frame whose camera the worker is sorting for (undefined: idle). */
let sorting: number | undefined;
/** The newest order the worker sent, and whether it is in the texture yet. */
let latest: { reply: WorkerReply; uploaded: boolean } | undefined;
/** The order on the texture (its camera's frame). */
let uploadedFrame: number | undefined;
/** A buffer the page is done with, handed back to the worker with the next request. */
let spare: Uint32Array | undefined;
let waitingFor: { frame: number; resolve: () => void } | undefined;

worker.addEventListener('message', (event: MessageEvent<WorkerReply>) => {
  const reply = event.data;
  sorting = undefined;
  if (latest && !latest.uploaded) spare = latest.reply.order; // never drawn: a newer one came
  latest = { reply, uploaded: false };
  push(samples.cpu.workerMs, reply.keyMs + reply.sortMs);
  if (waitingFor && waitingFor.frame === reply.frame) {
    waitingFor.resolve();
    waitingFor = undefined;
  }
});

function requestSort(view: SplatView): void {
  sorting = view.frame;
  const recycle = spare;
  spare = undefined;
  const message: WorkerRequest = { type: 'sort', frame: view.frame, view: { eye: view.eye, dir: view.dir, lo: view.lo, scale: view.scale }, withKeys: capture };
  if (recycle) message.recycle = recycle;
  worker.postMessage(message, recycle ? [recycle.buffer] : []);
}

/** Capture mode: the worker's order for this very frame, before the frame is drawn. */
async function orderFor(view: SplatView): Promise<void> {
  if (latest?.reply.frame === view.frame) return;
  while (sorting !== undefined) await new Promise((resolve) => setTimeout(resolve, 1));
  await new Promise<void>((resolve) => {
    waitingFor = { frame: view.frame, resolve };
    requestSort(view);
  });
}

// --- GPU time per phase, where the context has a timer query (Chromium here) ---

const timer = gl.getExtension('EXT_disjoint_timer_query_webgl2');
const pendingFrames: { mode: Mode; queries: Partial<Record<Phase, WebGLQuery>> }[] = [];
let frameQueries: Partial<Record<Phase, WebGLQuery>> | undefined;

function timed<T>(phase: Phase, submit: () => T): T {
  if (!frameQueries) return submit();
  const query = gl.createQuery()!;
  gl.beginQuery(timer!.TIME_ELAPSED_EXT, query);
  try {
    return submit();
  } finally {
    gl.endQuery(timer!.TIME_ELAPSED_EXT);
    frameQueries[phase] = query;
  }
}

function pollTimers(): void {
  while (pendingFrames.length > 0) {
    const { mode: frameMode, queries } = pendingFrames[0];
    const list = Object.values(queries);
    if (!list.every((query) => gl.getQueryParameter(query, gl.QUERY_RESULT_AVAILABLE))) break;
    const disjoint = gl.getParameter(timer!.GPU_DISJOINT_EXT) as boolean;
    for (const phase of phases) {
      const query = queries[phase];
      if (!query) continue;
      if (!disjoint) push(samples[frameMode].gpuMs[phase], (gl.getQueryParameter(query, gl.QUERY_RESULT) as number) / 1e6);
      gl.deleteQuery(query);
    }
    pendingFrames.shift();
  }
}

// --- one frame per mode ---

/** The last GPU frame's order (drawn this frame, freed after the next one is drawn). */
let drawnOrder: Stream<Uint32Array> | undefined;

function gpuFrame(view: SplatView): void {
  timed('keys', () => writeKeys(view));
  const order = timed('sort', () => engine.argsort(keys, keyKind === 'float' ? { descending: true } : { descending: true, bits: 16 }));
  timed('draw', () => draw(view, order.texture));
  drawnOrder?.dispose();
  drawnOrder = order;
}

function cpuFrame(view: SplatView): void {
  if (latest && !latest.uploaded) {
    const { order, frame } = latest.reply;
    timed('sort', () => {
      gl.bindTexture(gl.TEXTURE_2D, cpuOrder);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RED_INTEGER, gl.UNSIGNED_INT, order);
      gl.bindTexture(gl.TEXTURE_2D, null);
    });
    latest.uploaded = true;
    uploadedFrame = frame;
    if (!capture) spare = order; // copied by the upload: the worker may write it again
  }
  timed('draw', () => draw(view, cpuOrder));
  if (uploadedFrame !== undefined) push(samples.cpu.orderAge, view.frame - uploadedFrame);
  if (sorting === undefined && !capture) requestSort(view); // drawn with the next frames, when it comes
}

function noneFrame(view: SplatView): void {
  timed('draw', () => draw(view, indices.texture));
}

const frameOf: Record<Mode, (view: SplatView) => void> = { gpu: gpuFrame, cpu: cpuFrame, none: noneFrame };

// --- timing, per mode ---

const samples = Object.fromEntries(modes.map((m) => [m, { frameMs: [] as number[], mainThreadMs: [] as number[], gpuMs: { keys: [], sort: [], draw: [] } as Record<Phase, number[]>, workerMs: [] as number[], orderAge: [] as number[] }]));
const WINDOW = 60;
let lastFrameStart: { mode: Mode; at: number } | undefined;

function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1];
}

function timings(): Record<Mode, ModeTiming> {
  const out = {} as Record<Mode, ModeTiming>;
  for (const m of modes) {
    const gpuMs = Object.fromEntries(phases.map((phase) => [phase, median(samples[m].gpuMs[phase])])) as Record<Phase, number | undefined>;
    out[m] = {
      frames: samples[m].mainThreadMs.length, frameMs: median(samples[m].frameMs), mainThreadMs: median(samples[m].mainThreadMs), gpuMs,
      workerMs: median(samples[m].workerMs), orderAge: median(samples[m].orderAge),
    };
  }
  return out;
}

function push(list: number[], value: number): void {
  list.push(value);
  if (list.length > WINDOW) list.shift();
}

// --- the loop ---

let mode: Mode = startMode;
let frame = 0;
let paused = false;
let done = false;
let comparison: { queue: Mode[]; left: number; then: Mode } | undefined;
let compared = false;
const captured: Capture = { pixels: [], keys: [], order: [] };
exposed.splatCapture = captured;

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let k = 0; k < bytes.length; k += 0x8000) text += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return btoa(text);
}
const bytesOf = (words: Uint32Array | Float32Array) => new Uint8Array(words.buffer, words.byteOffset, words.byteLength);

const format = (ms: number | undefined) => (ms === undefined ? '–' : ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

function show(): void {
  element('frame').textContent = String(frame);
  element('current-mode').textContent = mode;
  element('frame-ms').textContent = format(median(samples[mode].frameMs));
  element('main-ms').textContent = format(median(samples[mode].mainThreadMs));
  element('readbacks').textContent = String(readbacks.perFrame.at(-1) ?? '–');
  element('blocking').textContent = String(blocking.perFrame.at(-1) ?? '–');
  const table = timings();
  for (const m of modes) {
    const cells = element(`timing-${m}`).querySelectorAll('td');
    cells[1].textContent = String(table[m].frames);
    cells[2].textContent = format(table[m].frameMs);
    cells[3].textContent = format(table[m].mainThreadMs);
    cells[4].textContent = timer ? phases.map((phase) => format(table[m].gpuMs[phase])).join(' / ') : 'no timer query';
    cells[5].textContent = m === 'cpu' ? `${format(table[m].workerMs)} ms, ${table[m].orderAge ?? '–'}` : '–';
    element(`timing-${m}`).classList.toggle('current', m === mode);
  }
  exposed.demoState = {
    mode, keys: keyKind, n, size, frame, done, readbacksPerFrame: [...readbacks.perFrame], readbacksOutsideFrames: readbacks.outside,
    blockingPerFrame: [...blocking.perFrame], captured: captured.pixels.length, timings: table, compared, glError: exposed.demoState?.glError, renderer: engine.caps.renderer,
  };
}

function setMode(next: Mode): void {
  mode = next;
  lastFrameStart = undefined;
  for (const m of modes) element(`mode-${m}`).classList.toggle('primary', m === mode);
  element('mode-text').textContent = {
    gpu: `GPU sort: the page's key pass writes each point's depth key into a stream, engine.argsort(keys, { descending: true${keyKind === 'u16' ? ', bits: 16' : ''} }) gives the point indices in that order, and the draw fetches each point through them. No readback, no wait.`,
    cpu: 'CPU sort (?sort=cpu): a Web Worker computes the same keys and sorts the indices (counting sort); the page uploads the newest order it has and draws with it, a frame or more behind the camera.',
    none: 'No sort (?sort=none): the points are drawn in index order; the blending is wrong wherever a near splat is drawn before a far one.',
  }[mode];
}

async function loop(): Promise<void> {
  try {
    if (!paused && !done) {
      const view = viewAt(frame, size);
      if (capture && mode === 'cpu') await orderFor(view); // the test compares this frame's order, so it waits (outside the frame)
      const started = performance.now();
      if (lastFrameStart?.mode === mode) push(samples[mode].frameMs, started - lastFrameStart.at);
      lastFrameStart = { mode, at: started };
      frameQueries = timer && pendingFrames.length < 4 ? {} : undefined;
      readbacks.frame(() => blocking.frame(() => frameOf[mode](view)));
      if (frameQueries) pendingFrames.push({ mode, queries: frameQueries });
      frameQueries = undefined;
      pollTimers();
      push(samples[mode].mainThreadMs, performance.now() - started);
      if (capture) {
        // The test's reads, after the frame was drawn (outside it): the keys and the order drawn, then the
        // pixels (the drawing buffer is preserved in capture mode, and by then the GPU has finished the frame).
        if (mode === 'gpu') {
          captured.keys.push(base64(bytesOf(await keys.read())));
          captured.order.push(base64(bytesOf(await drawnOrder!.read())));
        } else if (mode === 'cpu') {
          captured.keys.push(base64(bytesOf(latest!.reply.keys!)));
          captured.order.push(base64(bytesOf(latest!.reply.order.subarray(0, n))));
        } else {
          captured.keys.push('');
          captured.order.push(base64(bytesOf(identity.subarray(0, n))));
        }
        await engine.finish();
        const rgba = new Uint8Array(size * size * 4);
        gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
        captured.pixels.push(base64(rgba));
      }
      if (comparison && --comparison.left === 0) {
        const next = comparison.queue.shift();
        if (next) {
          comparison.left = compareFrames;
          setMode(next);
        } else {
          setMode(comparison.then);
          comparison = undefined;
          compared = true;
          element('compare').removeAttribute('disabled');
        }
      }
      if (frame >= stopAfter) {
        done = true;
        if (capture) exposed.demoState = { ...exposed.demoState!, glError: gl.getError() };
      } else {
        frame += 1;
      }
      show();
      if (done) return;
    }
    requestAnimationFrame(() => void loop());
  } catch (error) {
    showError(error);
  }
}

function compare(): void {
  for (const m of modes) {
    samples[m].frameMs.length = 0;
    samples[m].mainThreadMs.length = 0;
    samples[m].workerMs.length = 0;
    samples[m].orderAge.length = 0;
    for (const phase of phases) samples[m].gpuMs[phase].length = 0;
  }
  element('compare').setAttribute('disabled', '');
  comparison = { queue: modes.slice(1), left: compareFrames, then: mode };
  setMode(modes[0]);
}

element('pause').addEventListener('click', () => {
  paused = !paused;
  element('pause').textContent = paused ? 'Resume' : 'Pause';
});
for (const m of modes) element(`mode-${m}`).addEventListener('click', () => setMode(m));
element('compare').addEventListener('click', compare);
element('renderer').textContent = `renderer: ${engine.caps.renderer}`;
element('points').textContent = n.toLocaleString('en-US');
element('key-kind').textContent = keyKind === 'u16' ? '16-bit keys (4 radix digits)' : 'float32 depths (8 radix digits)';

setMode(startMode);
if (params.get('compare') === '1') compare();
requestAnimationFrame(() => void loop());
