// What the engine's start-up probes find in Chromium (ANGLE + SwiftShader): full WebGL2, so the
// headless-gl workarounds must switch themselves off there. Browser-only: in Node the same probes
// find headless-gl's gaps, which the engine's own tests cover.
import { expect, it } from 'vitest';
import { testContext } from './support/engine.js';

it('Chromium: transform feedback works and integer uploads take the direct path', async (ctx) => {
  ctx.skip(typeof document === 'undefined', 'browser-only: Node runs headless-gl, which lacks transform feedback and integer uploads');
  const { engine, platform } = await testContext();
  expect(platform).toBe('browser');
  console.log(`chromium caps: ${JSON.stringify(engine.caps)}`);
  expect(engine.caps.transformFeedback).toBe(true);
  expect(engine.caps.uploadPath).toBe('integer');
});
