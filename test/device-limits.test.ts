// Device limits (README "Device limits"): the engine's textures stay within 4096 texels a side unless
// the app raises the limit with createEngine(gl, { maxTextureSize }), up to the context's
// MAX_TEXTURE_SIZE. Streams past the limit are refused before any GL object is made, naming the option;
// every texture the engine makes, at every size and on every path, stays within the limit (recorded
// at the context); results stay exact. The phone profile (test/support/phone-profile.ts) stands in for
// an iOS device, which reports MAX_TEXTURE_SIZE 16384 and crashes above 4096.
// Sizes here stay small (both projects; SwiftShader is slow): test/device-limits.node.test.ts runs a
// stream of exactly 4096² elements, one of 4096² + 1 with the limit raised, and a limit that is not a
// power of two at full height.
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { gpuOf } from '../src/internal.js';
import { expectEveryPathExact, limitTestData, recordTextureSizes } from './support/device-limits.js';
import { testContext } from './support/engine.js';
import { countGlObjects, nonZero } from './support/gl-objects.js';
import { phoneProfile, phoneProfileOf, PHONE_MAX_TEXTURE_SIZE } from './support/phone-profile.js';

const DEFAULT_LIMIT = 4096;

/** Runs `body` on a new engine (disposed after), with every texture allocation recorded. */
async function withEngine(gl: WebGL2RenderingContext, options: Parameters<typeof createEngine>[1], body: (engine: Engine, largest: () => number) => Promise<void>): Promise<void> {
  const sizes = recordTextureSizes(gl);
  const engine = createEngine(gl, options);
  try {
    await body(engine, sizes.largest);
  } finally {
    engine.dispose();
    sizes.restore();
  }
}

/** `bad` throws with all of `parts` in its message and leaves no GL object and no engine resource behind. */
async function expectRefused(gl: WebGL2RenderingContext, engine: Engine, bad: () => unknown, ...parts: string[]): Promise<void> {
  engine.trim();
  const before = engine.resources;
  const counter = countGlObjects(gl);
  let message: string | undefined;
  try {
    await bad();
  } catch (error) {
    message = (error as Error).message;
  } finally {
    counter.restore();
  }
  if (message === undefined) throw new Error('the call was not refused');
  for (const part of parts) expect(message).toContain(part);
  engine.trim();
  expect(engine.resources).toEqual(before);
  expect(nonZero(counter.live)).toEqual({});
}

/** What the refusal says about raising the limit, given the engine's and the context's. */
function raiseHint(limit: number, contextLimit: number): string {
  return limit < contextLimit
    ? `(maxTextureSize ${limit}; createEngine(gl, { maxTextureSize }) can raise it up to the context's MAX_TEXTURE_SIZE ${contextLimit})`
    : `(maxTextureSize ${limit}, the context's MAX_TEXTURE_SIZE: no longer stream fits on this device)`;
}

describe('the default texture limit', () => {
  it("caps.maxTextureSize is min(4096, the context's MAX_TEXTURE_SIZE); caps.contextMaxTextureSize is the context's", async () => {
    const { gl, engine } = await testContext();
    const contextLimit = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    expect(engine.caps.contextMaxTextureSize).toBe(contextLimit);
    expect(engine.caps.maxTextureSize).toBe(Math.min(DEFAULT_LIMIT, contextLimit));
  });

  it('a stream of 4096² + 1 elements is refused before any GL object, naming maxTextureSize and how to raise it (so are warmUp lengths and tune sizes)', async () => {
    const { gl, engine } = await testContext();
    const limit = engine.caps.maxTextureSize;
    const hint = raiseHint(limit, engine.caps.contextMaxTextureSize);
    const tooLong = new Uint32Array(limit * limit + 1);
    await expectRefused(gl, engine, () => engine.stream(tooLong), 'engine.stream(data): data is too long', `got ${limit * limit + 1} elements`, `at most ${limit}² = ${limit * limit} elements fit ${hint}`);
    // warmUp() and tune() check their lengths before they run anything
    await expectRefused(gl, engine, () => engine.warmUp([{ scan: {} }, { compact: { keep: 'nonzero' }, lengths: [1000, limit * limit + 1] }]), 'engine.warmUp(calls): calls[1].lengths[1] is too long', hint);
    await expectRefused(gl, engine, () => engine.tune({ sizes: [limit * limit + 1] }), `sizes must be a non-empty array of stream lengths from 1 to ${limit * limit}`, hint);
  });

  it.each([1, 4099, 70_001, 131_075])('%i elements: every path exact, no texture side above the limit', async (n) => {
    const { gl } = await testContext();
    await withEngine(gl, undefined, async (engine, largest) => {
      await expectEveryPathExact(engine, limitTestData(n), `${n} elements`);
      expect(largest()).toBeGreaterThan(0);
      expect(largest()).toBeLessThanOrEqual(engine.caps.maxTextureSize);
    });
  });
});

describe('createEngine(gl, { maxTextureSize })', () => {
  it('takes any integer from 2048 to the context limit; rows stay a power of two (the one below a limit that is not)', async () => {
    const { gl } = await testContext();
    const contextLimit = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    for (const limit of [2048, 3000, contextLimit]) {
      const engine = createEngine(gl, { maxTextureSize: limit });
      try {
        expect(engine.caps.maxTextureSize).toBe(limit);
        expect(engine.caps.contextMaxTextureSize).toBe(contextLimit);
        const stream = engine.stream(new Uint32Array(70_001));
        expect(stream.layout.width).toBe(2048);
        stream.dispose();
      } finally {
        engine.dispose();
      }
    }
  });

  it('a limit that is not a power of two: 2048-wide rows, the full height, and the pool never rounds a texture past the limit', async () => {
    const { gl } = await testContext();
    await withEngine(gl, { maxTextureSize: 3000 }, async (engine, largest) => {
      const hint = raiseHint(3000, engine.caps.contextMaxTextureSize);
      await expectRefused(gl, engine, () => engine.stream(new Uint32Array(2048 * 3000 + 1)), 'got 6144001 elements', `at most 2048 × 3000 = 6144000 elements fit ${hint}`);
      // 2049 rows would be rounded up to the pool's height class 2560; the limit caps it at 2049..3000
      const gpu = gpuOf(engine);
      const target = gpu.guard.run(() => gpu.target(2048, 2049));
      expect(target.allocatedHeight).toBeLessThanOrEqual(3000);
      target.free();
      await expectEveryPathExact(engine, limitTestData(70_001), 'limit 3000');
      expect(largest()).toBeLessThanOrEqual(3000);
    });
  });

  it('a limit of 2048 (the smallest allowed): every path exact, no side above 2048', async () => {
    const { gl } = await testContext();
    await withEngine(gl, { maxTextureSize: 2048 }, async (engine, largest) => {
      await expectEveryPathExact(engine, limitTestData(100_003), 'limit 2048');
      expect(largest()).toBeLessThanOrEqual(2048);
    });
  });
});

describe('an iOS-like context: reports its MAX_TEXTURE_SIZE, fails above 4096 texels a side', () => {
  it('the default keeps every texture within 4096 and refuses what would need more, naming the opt-in', async () => {
    const { gl } = await testContext();
    const ios = phoneProfile(gl, { reportedMaxTextureSize: 'context' });
    const reported = ios.getParameter(ios.MAX_TEXTURE_SIZE) as number;
    await withEngine(ios, undefined, async (engine, largest) => {
      expect(engine.caps.contextMaxTextureSize).toBe(reported);
      expect(engine.caps.maxTextureSize).toBe(Math.min(DEFAULT_LIMIT, reported));
      const limit = engine.caps.maxTextureSize;
      await expectRefused(ios, engine, () => engine.stream(new Uint32Array(limit * limit + 1)), `at most ${limit}² = ${limit * limit} elements fit ${raiseHint(limit, reported)}`);
      await expectEveryPathExact(engine, limitTestData(70_001), 'iOS-like');
      expect(largest()).toBeLessThanOrEqual(PHONE_MAX_TEXTURE_SIZE);
    });
    expect(phoneProfileOf(ios)?.violations).toEqual([]);
  });

  it('an app that raises the limit there gets the device\'s failure, and the engine leaves nothing behind', async ({ skip }) => {
    const { gl } = await testContext();
    const ios = phoneProfile(gl, { reportedMaxTextureSize: 'context' });
    const reported = ios.getParameter(ios.MAX_TEXTURE_SIZE) as number;
    if (reported < 2 * PHONE_MAX_TEXTURE_SIZE) skip(`the context reports MAX_TEXTURE_SIZE ${reported}: nothing above ${PHONE_MAX_TEXTURE_SIZE} to ask for`);
    await withEngine(ios, { maxTextureSize: 2 * PHONE_MAX_TEXTURE_SIZE }, async (engine) => {
      // 4096² + 1 elements: an 8192 × 2049 stream (2560 rows in the pool's height class), which the
      // "device" refuses at its allocation
      await expectRefused(ios, engine, () => engine.stream(new Uint32Array(PHONE_MAX_TEXTURE_SIZE ** 2 + 1)), 'phone profile: texStorage2D asked for 8192×2560');
    });
    expect(phoneProfileOf(ios)?.violations).toEqual([{ call: 'texStorage2D', sizes: [8192, 2560] }]);
  });
});

describe('the phone profile itself (test/support/phone-profile.ts, GLCOMPACT_PHONE_PROFILE=1)', () => {
  it('reports 4096 and 4 draw buffers, hides EXT_color_buffer_float and the timer query, refuses sides above 4096; the rest is the real context', async () => {
    const { gl } = await testContext();
    const phone = phoneProfile(gl);
    expect(phone.getParameter(phone.MAX_TEXTURE_SIZE)).toBe(Math.min(4096, gl.getParameter(gl.MAX_TEXTURE_SIZE) as number));
    expect(phone.getParameter(phone.MAX_DRAW_BUFFERS)).toBe(4);
    expect(phone.getParameter(phone.MAX_COLOR_ATTACHMENTS)).toBe(4);
    expect(phone.getParameter(phone.MAX_3D_TEXTURE_SIZE)).toBe(gl.getParameter(gl.MAX_3D_TEXTURE_SIZE));
    for (const name of ['EXT_color_buffer_float', 'EXT_disjoint_timer_query_webgl2']) {
      expect(phone.getExtension(name)).toBeNull();
      expect(phone.getSupportedExtensions()).not.toContain(name);
    }
    expect(phone.getSupportedExtensions()?.length).toBe((gl.getSupportedExtensions() ?? []).filter((name) => name !== 'EXT_color_buffer_float' && name !== 'EXT_disjoint_timer_query_webgl2').length);
    // constants, the prototype (instanceof in a browser) and the canvas are the real context's
    expect(phone.TEXTURE_2D).toBe(gl.TEXTURE_2D);
    expect(Object.getPrototypeOf(phone)).toBe(Object.getPrototypeOf(gl));
    if (typeof WebGL2RenderingContext !== 'undefined') expect(phone).toBeInstanceOf(WebGL2RenderingContext);
    expect(phone.canvas).toBe(gl.canvas);
    // sides: 4096 is fine, 4097 throws and is recorded
    const texture = phone.createTexture();
    phone.bindTexture(phone.TEXTURE_2D, texture);
    phone.texStorage2D(phone.TEXTURE_2D, 1, phone.R8, 4096, 1);
    expect(() => phone.texImage2D(phone.TEXTURE_2D, 0, phone.R8, 1, 4097, 0, phone.RED, phone.UNSIGNED_BYTE, null)).toThrow('phone profile: texImage2D asked for 1×4097');
    expect(() => phone.texStorage3D(phone.TEXTURE_2D_ARRAY, 1, phone.R8, 2, 2, 5000)).toThrow('phone profile: texStorage3D asked for 2×2×5000');
    phone.bindTexture(phone.TEXTURE_2D, null);
    phone.deleteTexture(texture);
    // colour attachments: 4 are fine, a fifth (or a list of 5) throws and is recorded
    const framebuffer = phone.createFramebuffer();
    const layers = phone.createTexture();
    phone.bindTexture(phone.TEXTURE_2D_ARRAY, layers);
    phone.texStorage3D(phone.TEXTURE_2D_ARRAY, 1, phone.RGBA8, 1, 1, 5);
    phone.bindFramebuffer(phone.FRAMEBUFFER, framebuffer);
    phone.framebufferTextureLayer(phone.FRAMEBUFFER, phone.COLOR_ATTACHMENT3, layers, 0, 3);
    phone.drawBuffers([phone.COLOR_ATTACHMENT0, phone.NONE, phone.NONE, phone.COLOR_ATTACHMENT3]);
    expect(() => phone.framebufferTextureLayer(phone.FRAMEBUFFER, phone.COLOR_ATTACHMENT4, layers, 0, 4)).toThrow('phone profile: framebufferTextureLayer on colour attachment 4');
    expect(() => phone.drawBuffers([phone.COLOR_ATTACHMENT0, phone.NONE, phone.NONE, phone.NONE, phone.COLOR_ATTACHMENT4])).toThrow('phone profile: drawBuffers of 5 attachments');
    phone.bindFramebuffer(phone.FRAMEBUFFER, null);
    phone.bindTexture(phone.TEXTURE_2D_ARRAY, null);
    phone.deleteFramebuffer(framebuffer);
    phone.deleteTexture(layers);
    expect(phoneProfileOf(phone)?.violations).toEqual([
      { call: 'texImage2D', sizes: [1, 4097] }, { call: 'texStorage3D', sizes: [2, 2, 5000] },
      { call: 'framebufferTextureLayer', sizes: [4] }, { call: 'drawBuffers', sizes: [5] },
    ]);
  });

  it('an engine on it: no float render targets, no timer queries, exact results; its state interceptors work through the wrapper and come off again', async () => {
    const { gl } = await testContext();
    const phone = phoneProfile(gl);
    const forwardingBind = phone.bindTexture;
    const engine = createEngine(phone);
    try {
      expect(engine.caps).toMatchObject({ floatRender: false, timerQuery: false, maxTextureSize: Math.min(4096, gl.getParameter(gl.MAX_TEXTURE_SIZE) as number) });
      // 4 where the context draws several (browsers), 1 where it cannot (headless-gl's quirk)
      expect(engine.caps.drawBuffers).toBeLessThanOrEqual(4);
      expect(await engine.gpuTime(() => {})).toBeUndefined();
      // the engine's interceptors sit on the wrapper: an app's bind through it is seen and put back
      expect(phone.bindTexture).not.toBe(forwardingBind);
      const appTexture = phone.createTexture();
      phone.activeTexture(phone.TEXTURE0);
      phone.bindTexture(phone.TEXTURE_2D, appTexture);
      const floats = Float32Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? -0 : i / 7));
      const kept = engine.compact(engine.stream(floats), { keep: 'nonzero' });
      expect(Array.from((await kept.read()) as Float32Array)).toEqual(Array.from(floats.filter((v) => v !== 0)));
      expect(phone.getParameter(phone.TEXTURE_BINDING_2D)).toBe(appTexture);
      phone.bindTexture(phone.TEXTURE_2D, null);
      phone.deleteTexture(appTexture);
    } finally {
      engine.dispose();
    }
    expect(phone.bindTexture).toBe(forwardingBind);
    expect(phoneProfileOf(phone)?.violations).toEqual([]);
  });
});
