// The test context: one WebGL2 context and engine per test file. In Node it is headless-gl
// (vitest runs each file in its own forked process, since headless-gl loads its addon once per
// process); in a browser run it is a canvas's WebGL2 context. Test cases call `await testEngine()`
// and never care which. Under GLCOMPACT_PHONE_PROFILE=1 the context is seen through the phone
// profile (phone-profile.ts): 4096-texel textures, no float render targets, no timer queries.
import { afterAll } from 'vitest';
import { createEngine, type Engine } from '../../src/index.js';
import { gpuOf } from '../../src/internal.js';
import { expectNoPhoneViolations, testGl } from './phone-profile.js';

interface TestContext {
  gl: WebGL2RenderingContext;
  engine: Engine;
  /** 'headless-gl' or 'browser'. */
  platform: 'headless-gl' | 'browser';
  destroy(): void;
}

let shared: Promise<TestContext> | undefined;

async function makeContext(): Promise<TestContext> {
  if (typeof document !== 'undefined') {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('webgl2');
    if (!context) throw new Error('this browser gives no WebGL2 context');
    const gl = testGl(context);
    return { gl, engine: createEngine(gl), platform: 'browser', destroy: () => gl.getExtension('WEBGL_lose_context')?.loseContext() };
  }
  const node = await import('../../src/node.js');
  const gl = testGl(node.createHeadlessContext());
  return { gl, engine: createEngine(gl), platform: 'headless-gl', destroy: () => node.destroyHeadlessContext(gl) };
}

export function testContext(): Promise<TestContext> {
  if (!shared) {
    shared = makeContext();
    afterAll(async () => {
      const context = await shared;
      shared = undefined;
      context?.engine.dispose();
      context?.destroy();
      expectNoPhoneViolations(context?.gl);
    });
  }
  return shared;
}

export async function testEngine(): Promise<Engine> {
  return (await testContext()).engine;
}

/**
 * The shared engine with its passes limited to `drawBuffers` attachments (1 forces the single-
 * attachment forms); undefined where the context writes fewer. Put back with `restoreDrawBuffers`.
 */
export async function engineWithDrawBuffers(drawBuffers: 1 | 4 | 8): Promise<Engine | undefined> {
  const engine = await testEngine();
  if (engine.caps.drawBuffers < drawBuffers) return undefined;
  gpuOf(engine).drawBuffers = drawBuffers;
  return engine;
}

export function restoreDrawBuffers(engine: Engine): void {
  gpuOf(engine).drawBuffers = engine.caps.drawBuffers;
}

/**
 * Every texel of a one-component stream's texture (its whole capacity, past `length` too), read
 * synchronously: what a user's shader sampling `stream.texture` sees.
 */
export function readWholeTexture(engine: Engine, stream: { texture: WebGLTexture; layout: { width: number; height: number } }): Uint32Array {
  const gl = gpuOf(engine).gl;
  const { width, height } = stream.layout;
  const bound = gl.getParameter(gl.FRAMEBUFFER_BINDING) as WebGLFramebuffer | null;
  const framebuffer = gl.createFramebuffer();
  try {
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, stream.texture, 0);
    const texels = new Uint32Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA_INTEGER, gl.UNSIGNED_INT, texels);
    return Uint32Array.from({ length: width * height }, (_, i) => texels[i * 4]!);
  } finally {
    gl.bindFramebuffer(gl.FRAMEBUFFER, bound);
    gl.deleteFramebuffer(framebuffer);
  }
}

/** Throws unless both arrays hold the same 32-bit patterns (NaN payloads and -0 included). */
export function expectSameBits(actual: ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number }, expected: ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number }, what = 'result'): void {
  const a = new Uint32Array(actual.buffer, actual.byteOffset, actual.length);
  const b = new Uint32Array(expected.buffer, expected.byteOffset, expected.length);
  if (a.length !== b.length) throw new Error(`${what}: length ${a.length}, expected ${b.length}`);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      throw new Error(`${what}: first difference at ${i}: got ${actual[i]} (0x${a[i].toString(16)}), expected ${expected[i]} (0x${b[i].toString(16)})`);
    }
  }
}
