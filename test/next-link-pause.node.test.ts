// programs.ts#nextLinkPause: how engine.warmUp() paces its link-status questions where the driver
// cannot say when a link is done (no KHR_parallel_shader_compile: Chromium + SwiftShader, Firefox).
import { expect, it } from 'vitest';
import { nextLinkPause } from '../src/programs.js';

it('adds what a question still waited, halves where it found the link done, never above the cap', () => {
  // A question that still waited 39 ms after a 16 ms pause: the next pause is both, up to the cap.
  expect(nextLinkPause(16, 39, 50)).toBe(50);
  expect(nextLinkPause(16, 10, 50)).toBe(26);
  // Waits that are small against the pause (the question's own round trip) do not grow it.
  expect(nextLinkPause(16, 3, 50)).toBe(8);
  expect(nextLinkPause(1, 0.4, 50)).toBe(0.5);
  // Questions that keep finding their links done bring a 50 ms pause under 1 ms (no pause) in 6 steps.
  let pause = 50;
  for (let k = 0; k < 6; k++) pause = nextLinkPause(pause, 0.1, 50);
  expect(pause).toBeLessThan(1);
  // However long the waits, the pause stays at the cap.
  for (let k = 0; k < 10; k++) pause = nextLinkPause(pause, 200, 50);
  expect(pause).toBe(50);
});
