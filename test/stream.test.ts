// Streams hold exactly what was uploaded: bit-exact for every element type and component count,
// padding never visible, lengths from 0 to past a texture row.
import { describe, expect, it } from 'vitest';
import { trickyBits } from '../src/capabilities.js';
import { expectSameBits, testEngine } from './support/engine.js';
import { random } from './support/reference.js';

describe('stream round trip', () => {
  it.each([0, 1, 2, 2047, 2048, 2049, 70_001, 2 ** 20 + 3])('uint32, %i elements', async (n) => {
    const engine = await testEngine();
    const next = random(n);
    const data = Uint32Array.from({ length: n }, () => Math.floor(next() * 2 ** 32));
    if (n > 0) data[n - 1] = 0xffffffff;
    const stream = engine.stream(data);
    expect(stream.length).toBe(n);
    expectSameBits((await stream.read()) as Uint32Array, data);
    stream.dispose();
  });

  it('float32 bit patterns survive: NaN payloads, -0, denormals, infinities', async () => {
    const engine = await testEngine();
    const data = new Float32Array(trickyBits.buffer.slice(0));
    const stream = engine.stream(data);
    const back = await stream.read();
    expect(back).toBeInstanceOf(Float32Array);
    expectSameBits(back as Float32Array, data);
    stream.dispose();
  });

  it('int32 round trip keeps negatives', async () => {
    const engine = await testEngine();
    const data = new Int32Array([-(2 ** 31), -1, 0, 1, 2 ** 31 - 1]);
    const stream = engine.stream(data);
    const back = await stream.read();
    expect(back).toBeInstanceOf(Int32Array);
    expect(Array.from(back)).toEqual(Array.from(data));
    stream.dispose();
  });

  it('4-component streams', async () => {
    const engine = await testEngine();
    const data = Uint32Array.from({ length: 4 * 3001 }, (_, i) => (i * 2654435761) >>> 0);
    const stream = engine.stream(data, { components: 4 });
    expect(stream.length).toBe(3001);
    expectSameBits((await stream.read()) as Uint32Array, data);
    stream.dispose();
  });

  it('rows are a power of two at least 2048 wide, about square', async () => {
    const engine = await testEngine();
    for (const [n, width] of [[1, 2048], [2 ** 22, 2048], [2 ** 24, 4096]] as const) {
      const stream = engine.stream(new Uint32Array(n));
      expect(stream.layout.width).toBe(width);
      expect(stream.layout.height).toBe(Math.ceil(n / width));
      stream.dispose();
    }
  });

  it('read() returns arrays that own exactly their buffer (reads are packed four words to a texel and cut to length)', async () => {
    const engine = await testEngine();
    for (const n of [1, 3, 4, 5, 2047, 2049, 4096 + 3]) {
      for (const components of [1, 4] as const) {
        const data = Int32Array.from({ length: n * components }, (_, i) => (i * 2654435761) | 0);
        const read = await engine.stream(data, { components }).read();
        expect(read).toBeInstanceOf(Int32Array);
        expect(read.byteOffset).toBe(0);
        expect(read.buffer.byteLength, `n ${n}, ${components} components`).toBe(n * components * 4);
        expectSameBits(read, data, `n ${n}, ${components} components`);
        const kept = await engine.compact(engine.stream(data, { components }), { keep: 'nonzero', algorithm: 'horn', output: 'indices' }).read();
        expect(kept.buffer.byteLength).toBe(kept.length * 4);
      }
    }
  });
});

describe('stream.layout tells the truth about the length', () => {
  it('a compaction output: layout.length is the capacity while the count is on the GPU, the count once read', async () => {
    const engine = await testEngine();
    const stream = engine.stream(new Uint32Array([0, 7, 0, 0, 9, 4, 0]));
    expect(stream.layout.length).toBe(7);
    const kept = engine.compact(stream, { keep: 'nonzero' });
    expect(kept.stream.layout.length).toBe(kept.stream.layout.capacity);
    const sums = engine.scan(kept.stream); // made while the length is on the GPU
    expect(await kept.count()).toBe(3);
    expect(kept.stream.length).toBe(3);
    expect(kept.stream.layout.length).toBe(3);
    expect(kept.stream.layout.width).toBe(stream.layout.width);
    expect(kept.stream.layout).toBe(kept.stream.layout); // one object, not one per access
    expect(sums.layout.length).toBe(sums.layout.capacity);
    expect(await sums.readLength()).toBe(3);
    expect(sums.layout.length).toBe(3);
    expect(Array.from(await sums.read())).toEqual([7, 16, 20]);
    for (const object of [sums, kept, stream]) object.dispose();
  });
});
