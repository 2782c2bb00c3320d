// The README's usage snippets are the files they are taken from (no drift), and they run: the browser
// one and the three.js recipe on a real canvas in the browser runs, on a canvas-shaped wrapper around
// headless-gl in Node (three.js renders there too).
import { describe, expect, it } from 'vitest';
import readme from '../README.md?raw';
import threeRecipe from '../docs/recipe-three.md?raw';
import browserUsage from '../examples/usage/browser-particles.js?raw';
import nodeUsage from './readme-usage.node.test.js?raw';
import drawUsage from '../examples/usage/draw-from-gpu-count.js?raw';
import cullUsage from '../examples/usage/cull-instances.js?raw';
import threeUsage from '../examples/usage/three-culling.js?raw';
import { cullingScene } from '../examples/usage/three-culling.js';
import * as THREE from 'three';
import { cullInstances } from '../examples/usage/cull-instances.js';
import { mat4 } from 'gl-matrix';
import { drawnTexture } from './support/app-textures.js';
import { liveParticles } from '../examples/usage/browser-particles.js';
import { drawLiveParticles, liveParticlesVertexShader } from '../examples/usage/draw-from-gpu-count.js';
import { glStateItems } from '../src/gl-state.js';
import { testContext } from './support/engine.js';

function codeBlockAfter(marker: string, text = readme): string {
  const start = text.indexOf(marker);
  expect(start, `README marker ${marker}`).toBeGreaterThan(-1);
  const match = text.slice(start).match(/```js\n([\s\S]*?)```/);
  return match![1];
}

describe('README usage', () => {
  it('shows exactly the code of examples/usage/browser-particles.js and test/readme-usage.node.test.js', () => {
    expect(codeBlockAfter('<!-- usage: examples/usage/browser-particles.js -->')).toBe(browserUsage);
    expect(codeBlockAfter('<!-- usage: test/readme-usage.node.test.js -->')).toBe(nodeUsage);
    expect(codeBlockAfter('<!-- usage: examples/usage/draw-from-gpu-count.js -->')).toBe(drawUsage);
    expect(codeBlockAfter('<!-- usage: examples/usage/cull-instances.js -->')).toBe(cullUsage);
    expect(codeBlockAfter('<!-- usage: examples/usage/three-culling.js -->', threeRecipe)).toBe(threeUsage);
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

  it('the culling snippet keeps exactly the instances the CPU keeps, and their colours', async () => {
    const { gl, engine } = await testContext();
    const n = 64 * 64;
    // Exact in float32: integer centres and radii, an orthographic projection scaling by 1/32.
    const spheres = Float32Array.from({ length: 4 * n }, (_, k) => {
      const i = k >> 2;
      return [((i * 37) % 96) - 48, ((i * 53) % 96) - 48, ((i * 11) % 80) - 40, i % 4][k & 3]!;
    });
    const colors = Uint32Array.from({ length: 4 * n }, (_, k) => k * 7);
    const viewProj = mat4.ortho(mat4.create(), -32, 32, -32, 32, -32, 32);
    const hiddenAt = (i: number) => (Math.imul(i, 2654435761) >>> 30) === 0;
    const hidden = drawnTexture(gl, 'uint', '(k * 2654435761u >> 30u) == 0u ? 1u : 0u', 64);
    const sphereStream = engine.stream(spheres, { components: 4 });
    const colorStream = engine.stream(colors, { components: 4 });
    const kept = cullInstances(engine, { spheres: sphereStream, colors: colorStream, viewProj, radiusToClip: 1 / 32, hidden });
    const expected = Array.from({ length: n }, (_, i) => i).filter((i) => {
      const [x, y, z, r] = [0, 1, 2, 3].map((c) => spheres[4 * i + c]!);
      const reach = 1 + r / 32; // ortho: clip = (x/32, y/32, -z/32, 1)
      return Math.abs(x / 32) <= reach && Math.abs(y / 32) <= reach && Math.abs(z / 32) <= reach && !hiddenAt(i);
    });
    expect(expected.length).toBeGreaterThan(n / 8);
    expect(expected.length).toBeLessThan(n / 2);
    expect(await kept.spheres.readLength()).toBe(expected.length);
    expect(Array.from(await kept.spheres.read())).toEqual(expected.flatMap((i) => [0, 1, 2, 3].map((c) => spheres[4 * i + c]!)));
    expect(Array.from(await kept.colors.read())).toEqual(expected.flatMap((i) => [0, 1, 2, 3].map((c) => colors[4 * i + c]!)));
    kept.spheres.dispose();
    kept.colors.dispose();
    sphereStream.dispose();
    colorStream.dispose();
    gl.deleteTexture(hidden);
  });

  it('the three.js recipe culls to the frustum as THREE.Frustum does, draws what drawing every instance draws, and reads nothing back', async () => {
    const { platform } = await testContext();
    const size = 128;
    const count = 20_000;
    let canvas: HTMLCanvasElement;
    let destroy = () => {};
    if (platform === 'browser') {
      canvas = Object.assign(document.createElement('canvas'), { width: size, height: size });
    } else {
      // headless-gl's context behind the few canvas members three.js uses.
      const node = await import('../src/node.js');
      const gl = node.createHeadlessContext({ width: size, height: size });
      canvas = { width: size, height: size, style: {}, addEventListener() {}, removeEventListener() {}, getContext: () => gl } as unknown as HTMLCanvasElement;
      destroy = () => node.destroyHeadlessContext(gl);
    }
    const app = cullingScene(canvas, { count, width: size, height: size });
    const gl = app.renderer.getContext() as WebGL2RenderingContext;
    let readbacks = 0;
    for (const name of ['readPixels', 'getBufferSubData'] as const) {
      const original = (gl[name] as (...args: unknown[]) => unknown).bind(gl);
      (gl as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        readbacks += 1;
        return original(...args);
      };
    }
    const readPixels = () => {
      const pixels = new Uint8Array(size * size * 4);
      gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      return pixels;
    };
    // Each instance's row of the data, to tell which ones a compaction kept.
    const row = (values: ArrayLike<number>, i: number) => [0, 1, 2, 3].map((c) => values[4 * i + c]).join();
    const indexOf = new Map(Array.from({ length: count }, (_, i) => [row(app.data, i), i]));
    const frustum = new THREE.Frustum();
    const sphere = new THREE.Sphere();
    for (const seconds of [0, 0.8, 2.5]) {
      readbacks = 0;
      const visible = app.frame(seconds);
      expect(readbacks, 'readbacks during the frame').toBe(0);
      const culled = readPixels();
      // The CPU's culling by three.js's own frustum test; spheres within 1e-3 of a plane may go either way in float32.
      frustum.setFromProjectionMatrix(app.viewProj);
      const inside: number[] = [];
      const borderline = new Set<number>();
      for (let i = 0; i < count; i++) {
        sphere.set(new THREE.Vector3(app.data[4 * i], app.data[4 * i + 1], app.data[4 * i + 2]), app.data[4 * i + 3]!);
        const margin = Math.min(...frustum.planes.map((plane) => plane.distanceToPoint(sphere.center) + sphere.radius));
        if (Math.abs(margin) < 1e-3) borderline.add(i);
        else if (margin > 0) inside.push(i);
      }
      const kept = await visible.read();
      const keptIndices = Array.from({ length: kept.length / 4 }, (_, k) => indexOf.get(row(kept, k))!);
      expect(keptIndices.filter((i) => !borderline.has(i)), `frame at ${seconds} s: kept instances`).toEqual(inside);
      expect(inside.length).toBeGreaterThan(count / 50);
      expect(inside.length).toBeLessThan(count / 2);
      // Drawing every instance (the whole stream) gives the same pixels: the culled ones were off screen.
      app.mesh.material.uniforms.instances!.value.sourceTexture = app.instances.texture;
      app.mesh.material.uniforms.instanceCount!.value.sourceTexture = app.instances.lengthTexture;
      app.renderer.render(app.scene, app.camera);
      const all = readPixels();
      expect(culled.filter((_, k) => k % 4 === 0 && culled[k] !== 0).length, 'lit pixels').toBeGreaterThan(size);
      expect(culled.every((value, k) => value === all[k]), 'the same pixels').toBe(true);
      expect(gl.getError()).toBe(gl.NO_ERROR);
    }
    app.dispose();
    destroy();
  });
});
