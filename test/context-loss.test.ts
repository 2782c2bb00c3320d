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

  // tune() and warmUp() (without KHR_parallel_shader_compile) wait between tasks for a fence issued
  // after their work. A context lost while they wait must end the wait with the engine's own error
  // naming the call: a lost context makes no fence (fenceSync answers null, which clientWaitSync would
  // refuse with a TypeError) and fails a wait on one made before (WAIT_FAILED).
  for (const when of ['as the fence is made', 'while the fence is polled'] as const) {
    for (const call of ['tune()', 'warmUp()'] as const) {
      it(`${call} rejects naming itself when the context is lost ${when}`, { timeout: 60_000 }, async (context) => {
        if (!inBrowser) context.skip('browser-only: headless-gl has no WEBGL_lose_context (and waits with glFinish)');
        const canvas = document.createElement('canvas');
        const gl = testGl(canvas.getContext('webgl2')!);
        if (call === 'warmUp()' && gl.getExtension('KHR_parallel_shader_compile')) {
          context.skip('this context has KHR_parallel_shader_compile: warmUp() waits for the driver, not for a fence');
        }
        const lose = gl.getExtension('WEBGL_lose_context')!;
        const [fenceSync, clientWaitSync] = [gl.fenceSync.bind(gl), gl.clientWaitSync.bind(gl)];
        let lost = false;
        const loseNow = () => {
          if (!lost) lose.loseContext();
          lost = true;
        };
        Object.assign(gl, {
          fenceSync: (condition: number, flags: number) => {
            if (when === 'as the fence is made') loseNow();
            return fenceSync(condition, flags);
          },
          clientWaitSync: (sync: WebGLSync, flags: number, timeout: number) => {
            if (when === 'while the fence is polled') loseNow();
            return clientWaitSync(sync, flags, timeout);
          },
        });
        const engine = createEngine(gl);
        const running = call === 'tune()'
          ? engine.tune({ sizes: [1000], densities: [0.5], repeats: 1 })
          : engine.warmUp([{ compact: { keep: { glsl: 'return value.x % 5u == 1u;' } }, type: 'uint32', lengths: [700] }]);
        const name = call.replace(/[()]/g, '\\$&');
        await expect(running).rejects.toThrow(new RegExp(`engine\\.${name}: the WebGL context was lost`));
        expect(lost, 'the context was lost where the test meant it to be').toBe(true);
        engine.dispose(); // safe on a lost context
      });
    }
  }
});
