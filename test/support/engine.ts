// One headless-gl WebGL2 context and engine per test file (vitest runs files in forked processes).
import { afterAll } from 'vitest';
import { createEngine, type Engine } from '../../src/index.js';
import { createHeadlessContext, destroyHeadlessContext } from '../../src/node.js';

let shared: { gl: WebGL2RenderingContext; engine: Engine } | undefined;

export function testEngine(): Engine {
  return testContext().engine;
}

export function testContext(): { gl: WebGL2RenderingContext; engine: Engine } {
  if (!shared) {
    const gl = createHeadlessContext();
    shared = { gl, engine: createEngine(gl) };
    afterAll(() => {
      shared?.engine.dispose();
      if (shared) destroyHeadlessContext(shared.gl);
      shared = undefined;
    });
  }
  return shared;
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
