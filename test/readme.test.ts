// The README's usage snippets are the files they are taken from (no drift), and the browser one
// runs: on a real canvas in the browser run, on a canvas-shaped wrapper around headless-gl in Node.
import { describe, expect, it } from 'vitest';
import readme from '../README.md?raw';
import browserUsage from '../examples/usage/browser-particles.js?raw';
import nodeUsage from './readme-usage.node.test.js?raw';
import drawUsage from '../examples/usage/draw-from-gpu-count.js?raw';
import { liveParticles } from '../examples/usage/browser-particles.js';
import { drawLiveParticles, liveParticlesVertexShader } from '../examples/usage/draw-from-gpu-count.js';
import { glStateItems } from '../src/gl-state.js';
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
    expect(codeBlockAfter('<!-- usage: examples/usage/draw-from-gpu-count.js -->')).toBe(drawUsage);
  });

  it('the drawing snippet draws exactly the live particles, with no count readback', async () => {
    const { gl, engine } = await testContext();
    const size = 64;
    // One particle at the centre of each pixel of a 64×64 target; every third one is dead.
    const particles = new Float32Array(size * size * 4);
    for (let k = 0; k < size * size; k++) {
      particles.set([(2 * (k % size) + 1) / size - 1, (2 * Math.floor(k / size) + 1) / size - 1, 0, k % 3 === 0 ? 0 : 1 + (k % 5)], 4 * k);
    }
    const stream = engine.stream(particles, { components: 4 });
    const live = engine.compact(stream, { keep: { glsl: 'return value.w > 0.0;' } });
    const program = gl.createProgram()!;
    const fragment = '#version 300 es\nprecision highp float;\nout vec4 color;\nvoid main() { color = vec4(1.0); }';
    for (const [type, source] of [[gl.VERTEX_SHADER, liveParticlesVertexShader], [gl.FRAGMENT_SHADER, fragment]] as const) {
      const shader = gl.createShader(type)!;
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      expect(gl.getShaderInfoLog(shader) ?? '', 'compile log').not.toMatch(/ERROR/);
      gl.attachShader(program, shader);
    }
    gl.linkProgram(program);
    expect(gl.getProgramParameter(program, gl.LINK_STATUS)).toBe(true);
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, size, size);
    const framebuffer = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    expect(gl.checkFramebufferStatus(gl.FRAMEBUFFER)).toBe(gl.FRAMEBUFFER_COMPLETE);
    gl.viewport(0, 0, size, size);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    const vertexArray = gl.createVertexArray();
    gl.bindVertexArray(vertexArray);
    drawLiveParticles(gl, program, live);
    const pixels = new Uint8Array(size * size * 4);
    gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    const lit = Array.from({ length: size * size }, (_, k) => pixels[4 * k] === 255);
    expect(lit).toEqual(Array.from({ length: size * size }, (_, k) => k % 3 !== 0));
    expect(await live.count()).toBe(lit.filter(Boolean).length);
    gl.bindVertexArray(null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    for (const object of [vertexArray]) gl.deleteVertexArray(object);
    gl.deleteFramebuffer(framebuffer);
    gl.deleteTexture(texture);
    gl.deleteProgram(program);
    live.dispose();
    stream.dispose();
  });

  it('"The state contract" names every item the engine sets and restores (src/gl-state.ts)', () => {
    const section = readme.slice(readme.indexOf('### The state contract'), readme.indexOf('### Drawing from the GPU-resident count'));
    expect(section.length).toBeGreaterThan(1000);
    const names = [...glStateItems.set.map((item) => item.name), ...glStateItems.restored.flatMap((name) => name.replace(/ \(.*\)$/, '').split('+'))];
    for (const name of names) expect(section, name).toContain(`\`${name}\``);
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
