// engine.gather() and engine.partition() (issue 21), against CPU references: lengths at word and
// row boundaries, 1 and 4 components, all three types, GPU-resident lengths.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine, Stream, StreamData } from '../src/index.js';
import { expectSameBits, testContext, testEngine } from './support/engine.js';

type Kind = 'float32' | 'uint32' | 'int32';
const kinds: Kind[] = ['float32', 'uint32', 'int32'];
const arrayOf = { float32: Float32Array, uint32: Uint32Array, int32: Int32Array } as const;

/** Random bits of every kind (NaN payloads, -0 and infinities included for floats: moved bit for bit). */
function randomData(kind: Kind, elements: number, components: number, seed: number): StreamData {
  const bits = Uint32Array.from({ length: elements * components }, (_, k) => {
    const x = Math.imul(k + 1, 2654435761) ^ Math.imul(seed, 40503);
    return (x ^ (x >>> 15)) >>> 0;
  });
  // Some zeros, so 'nonzero' keeps a mix; no float denormals: GLSL ES lets a GPU flush them to zero in
  // comparisons (llvmpipe does), so whether 'nonzero' keeps one is the GPU's call.
  for (let k = 0; k < bits.length; k += 3) bits[k] = 0;
  if (kind === 'float32') bits.forEach((b, k) => { if ((b & 0x7f800000) === 0) bits[k] = 0; });
  return new arrayOf[kind](bits.buffer);
}

/** Words of element i of `data` (components each). */
const wordsOf = (data: StreamData, components: number) => new Uint32Array(data.buffer, data.byteOffset, data.length);

/** Element-wise 'nonzero' as the engine defines it: any component non-zero, -0.0 counting as zero for floats. */
function nonzero(data: StreamData, components: number, i: number): boolean {
  for (let c = 0; c < components; c++) {
    const v = data[i * components + c]!;
    if (data instanceof Float32Array ? v !== 0 : v !== 0) return true;
  }
  return false;
}

const lengths = [1, 31, 32, 33, 2047, 2048, 2049, 4096 + 5];

describe('engine.gather(source, indices)', () => {
  it.each(kinds)('%s sources of 1 and 4 components; indices past the source read as zeros', async (kind) => {
    const engine = await testEngine();
    for (const components of [1, 4] as const) {
      for (const n of [1, 33, 2049]) {
        const data = randomData(kind, n, components, n);
        const source = engine.stream(data, { components });
        const m = n + 40;
        const idx = Uint32Array.from({ length: m }, (_, j) => (j % 7 === 0 ? n + j : (Math.imul(j, 2246822519) >>> 0) % n)); // some out of range
        if (m > 3) idx[3] = 0xffffffff;
        const indices = engine.stream(idx);
        const gathered = engine.gather(source, indices);
        expect(gathered.type).toBe(kind);
        expect(gathered.components).toBe(components);
        expect(gathered.length).toBe(m);
        const expected = new Uint32Array(m * components);
        const words = wordsOf(data, components);
        idx.forEach((i, j) => {
          if (i < n) for (let c = 0; c < components; c++) expected[j * components + c] = words[i * components + c]!;
        });
        expectSameBits(new Uint32Array((await gathered.read()).buffer), expected, `${kind} ×${components} n=${n}`);
        for (const s of [source, indices, gathered]) s.dispose();
      }
    }
  });

  it('indices from a compaction (their length on the GPU): selects several attribute streams by one predicate, no readback before read()', async () => {
    const engine = await testEngine();
    for (const n of lengths) {
      const life = Float32Array.from({ length: n }, (_, i) => ((i * 37) % 11) - 5);
      const positions = Float32Array.from({ length: 4 * n }, (_, k) => k * 0.5 - 3);
      const ids = Int32Array.from({ length: n }, (_, i) => -i);
      const lifeStream = engine.stream(life);
      const posStream = engine.stream(positions, { components: 4 });
      const idStream = engine.stream(ids);
      const alive = engine.compact(lifeStream, { keep: { greaterThan: 0 }, output: 'indices' });
      const gotPositions = engine.gather(posStream, alive.stream);
      const gotIds = engine.gather(idStream, alive.stream);
      alive.dispose(); // the gathered streams own copies of the length
      const kept = Array.from({ length: n }, (_, i) => i).filter((i) => life[i]! > 0);
      expect(await gotIds.readLength()).toBe(kept.length);
      expectSameBits(await gotIds.read(), Int32Array.from(kept, (i) => -i), `ids n=${n}`);
      expectSameBits(await gotPositions.read(), Float32Array.from(kept.flatMap((i) => [0, 1, 2, 3].map((c) => positions[4 * i + c]!))), `positions n=${n}`);
      for (const s of [lifeStream, posStream, idStream, gotPositions, gotIds]) s.dispose();
    }
  });

  it('a source whose length is on the GPU: indices past it read as zeros', async () => {
    const engine = await testEngine();
    const values = engine.stream(Uint32Array.from({ length: 100 }, (_, i) => (i % 4 === 0 ? 0 : i)));
    const nonzeroValues = engine.compact(values, { keep: 'nonzero' }); // 75 elements
    const indices = engine.stream(Uint32Array.from({ length: 80 }, (_, j) => j));
    const gathered = engine.gather(nonzeroValues.stream, indices);
    const expected = Uint32Array.from({ length: 80 }, (_, j) => (j < 75 ? Math.floor(j / 3) * 4 + (j % 3) + 1 : 0));
    expectSameBits(await gathered.read(), expected);
    for (const s of [values, indices, gathered]) s.dispose();
    nonzeroValues.dispose();
  });
});

describe('engine.partition(stream, { keep })', () => {
  async function checkPartition(engine: Engine, stream: Stream, data: StreamData, components: number, kept: (i: number) => boolean, label: string, lengthOnGpu = false) {
    const n = data.length / components;
    const order = [...Array.from({ length: n }, (_, i) => i).filter(kept), ...Array.from({ length: n }, (_, i) => i).filter((i) => !kept(i))];
    const keptCount = order.findIndex((i) => !kept(i));
    const values = engine.partition(stream, { keep: 'nonzero' });
    const indices = engine.partition(stream, { keep: 'nonzero', output: 'indices' });
    expect(values.stats.order).toBe('keep');
    if (lengthOnGpu) expect(() => values.stream.length).toThrow(/not known yet/);
    expect(await values.count(), label).toBe(keptCount === -1 ? n : keptCount);
    expect(await values.stream.readLength(), label).toBe(n);
    const words = wordsOf(data, components);
    expectSameBits(new Uint32Array((await values.read()).buffer), Uint32Array.from(order.flatMap((i) => Array.from({ length: components }, (_, c) => words[i * components + c]!))), `${label} values`);
    expectSameBits(await indices.read(), Uint32Array.from(order), `${label} indices`);
    expect(await indices.count()).toBe(await values.count());
    values.dispose();
    indices.dispose();
  }

  it.each(kinds)('%s streams of 1 and 4 components at word and row boundaries: kept first, then the rest, both in input order', async (kind) => {
    const engine = await testEngine();
    for (const components of [1, 4] as const) {
      for (const n of lengths) {
        const data = randomData(kind, n, components, n * components);
        const stream = engine.stream(data, { components });
        await checkPartition(engine, stream, data, components, (i) => nonzero(data, components, i), `${kind} ×${components} n=${n}`);
        stream.dispose();
      }
    }
  });

  it('all kept, none kept, and an input whose length is on the GPU', async () => {
    const engine = await testEngine();
    const ones = Uint32Array.from({ length: 3000 }, () => 1);
    const zeros = new Uint32Array(3000);
    for (const data of [ones, zeros]) {
      const stream = engine.stream(data);
      await checkPartition(engine, stream, data, 1, (i) => data[i] !== 0, data[0] ? 'all kept' : 'none kept');
      stream.dispose();
    }
    // A compaction's output, whose length stays on the GPU, holding zeros and nonzeros (values up to
    // 3 kept), so the partition has elements on both sides
    const source = Uint32Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? 0 : i % 5));
    const sourceStream = engine.stream(source);
    const compacted = engine.compact(sourceStream, { keep: { lessEqual: 3 } });
    const data = source.filter((v) => v <= 3);
    expect(data.some((v) => v === 0) && data.some((v) => v !== 0)).toBe(true);
    await checkPartition(engine, compacted.stream, Uint32Array.from(data), 1, (i) => data[i] !== 0, 'GPU-resident length', true);
    compacted.dispose();
    sourceStream.dispose();
  });

  it('countTexture holds the kept count on the GPU (a partition: where the rest starts), for draws with no readback', async () => {
    const { gl, engine } = await testContext();
    const stream = engine.stream(Uint32Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? 0 : i)));
    const split = engine.partition(stream, { keep: 'nonzero' });
    const compacted = engine.compact(stream, { keep: 'nonzero' });
    expect(compacted.countTexture).toBe(compacted.stream.lengthTexture);
    expect(split.countTexture).not.toBe(split.stream.lengthTexture);
    // the texel itself, read the way an app's own pass would see it
    const texel = new Uint32Array(4);
    const framebuffer = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, split.countTexture, 0);
    gl.readPixels(0, 0, 1, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, texel);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(framebuffer);
    expect(texel[0]).toBe(2000);
    expect(await split.count()).toBe(2000);
    for (const r of [split, compacted]) r.dispose();
    expect(() => split.countTexture).toThrow('result.countTexture: this result was disposed');
    stream.dispose();
  });

  it("disposing the result's stream frees the kept count with it; count() after says so", async () => {
    const engine = await testEngine();
    const stream = engine.stream(Uint32Array.from({ length: 3000 }, (_, i) => i % 2));
    engine.trim();
    const before = engine.resources;
    const result = engine.partition(stream, { keep: 'nonzero' });
    expect(await result.count()).toBe(1500);
    result.stream.dispose();
    engine.trim();
    expect(engine.resources).toEqual(before);
    await expect(result.count()).rejects.toThrow('result.count(): this result was disposed');
    stream.dispose();
  });

  it('a property: any uint32 data and any keep threshold', async () => {
    const engine = await testEngine();
    await fc.assert(
      fc.asyncProperty(fc.uint32Array({ minLength: 1, maxLength: 5000, size: 'max' }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), async (data, threshold) => {
        const stream = engine.stream(data);
        const result = engine.partition(stream, { keep: { greaterThan: threshold } });
        const expected = Uint32Array.from([...data.filter((v) => v > threshold), ...data.filter((v) => v <= threshold)]);
        expectSameBits(await result.read(), expected);
        expect(await result.count()).toBe(data.filter((v) => v > threshold).length);
        result.dispose();
        stream.dispose();
      }),
      { numRuns: 25, seed: 20261125 },
    );
  });
});
