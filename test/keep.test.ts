// The keep option: built-in predicates in each element type (exact for integers), NaN behaving as
// the GLSL comparison says, user GLSL with the element's index, and compile errors that quote the
// user's own line.
import { describe, expect, it } from 'vitest';
import type { Engine } from '../src/index.js';
import { expectSameBits, testEngine } from './support/engine.js';

async function kept(engine: Engine, data: Float32Array | Uint32Array | Int32Array, keep: Parameters<Engine['compact']>[1]['keep']) {
  const stream = engine.stream(data);
  const result = engine.compact(stream, { keep, algorithm: 'horn' });
  try {
    return await result.read();
  } finally {
    result.dispose();
    stream.dispose();
  }
}

describe('built-in predicates', () => {
  it('lessEqual / greaterThan on float32 compare in float32, like GLSL', async () => {
    const engine = await testEngine();
    const data = new Float32Array([0.1, 0.2, 0.3, -0, 0, NaN, Infinity, -Infinity, 0.19999999, 1e-45]);
    const p = 0.2;
    const fp = Math.fround(p);
    expectSameBits((await kept(engine, data, { lessEqual: p })) as Float32Array, data.filter((x) => x <= fp));
    expectSameBits((await kept(engine, data, { greaterThan: p })) as Float32Array, data.filter((x) => x > fp));
  });

  it('NaN is neither <= nor > any threshold (both predicates drop it)', async () => {
    const engine = await testEngine();
    const data = new Float32Array([NaN, 1, NaN]);
    expect(Array.from(await kept(engine, data, { lessEqual: 5 }))).toEqual([1]);
    expect(Array.from(await kept(engine, data, { greaterThan: -5 }))).toEqual([1]);
  });

  it('uint32 thresholds are exact past 2^24 and across the whole range', async () => {
    const engine = await testEngine();
    const data = new Uint32Array([0, 1, 2 ** 24, 2 ** 24 + 1, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1]);
    for (const p of [-1, 0, 0.5, 2 ** 24, 2 ** 24 + 0.5, 2 ** 31 + 3, 2 ** 32 - 2, 2 ** 32, 1e20]) {
      expectSameBits((await kept(engine, data, { lessEqual: p })) as Uint32Array, data.filter((x) => x <= p), `lessEqual ${p}`);
      expectSameBits((await kept(engine, data, { greaterThan: p })) as Uint32Array, data.filter((x) => x > p), `greaterThan ${p}`);
    }
  });

  it('int32 thresholds are exact, negative values included', async () => {
    const engine = await testEngine();
    const data = new Int32Array([-(2 ** 31), -5, -1, 0, 1, 2 ** 24 + 1, 2 ** 31 - 1]);
    for (const p of [-(2 ** 32), -(2 ** 31), -1.5, -1, 0, 2 ** 24, 2 ** 31 - 1, 2 ** 40]) {
      expectSameBits((await kept(engine, data, { lessEqual: p })) as Int32Array, data.filter((x) => x <= p), `lessEqual ${p}`);
      expectSameBits((await kept(engine, data, { greaterThan: p })) as Int32Array, data.filter((x) => x > p), `greaterThan ${p}`);
    }
  });

  it("'nonzero': any component non-zero; -0.0 is zero for floats", async () => {
    const engine = await testEngine();
    expect(Array.from(await kept(engine, new Float32Array([0, -0, 1, NaN, 0]), 'nonzero')).map(String)).toEqual(['1', 'NaN']);
    const vec4s = new Uint32Array([0, 0, 0, 0, 0, 0, 0, 9, 1, 0, 0, 0]);
    const stream = engine.stream(vec4s, { components: 4 });
    const result = engine.compact(stream, { keep: 'nonzero', algorithm: 'horn' });
    expect(Array.from(await result.read())).toEqual([0, 0, 0, 9, 1, 0, 0, 0]);
    result.dispose();
    stream.dispose();
  });
});

describe('user GLSL', () => {
  it('sees the value and the element index', async () => {
    const engine = await testEngine();
    const data = Float32Array.from({ length: 5000 }, (_, i) => i * 0.5);
    const got = await kept(engine, data, { glsl: 'return index % 3u == 0u && value.x < 2000.0;' });
    expectSameBits(got as Float32Array, data.filter((x, i) => i % 3 === 0 && x < 2000));
  });

  it('a compile error quotes the user line and marks it', async () => {
    const engine = await testEngine();
    const stream = engine.stream(new Float32Array(10));
    const snippet = 'float limit = 0.5;\nreturn value.x < limt;';
    let message = '';
    try {
      engine.compact(stream, { keep: { glsl: snippet } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/keep\.glsl does not compile/);
    expect(message).toMatch(/line 2: .*limt/);
    expect(message).toContain('> 2 | return value.x < limt;');
    expect(message).toContain('  1 | float limit = 0.5;');
    // the engine still works afterwards
    const result = engine.compact(stream, { keep: { glsl: 'return index < 3u;' } });
    expect(await result.count()).toBe(3);
    result.dispose();
    stream.dispose();
  });

  it.each([
    ['#define X 1\nreturn true;', /preprocessor/],
    ['outValue = uvec4(1u); return true;', /'outValue' is a name the engine's shader reserves/],
    ['return u_length > 0u;', /'u_length' uses the engine's u_ prefix/],
  ])('rejects snippets that reach into the engine: %s', async (snippet, pattern) => {
    const engine = await testEngine();
    const stream = engine.stream(new Float32Array(4));
    expect(() => engine.compact(stream, { keep: { glsl: snippet } })).toThrow(pattern);
    stream.dispose();
  });
});
