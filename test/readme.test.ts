// The README's usage snippets are the files they are taken from (no drift), and the browser one
// runs: on a real canvas in the browser run, on a canvas-shaped wrapper around headless-gl in Node.
import { describe, expect, it } from 'vitest';
import readme from '../README.md?raw';
import browserUsage from '../examples/usage/browser-particles.js?raw';
import nodeUsage from './readme-usage.node.test.js?raw';
import { liveParticles } from '../examples/usage/browser-particles.js';
import { testContext } from './support/engine.js';

function codeBlockAfter(marker: string): string {
  const start = readme.indexOf(marker);
  expect(start, `README marker ${marker}`).toBeGreaterThan(-1);
  const match = readme.slice(start).match(/```js\n([\s\S]*?)```/);
  return match![1];
}

describe('README usage', () => {
  it('shows exactly the code of examples/usage/browser-particles.js and test/readme-usage.node.test.js', () => {
    expect(codeBlockAfter('<!-- usage: examples/usage/browser-particles.js -->')).toBe(browserUsage);
    expect(codeBlockAfter('<!-- usage: test/readme-usage.node.test.js -->')).toBe(nodeUsage);
  });

  it('the browser snippet compacts live particles', async () => {
    const { gl, platform } = await testContext();
    const canvas = platform === 'browser' ? document.createElement('canvas') : { getContext: () => gl };
    const particles = new Float32Array(4 * 1000).map((_, i) => (i % 4 === 3 ? ((i >> 2) % 3) - 1 : i));
    const { count, values } = await liveParticles(canvas, particles);
    const expected = particles.filter((_, i) => particles[(i & ~3) + 3] > 0);
    expect(count).toBe(expected.length / 4);
    // Jumping Jack keeps no order: compare particles as a multiset
    const asRows = (a: Float32Array) => Array.from({ length: a.length / 4 }, (_, i) => Array.from(a.subarray(i * 4, i * 4 + 4)).join()).sort();
    expect(asRows(values as Float32Array)).toEqual(asRows(expected));
  });
});
