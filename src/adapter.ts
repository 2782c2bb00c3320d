// Platform workarounds, all in one place. Each names the quirk it works around; the capability
// probe (capabilities.ts) decides at start-up which path this context takes, by running it, and
// test/adapter.node.test.ts shows each quirk on the renderer that has it.
import { bufferSlot } from './context-state.js';
import floatBitsToUint from '../glsl/float-bits-to-uint.frag';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';

/*
 * Quirk: uint uniforms. headless-gl 9.0.0-rc.10's JS wrapper has no uniform1ui..uniform4ui, so the
 * call reaches the native binding with the WebGLUniformLocation object, which it converts to
 * location 0: the value lands in whichever uniform has location 0. Every shader of the engine
 * therefore declares its integer uniforms as `int` and converts with uint() where it needs to
 * (test/adapter.node.test.ts shows the quirk).
 */

/*
 * Quirk: readPixels' dstOffset. headless-gl 9.0.0-rc.10's readPixels takes seven arguments and
 * drops WebGL2's eighth (dstOffset): the pixels land at the start of the array. Reads that land at
 * an offset (the rest of a partial last row, readRegion) pass a subarray instead, which every
 * context takes (test/adapter.node.test.ts shows the quirk).
 */

/**
 * How 32-bit data gets into an R32UI/RGBA32UI texture.
 * - 'integer': texSubImage2D with RED_INTEGER/RGBA_INTEGER, the normal WebGL2 way.
 * - 'float-bits': headless-gl 9.0.0-rc.10 rejects integer uploads (INVALID_VALUE from
 *   texSubImage2D, zeros from texImage2D), while float uploads work; so upload the same 32-bit
 *   patterns as R32F/RGBA32F and reinterpret them with floatBitsToUint in one pass. The probe checks
 *   that NaN payloads, -0 and denormals survive before this path is taken.
 */
export type UploadPath = 'integer' | 'float-bits';

export function uploadBits(gpu: Gpu, path: UploadPath, target: RenderTarget, bits: Uint32Array): void {
  const gl = gpu.gl;
  const { format } = target;
  if (bits.length !== target.width * target.height * format.components) {
    throw new Error(`internal: upload of ${bits.length} words into ${target.width}×${target.height}×${format.components}`);
  }
  const unit = gpu.state.activeUnit;
  if (path === 'integer') {
    // Unpack state (alignment 4, no row length, no flip, no premultiply, no unpack buffer) is set by
    // the guard every public call runs in (gl-state.ts).
    gpu.state.bindTextureIf(unit, target.texture);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, target.width, target.height, format.uploadFormat, gl.UNSIGNED_INT, bits);
    return;
  }
  // Raw GL, not twgl: twgl's texture setup queries and sets WebGL-only unpack parameters (blocking
  // queries in a browser; INVALID_ENUM on headless-gl), and this needs none of them.
  const staging = gl.createTexture();
  if (!staging) throw new Error('could not create a texture (is the context lost?)');
  gpu.tracker.created('textures');
  gpu.scope((scope) => {
    scope.release('textures', staging);
    gpu.state.bindTextureIf(unit, staging);
    // A float texture with LINEAR filtering is incomplete without OES_texture_float_linear, and
    // texelFetch on it returns 0: a silent wrong answer. NEAREST for both filters.
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texImage2D(gl.TEXTURE_2D, 0, format.floatInternalFormat, target.width, target.height, 0, format.floatUploadFormat, gl.FLOAT, new Float32Array(bits.buffer, bits.byteOffset, bits.length));
    gpu.pass(gpu.program({ name: 'float-bits-to-uint.frag', fragment: floatBitsToUint }), target, { u_floatBits: staging });
  });
}

/**
 * Uploads whole rows of a one-component target from `firstRow` on ('integer' upload path only: the
 * 'float-bits' path uploads whole targets through a pass). The state contract's guard must be running.
 */
export function uploadRows(gpu: Gpu, target: RenderTarget, firstRow: number, bits: Uint32Array): void {
  const gl = gpu.gl;
  const { format, width } = target;
  const rows = bits.length / width;
  if (format.components !== 1 || !Number.isInteger(rows) || firstRow + rows > target.height) {
    throw new Error(`internal: upload of ${bits.length} words into rows ${firstRow}.. of ${width}×${target.height}×${format.components}`);
  }
  gpu.state.bindTextureIf(gpu.state.activeUnit, target.texture);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, firstRow, width, rows, format.uploadFormat, gl.UNSIGNED_INT, bits);
}

/**
 * Reads the first `words` 32-bit words of `target` into `out` (exactly `words` long), by default a
 * new Uint32Array, which owns its whole buffer (callers reinterpret `.buffer` as float32/int32),
 * else the caller's array (stream.read(into)), returned. Word order:
 * row-major, all four words of each texel of an RGBA32UI target (four packed elements, or one vec4
 * element, readback.ts); the red word of each texel of an R32UI target (only reads of a few texels
 * take that form, which moves 16 bytes per word: readback.ts packs the rest).
 * RGBA_INTEGER/UNSIGNED_INT is the one integer read format every WebGL2 context must accept.
 * Quirk: headless-gl 9.0.0-rc.10 returns the right data but also raises INVALID_ENUM; when the
 * probe saw that (`drainReadError`), the error is cleared so it cannot surface in a later check.
 */
export function readBits(gpu: Gpu, target: RenderTarget, words: number, drainReadError: boolean, out: Uint32Array = new Uint32Array(words)): Uint32Array {
  const gl = gpu.gl;
  if (out.length !== words) throw new Error(`internal: read of ${words} words into ${out.length}`);
  if (words === 0) return out;
  // The guard resets PACK_ROW_LENGTH/PACK_SKIP_* (an app's values corrupt headless-gl's heap here)
  // and puts the app's framebuffer back.
  gpu.guard.run(() => {
    gpu.state.bindFramebufferIf(target.framebuffer);
    if (target.format.components === 1) {
      const rgba = new Uint32Array(words * 4);
      for (const region of readRegions(target.width, words * 4)) readRegion(gl, region, rgba);
      redWords(rgba, out);
    } else {
      for (const region of readRegions(target.width, words)) readRegion(gl, region, out);
    }
    if (drainReadError) gl.getError();
  });
  return out;
}

/**
 * One readPixels call of a read: `height` rows of `texels` texels from row `y` (whole rows when
 * height > 1), landing at word `offset` of the destination, of which the first `words` are wanted:
 * all of them but for the last texel of a packed stream whose length is not a multiple of 4.
 */
interface ReadRegion {
  y: number;
  texels: number;
  height: number;
  offset: number;
  words: number;
}

/**
 * The readPixels calls that read the first `words` words of an RGBA32UI target `width` texels wide:
 * the whole rows in one call, then the part of the next row that holds the rest. A stream's length
 * is rarely a multiple of its width (a compaction's output is one only by chance): reading whole
 * rows would move padding and then cost a copy of everything to cut it off (that copy, into fresh
 * memory, cost as much as the read itself: bench/read-probe.ts).
 */
export function readRegions(width: number, words: number): ReadRegion[] {
  const rowWords = width * 4;
  const rows = Math.floor(words / rowWords);
  const regions: ReadRegion[] = [];
  if (rows > 0) regions.push({ y: 0, texels: width, height: rows, offset: 0, words: rows * rowWords });
  const rest = words - rows * rowWords;
  if (rest > 0) regions.push({ y: rows, texels: Math.ceil(rest / 4), height: 1, offset: rows * rowWords, words: rest });
  return regions;
}

/**
 * readPixels of one region into `out` at its offset. readPixels writes every word of the texels it
 * reads, and headless-gl does not check the array's size (it hands GL the pointer): a last texel
 * only partly wanted goes through a four-word scratch array, never past the end of `out`.
 */
function readRegion(gl: WebGL2RenderingContext, { y, texels, height, offset, words }: ReadRegion, out: Uint32Array): void {
  const partial = words % 4;
  const whole = words - partial; // words of texels wanted whole
  if (whole > 0) {
    // A subarray, not readPixels' dstOffset argument: headless-gl drops that argument (quirk above).
    const dst = out.subarray(offset, offset + whole);
    gl.readPixels(0, y, height > 1 ? texels : whole / 4, height, gl.RGBA_INTEGER, gl.UNSIGNED_INT, dst);
  }
  if (partial > 0) {
    const last = new Uint32Array(4);
    gl.readPixels(whole / 4, y, 1, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, last);
    out.set(last.subarray(0, partial), offset + whole);
  }
}

/** The red word of each RGBA texel (reads of a few R32UI texels: length textures, tiny streams). */
function redWords(rgba: Uint32Array, out: Uint32Array): void {
  for (let i = 0; i < out.length; i++) out[i] = rgba[i * 4];
}

/*
 * Quirk: nested timers are clamped to 4 ms. HTML clamps setTimeout to at least 4 ms once timers nest
 * more than 5 deep (a timer set while a timer's task runs, promise continuations included), so a poll
 * loop awaiting setTimeout(0) polled every ~4 ms from its sixth poll on: on this host 20 such waits
 * took 58-59 ms in Chromium, 76-87 in Firefox ESR, 51-65 in WebKitGTK. A fence that signals 2.5 ms
 * after its submit was seen 4.7-5.4 ms after it in Chromium + SwiftShader (the time of a tiny scan's
 * `await engine.finish()`), and every read, fence-timed tune sample and timer query waited up to 4 ms
 * more than its GPU work took. A message to ourselves is a task of its own at nesting level 0, so a
 * timer set from it is not clamped (test/poll-timer-clamp.test.ts shows both).
 */

/** Resolvers of the messages in flight on the poll channel, oldest first (one channel, made on first use). */
let pollChannel: { port: MessagePort; waiting: Array<() => void>; keepAlive(on: boolean): void } | undefined;

/** A task boundary that is not a timer: a message posted to ourselves. */
function messageTask(): Promise<void> {
  if (!pollChannel) {
    const channel = new MessageChannel();
    const waiting: Array<() => void> = [];
    // In Node a port keeps the process alive while it is ref'd: only while a message is in flight
    // (unref'd with one in flight, a process with nothing else to do exits before it arrives; idle
    // and ref'd, it never exits). Browsers have neither method.
    const port1 = channel.port1 as MessagePort & { ref?: () => void; unref?: () => void };
    const keepAlive = (on: boolean) => (on ? port1.ref?.() : port1.unref?.());
    port1.onmessage = () => {
      waiting.shift()?.();
      if (waiting.length === 0) keepAlive(false);
    };
    keepAlive(false);
    pollChannel = { port: channel.port2, waiting, keepAlive };
  }
  const { port, waiting, keepAlive } = pollChannel;
  return new Promise((resolve) => {
    port.postMessage(undefined);
    // After the post: had it thrown, a resolver left behind would take the next wait's message.
    waiting.push(resolve);
    keepAlive(true);
  });
}

/**
 * The first polls of a wait come a task apart (a fence often signals within a task or two): each
 * after the message of the one before, with no timer.
 */
const PROMPT_POLLS = 4;

/**
 * Waits between polls of the GPU (a fence, a timer query, a link's completion): `attempt` is the
 * number of polls made so far in this wait. The first PROMPT_POLLS waits end in the next task, later
 * ones after about 1 ms (not a busy loop); never the 4 ms a nested timer is clamped to (the quirk
 * above). Where there is no MessageChannel, a timer.
 */
export async function betweenPolls(attempt: number): Promise<void> {
  if (attempt < PROMPT_POLLS) {
    if (typeof MessageChannel === 'undefined') await new Promise((resolve) => setTimeout(resolve, 0));
    else await messageTask();
    return;
  }
  await unclampedDelay(1);
}

/**
 * About `ms` milliseconds, set from a message task so that a nested timer's 4 ms clamp (the quirk
 * above) does not apply: for waits on the GPU shorter than the clamp (warmUp's pause for links on
 * other threads). Where there is no MessageChannel, a timer.
 */
export async function unclampedDelay(ms: number): Promise<void> {
  if (typeof MessageChannel !== 'undefined') await messageTask();
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Asynchronous form of readBits where the context supports it (the probe's `asyncReadback`): the
 * pixels go into a pixel-pack buffer, a fence follows, and the main thread polls the fence between
 * tasks instead of blocking in readPixels; getBufferSubData then copies exactly the wanted words.
 * headless-gl keeps the synchronous path. Rejects if the context is lost while waiting.
 */
export async function readBitsAsync(gpu: Gpu, target: RenderTarget, words: number, drainReadError: boolean, out: Uint32Array = new Uint32Array(words)): Promise<Uint32Array> {
  const gl = gpu.gl;
  if (out.length !== words) throw new Error(`internal: read of ${words} words into ${out.length}`);
  if (words === 0) return out;
  const unpacked = target.format.components === 1;
  // Words as RGBA texels hold them: four per R32UI texel (the red one wanted).
  const rgbaWords = unpacked ? words * 4 : words;
  const regions = readRegions(target.width, rgbaWords);
  const buffer = gpu.create('buffers');
  let sync: WebGLSync | null = null;
  try {
    // Each synchronous part runs inside the guard: the app may draw between them.
    gpu.guard.run(() => {
      gpu.state.setIf(PIXEL_PACK_BUFFER, buffer);
      // Whole texels: the buffer may hold up to 3 words past the wanted ones, never read back.
      gl.bufferData(gl.PIXEL_PACK_BUFFER, Math.ceil(rgbaWords / 4) * 16, gl.STREAM_READ);
      gpu.state.bindFramebufferIf(target.framebuffer);
      for (const { y, texels, height, offset } of regions) {
        gl.readPixels(0, y, texels, height, gl.RGBA_INTEGER, gl.UNSIGNED_INT, offset * 4);
      }
      if (drainReadError) gl.getError();
      gpu.state.setIf(PIXEL_PACK_BUFFER, null);
    });
    sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    gpu.tracker.created('syncs');
    gl.flush();
    for (let attempt = 0; ; attempt++) {
      if (gl.isContextLost()) throw new Error('WebGL context lost while reading back from the GPU; create a new engine once the context is restored');
      const status = gl.clientWaitSync(sync!, 0, 0);
      if (status === gl.ALREADY_SIGNALED || status === gl.CONDITION_SATISFIED) break;
      if (status !== gl.TIMEOUT_EXPIRED) throw new Error(`readback fence failed (clientWaitSync returned ${status})`);
      await betweenPolls(attempt);
    }
    const rgba = unpacked ? new Uint32Array(rgbaWords) : out;
    gpu.guard.run(() => {
      gpu.state.setIf(PIXEL_PACK_BUFFER, buffer);
      gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, rgba, 0, rgbaWords);
      gpu.state.setIf(PIXEL_PACK_BUFFER, null);
    });
    if (unpacked) redWords(rgba, out);
  } finally {
    if (sync) gpu.release('syncs', sync);
    gpu.release('buffers', buffer);
  }
  return out;
}

/** The shadow's slot of the PIXEL_PACK_BUFFER binding (context-state.ts trackedBuffers[0]). */
const PIXEL_PACK_BUFFER = bufferSlot(0);

/** Clears any pending GL errors (used by probes, which provoke them on purpose). */
export function clearErrors(gl: WebGL2RenderingContext): number[] {
  const seen: number[] = [];
  for (let i = 0; i < 16; i++) {
    const error = gl.getError();
    if (error === gl.NO_ERROR) break;
    seen.push(error);
  }
  return seen;
}
