// stream.read() reads exactly the stream's words: one readPixels for the whole rows, one for the
// rest of the last row, the last texel of a packed stream through a scratch texel (src/adapter.ts
// readRegions). These cases put the edges of that split (length not a multiple of 4, of the width,
// shorter than a row, zero) under every element type, with NaN payloads at the cut, and check that
// the read moves no more than the stream's words and keeps the texture pool stable.
import { describe, expect, it } from 'vitest';
import { readRegions } from '../src/adapter.js';
import { trickyBits } from '../src/capabilities.js';
import { expectSameBits, testContext, testEngine } from './support/engine.js';

/** Words that are hard to carry: the tricky patterns (NaN payloads, -0, denormals, ±Inf) in turn, then a hash. */
function hardWords(words: number): Uint32Array {
  return Uint32Array.from({ length: words }, (_, i) => (i % 3 === 0 ? trickyBits[(i / 3) % trickyBits.length] : (i * 2654435761) >>> 0));
}

/** Bytes readPixels was asked to write while `body` ran (RGBA32UI texels: 16 bytes each). */
async function bytesRead(gl: WebGL2RenderingContext, body: () => Promise<unknown>): Promise<number> {
  // headless-gl's context keeps its methods as own properties, a browser's on the prototype.
  const target = gl as unknown as Record<string, (...args: unknown[]) => unknown>;
  const own = Object.prototype.hasOwnProperty.call(target, 'readPixels');
  const original = target.readPixels;
  let bytes = 0;
  target.readPixels = function (...args: unknown[]) {
    bytes += (args[2] as number) * (args[3] as number) * 16;
    return original.apply(gl, args);
  };
  try {
    await body();
  } finally {
    if (own) target.readPixels = original;
    else delete target.readPixels;
  }
  return bytes;
}

// Width 2048 for these lengths (layout.ts): a row is 2048 elements, 512 packed texels.
const lengths = [0, 1, 2, 3, 4, 5, 6, 7, 511, 2045, 2046, 2047, 2048, 2049, 2050, 2051, 2052, 4096 + 1, 3 * 2048 + 2, 70_001, 2 ** 20 + 3];

describe('stream.read() cuts exactly at the length', () => {
  it.each(lengths)('float32, int32 and uint32 streams of %i elements, bit-exact', async (n) => {
    const engine = await testEngine();
    const words = hardWords(n);
    for (const data of [new Float32Array(words.buffer.slice(0)), new Int32Array(words.buffer.slice(0)), words.slice()]) {
      const stream = engine.stream(data);
      const back = await stream.read();
      expect(back.constructor).toBe(data.constructor);
      expect(back.length).toBe(n);
      expect(back.byteOffset).toBe(0);
      expect(back.buffer.byteLength).toBe(4 * n);
      expectSameBits(back, data, `${data.constructor.name}, ${n} elements`);
      stream.dispose();
    }
  });

  it.each([0, 1, 2, 3, 2047, 2048, 2049, 3 * 2048 + 5])('vec4 streams of %i elements, bit-exact', async (n) => {
    const engine = await testEngine();
    const data = new Float32Array(hardWords(4 * n).buffer);
    const stream = engine.stream(data, { components: 4 });
    const back = await stream.read();
    expect(back).toBeInstanceOf(Float32Array);
    expect(back.buffer.byteLength).toBe(16 * n);
    expectSameBits(back, data, `vec4, ${n} elements`);
    stream.dispose();
  });

  it('a compaction output of any length reads its count first, then exactly that many words', async () => {
    const engine = await testEngine();
    const n = 3 * 2048 + 7;
    const words = hardWords(n);
    const data = new Float32Array(words.buffer);
    // keep by index below a limit: every count from 0 to n is reachable; these land on each residue
    // mod 4 and on both sides of a row.
    for (const kept of [0, 1, 2, 3, 4, 5, 2047, 2048, 2049, 2050, 4097, n]) {
      const stream = engine.stream(data);
      const result = engine.compact(stream, { keep: { glsl: 'return float(index) < limit;', uniforms: { limit: kept } }, algorithm: 'horn' });
      const back = await result.read();
      expect(back.buffer.byteLength, `${kept} kept`).toBe(4 * kept);
      expectSameBits(back, data.subarray(0, kept), `${kept} kept`);
      result.dispose();
      stream.dispose();
    }
  });

  it('moves no more than the stream words (plus at most one partial texel) through readPixels', async () => {
    const { gl, engine } = await testContext();
    for (const [n, components] of [[2 ** 20 + 3, 1], [2 ** 20, 1], [70_001, 1], [2049, 4], [5, 1]] as const) {
      const stream = engine.stream(new Uint32Array(n * components), { components });
      await stream.read(); // programs compiled, targets pooled
      const bytes = await bytesRead(gl, () => stream.read());
      const words = n * components;
      // The last texel is read whole (16 bytes) where fewer of its words are wanted; reads of at most
      // four one-word texels read them unpacked (16 bytes each).
      const allowed = n <= 4 ? 16 * n : 4 * words + 12;
      expect(bytes, `${n} elements × ${components}`).toBeGreaterThanOrEqual(4 * words);
      expect(bytes, `${n} elements × ${components}`).toBeLessThanOrEqual(allowed);
      stream.dispose();
    }
  });

  it('reading compaction outputs of changing lengths makes no new textures once the pool holds one of each', async () => {
    const engine = await testEngine();
    const n = 2 ** 16; // 2048 × 32
    const stream = engine.stream(Float32Array.from({ length: n }, (_, i) => i / n));
    const textures: number[] = [];
    // Counts of 17 to 32 rows: one packed-target height (32) for all of them.
    for (const p of [0.6, 0.9, 0.7, 1.0, 0.55, 0.8]) {
      const result = engine.compact(stream, { keep: { lessEqual: p } });
      await result.read();
      result.dispose();
      textures.push(engine.resources.textures);
    }
    expect(new Set(textures.slice(1)).size, `textures after each read: ${textures.join(', ')}`).toBe(1);
    stream.dispose();
  });
});

describe('readRegions', () => {
  it('one call for the whole rows, one for the rest of the next row, never past the words asked for', () => {
    expect(readRegions(512, 0)).toEqual([]);
    expect(readRegions(512, 3)).toEqual([{ y: 0, texels: 1, height: 1, offset: 0, words: 3 }]);
    expect(readRegions(512, 2048)).toEqual([{ y: 0, texels: 512, height: 1, offset: 0, words: 2048 }]);
    expect(readRegions(512, 2 * 2048 + 9)).toEqual([
      { y: 0, texels: 512, height: 2, offset: 0, words: 4096 },
      { y: 2, texels: 3, height: 1, offset: 4096, words: 9 },
    ]);
    for (const width of [1, 4, 512]) {
      for (let words = 0; words < 3 * width * 4 + 5; words++) {
        const regions = readRegions(width, words);
        expect(regions.reduce((sum, r) => sum + r.words, 0)).toBe(words);
        for (const r of regions) expect(r.texels * r.height * 4 - r.words).toBeLessThan(4);
      }
    }
  });
});

describe('stream.read(into)', () => {
  it('reads into the given array: itself when its length is exact, else a view of its start; the rest untouched', async () => {
    const engine = await testEngine();
    for (const n of [0, 1, 3, 5, 2049, 3 * 2048 + 2]) {
      const data = new Float32Array(hardWords(n).buffer);
      const stream = engine.stream(data);
      const exact = new Float32Array(n).fill(7);
      const back = await stream.read(exact);
      expect(back).toBe(exact);
      expectSameBits(back, data, `${n} elements, exact`);
      const roomy = new Float32Array(n + 9).fill(7);
      const view = await stream.read(roomy);
      expect(view.buffer).toBe(roomy.buffer);
      expect(view.byteOffset).toBe(0);
      expect(view.length).toBe(n);
      expectSameBits(view, data, `${n} elements, into a longer array`);
      expect(Array.from(roomy.subarray(n))).toEqual(new Array(9).fill(7));
      stream.dispose();
    }
  });

  it('int32, uint32 and vec4 streams, into a view at an offset of a larger buffer', async () => {
    const engine = await testEngine();
    const n = 2048 + 3;
    const words = hardWords(4 * n);
    const buffer = new ArrayBuffer(4 * (4 * n + 16));
    for (const [data, components] of [[new Int32Array(words.buffer, 0, n), 1], [words.subarray(0, n), 1], [new Int32Array(words.buffer), 4]] as const) {
      const stream = engine.stream(data, { components });
      const into = new (data.constructor as Int32ArrayConstructor)(buffer, 32, n * components + 1);
      const back = await stream.read(into as never);
      expect(back.byteOffset).toBe(32);
      expectSameBits(back, data, `${data.constructor.name} × ${components}`);
      stream.dispose();
    }
  });

  it('a compaction output: reads the count first, then into the reused array, frame after frame', async () => {
    const engine = await testEngine();
    const n = 3 * 2048 + 7;
    const data = Float32Array.from({ length: n }, (_, i) => (i * 0.618034) % 1);
    const stream = engine.stream(data);
    const reused = new Float32Array(n);
    for (const p of [0.5, 0.1, 0.9, 0]) {
      const result = engine.compact(stream, { keep: { lessEqual: p }, algorithm: 'horn' });
      const kept = await result.stream.read(reused);
      expect(kept.buffer).toBe(reused.buffer);
      expectSameBits(kept, data.filter((x) => x <= Math.fround(p)), `kept ≤ ${p}`);
      result.dispose();
    }
    stream.dispose();
  });

  it('refuses an array of another type, or too short, naming both; reads nothing then', async () => {
    const engine = await testEngine();
    const stream = engine.stream(new Float32Array([1, 2, 3, 4, 5]));
    await expect(stream.read(new Uint32Array(5) as never)).rejects.toThrow('stream.read(into): into must be a Float32Array (the stream\'s type is float32), or left out for a new array; got Uint32Array(5)');
    await expect(stream.read([0, 0, 0, 0, 0] as never)).rejects.toThrow('into must be a Float32Array');
    const short = new Float32Array(4).fill(9);
    await expect(stream.read(short)).rejects.toThrow("stream.read(into): into has room for 4 numbers; this stream's 5 elements × 1 components need 5");
    expect(Array.from(short)).toEqual([9, 9, 9, 9]);
    const vec4 = engine.stream(new Uint32Array(8), { components: 4 });
    await expect(vec4.read(new Uint32Array(7))).rejects.toThrow("into has room for 7 numbers; this stream's 2 elements × 4 components need 8");
    stream.dispose();
    vec4.dispose();
    await expect(stream.read(new Float32Array(5))).rejects.toThrow(/disposed/);
  });
});
