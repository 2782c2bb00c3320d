// A lost context (WEBGL_lose_context) makes pending and new calls reject with a clear Error;
// after the context is restored, a new engine on the same canvas works. Browser-only: headless-gl
// has no WEBGL_lose_context.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { testGl } from './support/phone-profile.js';

const inBrowser = typeof document !== 'undefined';

describe('context loss', () => {
  it('rejects pending and new calls, and a new engine works after restore', { timeout: 30_000 }, async (context) => {
    if (!inBrowser) context.skip('browser-only: headless-gl has no WEBGL_lose_context');
    const canvas = document.createElement('canvas');
    // preventDefault on loss is the app's way of asking for a restore
    const lost = new Promise((resolve) =>
      canvas.addEventListener('webglcontextlost', (event) => (event.preventDefault(), resolve(null)), { once: true }),
    );
    const gl = testGl(canvas.getContext('webgl2')!);
    const engine = createEngine(gl);
    expect(engine.caps.asyncReadback).toBe(true);
    const stream = engine.stream(new Uint32Array([0, 1, 2, 0, 3]));
    const result = engine.compact(stream, { keep: 'nonzero' });
    const pending = result.read(); // in flight: polls a fence between tasks

    const restored = new Promise((resolve) => canvas.addEventListener('webglcontextrestored', resolve, { once: true }));
    const lose = gl.getExtension('WEBGL_lose_context')!;
    lose.loseContext();
    await expect(pending).rejects.toThrow(/context (was )?lost/);
    expect(() => engine.compact(stream, { keep: 'nonzero' })).toThrow(/the WebGL context was lost/);
    await expect(stream.read()).rejects.toThrow(/the WebGL context was lost/);
    engine.dispose(); // safe on a lost context

    // Chrome ignores a restore requested before it has finished handling the loss: wait for the
    // event, then give it a moment.
    await lost;
    await new Promise((resolve) => setTimeout(resolve, 200));
    lose.restoreContext();
    await restored;
    const fresh = createEngine(gl);
    const again = fresh.compact(fresh.stream(new Uint32Array([0, 1, 2, 0, 3])), { keep: 'nonzero', algorithm: 'horn' });
    expect(Array.from(await again.read())).toEqual([1, 2, 3]);
    fresh.dispose();
  });
});
