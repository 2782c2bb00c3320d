// createEngine(gl, { debug: true }) checks every draw: a uniform name its shaders do not declare
// (twgl would skip it silently and the pass would keep an old value), an incomplete framebuffer,
// and any GL error the draw raised. Off by default: no getError on the hot path.
import { describe, expect, it } from 'vitest';
import copyTexelFragment from '../glsl/copy-texel.frag';
import { createEngine } from '../src/index.js';
import { gpuOf } from '../src/internal.js';
import { testContext } from './support/engine.js';

async function debugEngine() {
  const { gl } = await testContext();
  return { gl, engine: createEngine(gl, { debug: true }) };
}

describe('debug mode', () => {
  it('a misspelt uniform throws, naming the pass, the uniform and the shader files', async () => {
    const { engine } = await debugEngine();
    const gpu = gpuOf(engine);
    const target = gpu.target(1, 1);
    const program = gpu.program({ name: 'copy-texel.frag', fragment: copyTexelFragment });
    expect(() => gpu.pass(program, target, { u_sourse: target.texture, u_texel: [0, 0] })).toThrow(
      /debug: pass copy-texel\.frag was given uniform 'u_sourse', which its shaders \(.*copy-texel\.frag.*\) do not declare; declared: .*u_source/,
    );
    target.free();
    engine.dispose();
  });

  it('is off by default: the same misspelling passes unchecked', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl);
    const gpu = gpuOf(engine);
    const target = gpu.target(1, 1);
    const program = gpu.program({ name: 'copy-texel.frag', fragment: copyTexelFragment });
    expect(() => gpu.pass(program, target, { u_sourse: target.texture, u_texel: [0, 0] })).not.toThrow();
    target.free();
    engine.dispose();
  });

  it('an incomplete framebuffer throws before the draw', async () => {
    const { gl, engine } = await debugEngine();
    const gpu = gpuOf(engine);
    const framebuffer = gl.createFramebuffer()!; // no attachment: incomplete
    const program = gpu.program({ name: 'copy-texel.frag', fragment: copyTexelFragment });
    expect(() => gpu.pass(program, { framebuffer, width: 4, height: 4 }, {})).toThrow(/debug: the target of pass copy-texel\.frag .* is an incomplete framebuffer/);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(framebuffer);
    engine.dispose();
  });

  it('a GL error raised by a draw throws, naming the pass', async () => {
    const { gl, engine } = await debugEngine();
    const gpu = gpuOf(engine);
    const target = gpu.target(4, 4);
    const program = gpu.program({ name: 'copy-texel.frag', fragment: copyTexelFragment });
    // A negative vertex count is INVALID_VALUE in every WebGL2 implementation.
    expect(() => gpu.draw({ program, target, uniforms: {}, primitive: 'lines', count: -1 })).toThrow(/debug: GL error INVALID_VALUE from pass copy-texel\.frag/);
    while (gl.getError() !== gl.NO_ERROR);
    target.free();
    engine.dispose();
  });

  it('raises no false alarm: every scan and compaction path runs clean and exact in debug mode', async () => {
    const { engine } = await debugEngine();
    const n = 5000;
    const data = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) % 7);
    const stream = engine.stream(data);
    const expectedKept = Array.from(data).filter((v) => v > 2);
    const concats = engine.caps.transformFeedback ? (['transform-feedback', 'vertex-fetch'] as const) : (['vertex-fetch'] as const);
    for (const concat of concats) {
      for (const algorithm of ['jumping-jack', 'horn', 'auto'] as const) {
        const result = engine.compact(stream, { keep: { greaterThan: 2 }, algorithm, concat, blockSize: 64 });
        const got = Array.from(await result.read());
        expect(algorithm === 'horn' ? got : got.sort()).toEqual(algorithm === 'horn' ? expectedKept : [...expectedKept].sort());
      }
    }
    const global = engine.compact(stream, { keep: { glsl: 'return value.x > limit;', uniforms: { limit: 2 } }, algorithm: 'horn', global: true });
    expect(Array.from(await global.read())).toEqual(expectedKept);
    for (const algorithm of ['histopyramid', 'bitmask'] as const) {
      for (const output of ['values', 'indices'] as const) {
        const result = engine.compact(stream, { keep: { glsl: 'return value.x > limit;', uniforms: { limit: 2 } }, algorithm, output });
        const want = output === 'values' ? expectedKept : Array.from(data.keys()).filter((i) => data[i] > 2);
        expect(Array.from(await result.read()), `${algorithm} ${output}`).toEqual(want);
      }
    }
    // the block compactions with reduce-then-scan as their block scan (its MAS variant)
    for (const algorithm of ['jumping-jack', 'horn'] as const) {
      for (const blockSize of [16, 256, 2048]) {
        const result = engine.compact(stream, { keep: { greaterThan: 2 }, algorithm, blockSize, scan: 'reduce-then-scan' });
        const got = Array.from(await result.read());
        expect(algorithm === 'horn' ? got : got.sort(), `${algorithm} block ${blockSize}, scan reduce-then-scan`).toEqual(algorithm === 'horn' ? expectedKept : [...expectedKept].sort());
      }
    }
    // a compaction's output (its length on the GPU) through the bitmask and reduce-then-scan
    const chained = engine.compact(stream, { keep: { greaterThan: 0 }, algorithm: 'horn' });
    const chainedKept = engine.compact(chained.stream, { keep: { greaterThan: 2 }, algorithm: 'bitmask' });
    expect(Array.from(await chainedKept.read()), 'bitmask of a GPU-length stream').toEqual(expectedKept);
    const chainedSums = await engine.scan(chained.stream, { algorithm: 'reduce-then-scan', blockSize: 64 }).read();
    const positive = Array.from(data).filter((v) => v > 0);
    expect(Array.from(chainedSums), 'reduce-then-scan of a GPU-length stream').toEqual(positive.map((_, i) => positive.slice(i - (i % 64), i + 1).reduce((a, b) => a + b, 0)));
    for (const algorithm of ['recursive-doubling', 'blelloch', 'reduce-then-scan'] as const) {
      for (const blockSize of [undefined, 16, 256, 2048]) {
        for (const exclusive of [false, true]) {
          const sums = await engine.scan(stream, { algorithm, exclusive, blockSize }).read();
          let sum = 0;
          const want = Array.from(data, (v, i) => (blockSize && i % blockSize === 0 && (sum = 0), (sum += v), exclusive ? sum - v : sum));
          expect(Array.from(sums), `${algorithm} block ${blockSize} exclusive ${exclusive}`).toEqual(want);
        }
      }
    }
    // float vec4 (FLOAT_VALUES programs): reduce-then-scan whole and segmented, the bitmask (sums of small integers: exact)
    const vec4s = Float32Array.from({ length: 4 * n }, (_, k) => (k * 2654435761) % 5);
    const floats = engine.stream(vec4s, { components: 4 });
    for (const blockSize of [undefined, 64]) {
      const sums = await engine.scan(floats, { algorithm: 'reduce-then-scan', blockSize }).read();
      const running = [0, 0, 0, 0];
      const want = Array.from(vec4s, (v, k) => (blockSize && (k >> 2) % blockSize === 0 && (running[k & 3] = 0), (running[k & 3] += v)));
      expect(Array.from(sums), `float vec4 reduce-then-scan block ${blockSize}`).toEqual(want);
    }
    const keptVec4s = await engine.compact(floats, { keep: { glsl: 'return value.y > 3.0;' }, algorithm: 'bitmask' }).read();
    expect(Array.from(keptVec4s), 'float vec4 bitmask').toEqual(Array.from(vec4s).filter((_, k) => vec4s[(k & ~3) + 1] > 3));
    engine.dispose();
  });
});
