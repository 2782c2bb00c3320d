// Node usage (shown in the README): test GPU code headless with headless-gl.
import { createEngine } from 'glcompact';
import { createHeadlessContext } from 'glcompact/node';
import { expect, test } from 'vitest';

test('keeps the readings above a threshold, in order', async () => {
  const gl = createHeadlessContext(); // WebGL2 through headless-gl
  const engine = createEngine(gl);

  const readings = new Float32Array([0.1, 0.9, 0.4, 0.7, 0.05, 0.6]);
  const stream = engine.stream(readings);
  const high = engine.compact(stream, { keep: { greaterThan: 0.5 }, algorithm: 'horn' });

  expect(await high.count()).toBe(3);
  expect(Array.from(await high.read())).toEqual([0.9, 0.7, 0.6].map(Math.fround));
  expect(high.stats.algorithm).toBe('horn');

  const sums = engine.scan(engine.stream(new Uint32Array([3, 1, 4, 1, 5])), { exclusive: true });
  expect(Array.from(await sums.read())).toEqual([0, 3, 4, 8, 9]);

  engine.dispose(); // frees every texture, framebuffer and program it made
});
