// An app may draw into a canvas of another realm (a same-origin iframe's document, made from the
// parent's script): its canvas is then not an instance of this window's HTMLCanvasElement. Reads must
// still go through a fence between tasks (caps.asyncReadback), not a synchronous readPixels that
// makes the app wait for the GPU. Browser-only.
import { expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { expectSameBits } from './support/engine.js';
import { testGl } from './support/phone-profile.js';

it('a canvas from an iframe reads asynchronously, exactly', async (context) => {
  if (typeof document === 'undefined') return context.skip('browser-only: headless-gl contexts have no canvas and no event loop to fence between');
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  try {
    const canvas = frame.contentDocument!.createElement('canvas');
    expect(canvas instanceof HTMLCanvasElement, 'the iframe canvas is of another realm').toBe(false);
    const gl = testGl(canvas.getContext('webgl2')!);
    const engine = createEngine(gl);
    try {
      expect(engine.caps.asyncReadback).toBe(true);
      const data = Uint32Array.from({ length: 5000 }, (_, i) => i % 3);
      const stream = engine.stream(data);
      const result = engine.compact(stream, { keep: 'nonzero' });
      expectSameBits(await result.read(), data.filter((v) => v !== 0));
      result.dispose();
      stream.dispose();
    } finally {
      engine.dispose();
    }
  } finally {
    frame.remove();
  }
});
