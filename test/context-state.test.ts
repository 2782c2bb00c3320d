// The shadow of the context's state (src/context-state.ts): what its interceptors see and what they
// cannot, that they come off again, and the platform quirk it handles. test/gl-state.test.ts and
// test/state-contract.test.ts hold the contract itself; test/no-blocking-calls.test.ts the no-query rule.
import { describe, expect, it } from 'vitest';
import { ContextState } from '../src/context-state.js';
import { createEngine } from '../src/index.js';
import { testGl } from './support/phone-profile.js';

async function freshContext(): Promise<{ gl: WebGL2RenderingContext; platform: 'browser' | 'headless-gl'; destroy(): void }> {
  if (typeof document !== 'undefined') {
    const gl = testGl(document.createElement('canvas').getContext('webgl2')!);
    return { gl, platform: 'browser', destroy: () => gl.getExtension('WEBGL_lose_context')?.loseContext() };
  }
  const node = await import('../src/node.js');
  const gl = testGl(node.createHeadlessContext());
  return { gl, platform: 'headless-gl', destroy: () => node.destroyHeadlessContext(gl) };
}

const intercepted = ['enable', 'bindFramebuffer', 'viewport', 'bindTexture', 'deleteTexture', 'pixelStorei'] as const;

describe('the context-state tracker', () => {
  it('installs once for several engines and comes off with the last dispose()', async () => {
    const { gl, destroy } = await freshContext();
    const own = (name: string) => Object.getOwnPropertyDescriptor(gl, name)?.value as unknown;
    const before = Object.fromEntries(intercepted.map((name) => [name, own(name)]));
    const first = createEngine(gl);
    const wrapped = Object.fromEntries(intercepted.map((name) => [name, own(name)]));
    for (const name of intercepted) expect(wrapped[name], name).not.toBe(before[name]);
    const second = createEngine(gl, { preserveState: false });
    for (const name of intercepted) expect(own(name), `${name}: one set of interceptors`).toBe(wrapped[name]);
    first.dispose();
    for (const name of intercepted) expect(own(name), `${name}: still used by the second engine`).toBe(wrapped[name]);
    second.dispose();
    for (const name of intercepted) expect(own(name), `${name}: back as it was`).toBe(before[name]);
    destroy();
  });

  it('a createEngine that fails making its own GL objects leaves no interceptors and no objects behind', async () => {
    const { gl, destroy } = await freshContext();
    const own = (name: string) => Object.getOwnPropertyDescriptor(gl, name)?.value as unknown;
    const before = Object.fromEntries(intercepted.map((name) => [name, own(name)]));
    const counts = { vertexArrays: 0 };
    const createVertexArray = gl.createVertexArray.bind(gl);
    const deleteVertexArray = gl.deleteVertexArray.bind(gl);
    const createFramebuffer = gl.createFramebuffer;
    gl.createVertexArray = () => (counts.vertexArrays++, createVertexArray());
    gl.deleteVertexArray = (v) => (counts.vertexArrays--, deleteVertexArray(v));
    gl.createFramebuffer = () => null as unknown as WebGLFramebuffer;   // as a lost context answers
    expect(() => createEngine(gl)).toThrow(/could not create a GL framebuffer/);
    for (const name of intercepted) expect(own(name), `${name}: back as it was`).toBe(before[name]);
    expect(counts.vertexArrays, 'vertex arrays left').toBe(0);
    gl.createFramebuffer = createFramebuffer;
    const engine = createEngine(gl);
    const stream = engine.stream(new Uint32Array([0, 1, 2, 0, 3]));
    expect(await engine.compact(stream, { keep: 'nonzero' }).count()).toBe(3);
    engine.dispose();
    destroy();
  });

  it('something that wraps the interceptors keeps working after dispose() (they become plain forwards)', async () => {
    const { gl, destroy } = await freshContext();
    const engine = createEngine(gl);
    const inner = gl.enable;
    let seen = 0;
    gl.enable = (cap: number) => {
      seen += 1;
      inner.call(gl, cap);
    };
    engine.dispose();
    gl.enable(gl.SCISSOR_TEST);
    expect(seen).toBe(1);
    expect(gl.isEnabled(gl.SCISSOR_TEST)).toBe(true);
    gl.disable(gl.SCISSOR_TEST);
    // a new engine reads the state and installs again underneath nothing it cannot see
    const again = createEngine(gl);
    const stream = again.stream(new Uint32Array([0, 1, 2, 0, 3]));
    expect(await again.compact(stream, { keep: 'nonzero' }).count()).toBe(3);
    again.dispose();
    destroy();
  });

  it('state set around the interceptors is not seen until engine.syncState() (the documented limit)', async () => {
    const { gl, destroy } = await freshContext();
    // References taken before createEngine bypass its interceptors.
    const enable = gl.enable.bind(gl);
    const disable = gl.disable.bind(gl);
    const engine = createEngine(gl);
    const data = Uint32Array.from({ length: 4096 }, (_, i) => i % 3);
    const expected = data.filter((v) => v !== 0).length;
    const stream = engine.stream(data);
    gl.scissor(0, 0, 1, 1);
    enable(gl.SCISSOR_TEST); // unseen: the engine believes the scissor test is off
    const blind = await engine.compact(stream, { keep: 'nonzero' }).count();
    expect(blind, 'a 1×1 scissor box the engine did not see clips its passes').not.toBe(expected);
    engine.syncState();
    expect(await engine.compact(stream, { keep: 'nonzero' }).count()).toBe(expected);
    expect(gl.isEnabled(gl.SCISSOR_TEST), 'and the app\'s scissor test is put back').toBe(true);
    disable(gl.SCISSOR_TEST);
    engine.dispose();
    destroy();
  });

  it('quirk: headless-gl cannot bind pixel pack/unpack buffers, so the tracker leaves those bindings alone there', async () => {
    const { gl, platform, destroy } = await freshContext();
    const buffer = gl.createBuffer();
    while (gl.getError() !== gl.NO_ERROR);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
    const error = gl.getError();
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    while (gl.getError() !== gl.NO_ERROR);
    const state = ContextState.acquire(gl);
    if (platform === 'headless-gl') {
      expect(error).toBe(gl.INVALID_ENUM);
      expect(state.pixelBuffersBindable).toBe(false);
    } else {
      expect(error).toBe(gl.NO_ERROR);
      expect(state.pixelBuffersBindable).toBe(true);
    }
    state.release();
    // Either way an app's attempt leaves the engine exact and raises nothing from the engine's side.
    const engine = createEngine(gl);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
    while (gl.getError() !== gl.NO_ERROR);
    const stream = engine.stream(new Uint32Array([5, 0, 7]));
    expect(Array.from(await engine.compact(stream, { keep: 'nonzero' }).read())).toEqual([5, 7]);
    expect(gl.getError()).toBe(gl.NO_ERROR);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
    while (gl.getError() !== gl.NO_ERROR);
    engine.dispose();
    gl.deleteBuffer(buffer);
    destroy();
  });
});
