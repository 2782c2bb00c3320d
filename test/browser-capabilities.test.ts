// What the engine's start-up probes find in the browsers (Chromium on ANGLE + SwiftShader, Firefox
// on Mesa llvmpipe, WebKitGTK): full WebGL2, so the headless-gl workarounds must switch themselves off there. Browser-only: in Node the same probes
// find headless-gl's gaps, which the engine's own tests cover.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { expectSameBits, testContext, testEngine } from './support/engine.js';
import { replaceGlMethod } from './support/gl-method.js';
import { phoneProfileRun } from './support/phone-profile.js';
import { testPlatform } from './support/platform.js';

it('in a browser: transform feedback works and integer uploads take the direct path', async (ctx) => {
  ctx.skip(typeof document === 'undefined', 'browser-only: Node runs headless-gl, which lacks transform feedback and integer uploads');
  const { engine, platform } = await testContext();
  expect(platform).toBe('browser');
  console.log(`${testPlatform()} caps: ${JSON.stringify(engine.caps)}`);
  expect(engine.caps.transformFeedback).toBe(true);
  expect(engine.caps.uploadPath).toBe('integer');
  // The scans' lanes (scan/reduce-then-scan.ts): 8 attachments per pass in all three engines, or 4
  // under the phone profile (which reports MAX_DRAW_BUFFERS 4). headless-gl answers 1 (its quirk:
  // test/headless-context.node.test.ts).
  expect(engine.caps.drawBuffers).toBe(phoneProfileRun ? 4 : 8);
  // RGBA32UI layers and an R32UI texture written by one pass (the sort's select target): every
  // engine here takes it; probed only with 8 attachments.
  expect(engine.caps.mixedFormatAttachments).toBe(!phoneProfileRun);
});

it('a context that writes no R32UI texture beside RGBA32UI layers (formats mixed in a framebuffer, which OpenGL ES 3.0 lets a driver refuse): caps.mixedFormatAttachments is false and the sort does without one', async (ctx) => {
  ctx.skip(typeof document === 'undefined', 'browser-only: headless-gl writes 1 attachment, and the probe runs only with 8');
  const { gl, engine: shared } = await testContext();
  ctx.skip(shared.caps.drawBuffers < 8, `the probe runs only where passes write 8 attachments; this context writes ${shared.caps.drawBuffers}`);
  // Attachment 4 of the probe's target is its R32UI texture: left unattached, as a refusing driver
  // would leave it unwritten.
  const restore = replaceGlMethod(gl, 'framebufferTexture2D', (original) => function (this: WebGL2RenderingContext, target, attachment, textarget, texture, level) {
    if (attachment !== gl.COLOR_ATTACHMENT4) original.call(this, target, attachment, textarget, texture, level);
  });
  let engine: ReturnType<typeof createEngine>;
  try {
    engine = createEngine(gl);
  } finally {
    restore();
  }
  try {
    expect(engine.caps.mixedFormatAttachments).toBe(false);
    expect(engine.caps.drawBuffers).toBe(8);
    const keys = Uint32Array.from({ length: 5000 }, (_, i) => Math.imul(i + 3, 2654435761) >>> 0);
    const stream = engine.stream(keys);
    const sorted = engine.sort(stream);
    expectSameBits(await sorted.keys.read(), Uint32Array.from(keys).sort());
    sorted.dispose();
    stream.dispose();
  } finally {
    engine.dispose();
  }
});

describe('GPU timer', () => {
  it('engine.gpuTime() measures a scan where the context has a timer query, else says undefined', async () => {
    const engine = await testEngine();
    const stream = engine.stream(new Uint32Array(1 << 16).fill(1));
    let scanned: ReturnType<typeof engine.scan> | undefined;
    const ms = await engine.gpuTime(() => {
      scanned = engine.scan(stream);
    });
    if (engine.caps.timerQuery) {
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThan(10_000);
    } else {
      expect(ms).toBeUndefined();
    }
    // An inclusive scan of ones: 1, 2, ..., 2^16.
    expectSameBits(await scanned!.read(), Uint32Array.from({ length: 1 << 16 }, (_, i) => i + 1));
    expect(engine.lastScanStats).toMatchObject({ algorithm: 'reduce-then-scan', radix: undefined, blockSize: undefined, exclusive: false });
    scanned!.dispose();
    stream.dispose();
  });

  it('engine.gpuTime() refuses something that is not a function', async () => {
    const engine = await testEngine();
    await expect(engine.gpuTime(42 as unknown as () => void)).rejects.toThrow('engine.gpuTime(run): run must be a function that submits the GPU work to time; got 42');
  });
});
