// Platform workarounds, all in one place. Each names the quirk it works around; the capability
// probe (capabilities.ts) decides at start-up which path this context takes, by running it, and
// test/adapter.node.test.ts shows each quirk on the renderer that has it.
import * as twgl from 'twgl.js';
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
  if (path === 'integer') {
    // Unpack state (alignment 4, no row length, no flip, no premultiply, no unpack buffer) is set by
    // the guard every public call runs in (gl-state.ts).
    gl.bindTexture(gl.TEXTURE_2D, target.texture);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, target.width, target.height, format.uploadFormat, gl.UNSIGNED_INT, bits);
    gl.bindTexture(gl.TEXTURE_2D, null);
    return;
  }
  const staging = twgl.createTexture(gl, {
    width: target.width,
    height: target.height,
    internalFormat: format.floatInternalFormat,
    format: format.floatUploadFormat,
    type: gl.FLOAT,
    src: new Float32Array(bits.buffer, bits.byteOffset, bits.length),
    // A float texture with LINEAR filtering is incomplete without OES_texture_float_linear, and
    // texelFetch on it returns 0: a silent wrong answer. NEAREST for both filters.
    minMag: gl.NEAREST,
    auto: false,
    // twgl sets UNPACK_ALIGNMENT to this for the upload and leaves it there (1 if not given): the
    // guard (gl-state.ts) trusts the engine to leave the 4 it set, so an app's default 4 would be
    // left at 1. Rows here are whole 32-bit words, so 4 is right for the data too.
    unpackAlignment: 4,
  });
  // headless-gl raises INVALID_ENUM for twgl's WebGL-only unpack settings (colorspace conversion,
  // premultiply) while storing the data correctly; clear it so it cannot surface later.
  clearErrors(gl);
  gpu.tracker.created('textures');
  gpu.scope((scope) => {
    scope.release('textures', staging);
    gpu.pass(gpu.program({ name: 'float-bits-to-uint.frag', fragment: floatBitsToUint }), target, { u_floatBits: staging });
  });
}

/**
 * Reads the first `texels` texels (row-major) as 32-bit words, `target.format.components` per texel.
 * RGBA_INTEGER/UNSIGNED_INT is the one integer read format every WebGL2 context must accept.
 * Quirk: headless-gl 9.0.0-rc.10 returns the right data but also raises INVALID_ENUM; when the
 * probe saw that (`drainReadError`), the error is cleared so it cannot surface in a later check.
 */
export function readBits(gpu: Gpu, target: RenderTarget, texels: number, drainReadError: boolean): Uint32Array {
  const gl = gpu.gl;
  const rgba = readBuffer(target, texels);
  if (texels === 0) return texelWords(rgba, target, 0);
  // The guard resets PACK_ROW_LENGTH/PACK_SKIP_* (an app's values corrupt headless-gl's heap here)
  // and puts the app's framebuffer back.
  gpu.guard.run(() => {
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.readPixels(0, 0, target.width, rgba.length / 4 / target.width, gl.RGBA_INTEGER, gl.UNSIGNED_INT, rgba);
    if (drainReadError) gl.getError();
  });
  return texelWords(rgba, target, texels);
}

/** Room for the whole rows that hold the first `texels` texels, RGBA words each. */
function readBuffer(target: RenderTarget, texels: number): Uint32Array {
  return new Uint32Array(target.width * Math.ceil(texels / target.width) * 4);
}

/** The first `texels` texels' words: all four for RGBA targets, the red one for R32UI. */
function texelWords(rgba: Uint32Array, target: RenderTarget, texels: number): Uint32Array {
  if (target.format.components === 4) return rgba.subarray(0, texels * 4); // a view: no copy
  const out = new Uint32Array(texels);
  for (let i = 0; i < texels; i++) out[i] = rgba[i * 4];
  return out;
}

/**
 * Asynchronous form of readBits where the context supports it (the probe's `asyncReadback`): the
 * pixels go into a pixel-pack buffer, a fence follows, and the main thread polls the fence between
 * tasks instead of blocking in readPixels. headless-gl keeps the synchronous path. Rejects if the
 * context is lost while waiting.
 */
export async function readBitsAsync(gpu: Gpu, target: RenderTarget, texels: number, drainReadError: boolean): Promise<Uint32Array> {
  const gl = gpu.gl;
  const rgba = readBuffer(target, texels);
  if (texels === 0) return texelWords(rgba, target, 0);
  const rows = rgba.length / 4 / target.width;
  const buffer = gpu.create('buffers');
  let sync: WebGLSync | null = null;
  try {
    // Each synchronous part runs inside the guard: the app may draw between them.
    gpu.guard.run(() => {
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      gl.bufferData(gl.PIXEL_PACK_BUFFER, rgba.byteLength, gl.STREAM_READ);
      gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
      gl.readPixels(0, 0, target.width, rows, gl.RGBA_INTEGER, gl.UNSIGNED_INT, 0);
      if (drainReadError) gl.getError();
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    });
    sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    gpu.tracker.created('syncs');
    gl.flush();
    for (;;) {
      if (gl.isContextLost()) throw new Error('WebGL context lost while reading back from the GPU; create a new engine once the context is restored');
      const status = gl.clientWaitSync(sync!, 0, 0);
      if (status === gl.ALREADY_SIGNALED || status === gl.CONDITION_SATISFIED) break;
      if (status !== gl.TIMEOUT_EXPIRED) throw new Error(`readback fence failed (clientWaitSync returned ${status})`);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    gpu.guard.run(() => {
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, rgba);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    });
  } finally {
    if (sync) gpu.release('syncs', sync);
    gpu.release('buffers', buffer);
  }
  return texelWords(rgba, target, texels);
}

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
