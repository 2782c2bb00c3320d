// The keep option: built-in predicates in each element type (exact for integers), NaN behaving as
// the GLSL comparison says, user GLSL with the element's index, and compile errors that quote the
// user's own line. Every test runs twice: with Horn (the keep test in keep-flags.frag) and with the
// bitmask compaction (the same keep test, generated into keep-bitmask.frag, 32 elements a fragment);
// both keep input order, so both are compared exactly.
import { describe, expect, it } from 'vitest';
import type { Engine, Stream } from '../src/index.js';
import { expectSameBits, testEngine } from './support/engine.js';

type Algorithm = 'horn' | 'bitmask';

async function kept(engine: Engine, data: Float32Array | Uint32Array | Int32Array, keep: Parameters<Engine['compact']>[1]['keep'], algorithm: Algorithm) {
  const stream = engine.stream(data);
  const result = engine.compact(stream, { keep, algorithm });
  try {
    return await result.read();
  } finally {
    result.dispose();
    stream.dispose();
  }
}

describe.each(['horn', 'bitmask'] as const)('%s', (algorithm) => {
  describe('built-in predicates', () => {
    it('lessEqual / greaterThan on float32 compare in float32, like GLSL', async () => {
      const engine = await testEngine();
      const data = new Float32Array([0.1, 0.2, 0.3, -0, 0, NaN, Infinity, -Infinity, 0.19999999, 1e-45]);
      const p = 0.2;
      const fp = Math.fround(p);
      expectSameBits((await kept(engine, data, { lessEqual: p }, algorithm)) as Float32Array, data.filter((x) => x <= fp));
      expectSameBits((await kept(engine, data, { greaterThan: p }, algorithm)) as Float32Array, data.filter((x) => x > fp));
    });

    it('NaN is neither <= nor > any threshold (both predicates drop it)', async () => {
      const engine = await testEngine();
      const data = new Float32Array([NaN, 1, NaN]);
      expect(Array.from(await kept(engine, data, { lessEqual: 5 }, algorithm))).toEqual([1]);
      expect(Array.from(await kept(engine, data, { greaterThan: -5 }, algorithm))).toEqual([1]);
    });

    it('uint32 thresholds are exact past 2^24 and across the whole range', async () => {
      const engine = await testEngine();
      const data = new Uint32Array([0, 1, 2 ** 24, 2 ** 24 + 1, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1]);
      for (const p of [-1, 0, 0.5, 2 ** 24, 2 ** 24 + 0.5, 2 ** 31 + 3, 2 ** 32 - 2, 2 ** 32, 1e20]) {
        expectSameBits((await kept(engine, data, { lessEqual: p }, algorithm)) as Uint32Array, data.filter((x) => x <= p), `lessEqual ${p}`);
        expectSameBits((await kept(engine, data, { greaterThan: p }, algorithm)) as Uint32Array, data.filter((x) => x > p), `greaterThan ${p}`);
      }
    });

    it('int32 thresholds are exact, negative values included', async () => {
      const engine = await testEngine();
      const data = new Int32Array([-(2 ** 31), -5, -1, 0, 1, 2 ** 24 + 1, 2 ** 31 - 1]);
      for (const p of [-(2 ** 32), -(2 ** 31), -1.5, -1, 0, 2 ** 24, 2 ** 31 - 1, 2 ** 40]) {
        expectSameBits((await kept(engine, data, { lessEqual: p }, algorithm)) as Int32Array, data.filter((x) => x <= p), `lessEqual ${p}`);
        expectSameBits((await kept(engine, data, { greaterThan: p }, algorithm)) as Int32Array, data.filter((x) => x > p), `greaterThan ${p}`);
      }
    });

    it("'nonzero': any component non-zero; -0.0 is zero for floats", async () => {
      const engine = await testEngine();
      expect(Array.from(await kept(engine, new Float32Array([0, -0, 1, NaN, 0]), 'nonzero', algorithm)).map(String)).toEqual(['1', 'NaN']);
      const vec4s = new Uint32Array([0, 0, 0, 0, 0, 0, 0, 9, 1, 0, 0, 0]);
      const stream = engine.stream(vec4s, { components: 4 });
      const result = engine.compact(stream, { keep: 'nonzero', algorithm });
      expect(Array.from(await result.read())).toEqual([0, 0, 0, 9, 1, 0, 0, 0]);
      result.dispose();
      stream.dispose();
    });
  });

  describe('user GLSL', () => {
    it('sees the value and the element index', async () => {
      const engine = await testEngine();
      const data = Float32Array.from({ length: 5000 }, (_, i) => i * 0.5);
      const got = await kept(engine, data, { glsl: 'return index % 3u == 0u && value.x < 2000.0;' }, algorithm);
      expectSameBits(got as Float32Array, data.filter((x, i) => i % 3 === 0 && x < 2000));
    });

    it('a compile error quotes the user line and marks it', async () => {
      const engine = await testEngine();
      const stream = engine.stream(new Float32Array(10));
      const snippet = 'float limit = 0.5;\nreturn value.x < limt;';
      let message = '';
      try {
        engine.compact(stream, { keep: { glsl: snippet }, algorithm });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/keep\.glsl does not compile/);
      expect(message).toMatch(/line 2: .*limt/);
      expect(message).toContain('> 2 | return value.x < limt;');
      expect(message).toContain('  1 | float limit = 0.5;');
      // the engine still works afterwards
      const result = engine.compact(stream, { keep: { glsl: 'return index < 3u;' }, algorithm });
      expect(await result.count()).toBe(3);
      result.dispose();
      stream.dispose();
    });

    it.each([
      ['#define X 1\nreturn true;', /preprocessor/],
      ['outValue = uvec4(1u); return true;', /'outValue' is a name the engine's shader reserves/],
      ['return u_length > 0u;', /'u_length' is a name the engine's shader reserves/],
      ['return true; }\nbool f() { return true;', /closes keep\(\) early/],
    ])('rejects snippets that reach into the engine: %s', async (snippet, pattern) => {
      const engine = await testEngine();
      const stream = engine.stream(new Float32Array(4));
      expect(() => engine.compact(stream, { keep: { glsl: snippet }, algorithm })).toThrow(pattern);
      stream.dispose();
    });
  });

  describe('user GLSL sees the value in the stream\'s own type', () => {
    it('uint32: uvec4, exact past 2^24 and up to 2^32 - 1', async () => {
      const engine = await testEngine();
      const data = new Uint32Array([3, 2 ** 24, 2 ** 24 + 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 1, 2]);
      expectSameBits((await kept(engine, data, { glsl: 'return value.x == 16777217u;' }, algorithm)) as Uint32Array, Uint32Array.of(2 ** 24 + 1));
      expectSameBits((await kept(engine, data, { glsl: 'return value.x > 2u;' }, algorithm)) as Uint32Array, data.filter((x) => x > 2));
      expectSameBits((await kept(engine, data, { glsl: 'return value.x >= 0x80000001u;' }, algorithm)) as Uint32Array, data.filter((x) => x >= 2 ** 31 + 1));
      expectSameBits((await kept(engine, data, { glsl: 'return (value.x & 1u) == 1u;' }, algorithm)) as Uint32Array, data.filter((x) => x % 2 === 1));
    });

    it('int32: ivec4, exact for negative values and past 2^24', async () => {
      const engine = await testEngine();
      const data = new Int32Array([-(2 ** 31), -(2 ** 24) - 1, -(2 ** 24), -1, 0, 2 ** 24 + 1, 2 ** 31 - 1]);
      expectSameBits((await kept(engine, data, { glsl: 'return value.x == -16777217;' }, algorithm)) as Int32Array, Int32Array.of(-(2 ** 24) - 1));
      expectSameBits((await kept(engine, data, { glsl: 'return value.x < 0;' }, algorithm)) as Int32Array, data.filter((x) => x < 0));
      expectSameBits((await kept(engine, data, { glsl: 'return value.x == 2147483647 || value.x == -2147483647 - 1;' }, algorithm)) as Int32Array, Int32Array.of(-(2 ** 31), 2 ** 31 - 1));
    });

    it('1-component streams: the other components are 0, in every type', async () => {
      const engine = await testEngine();
      const u = new Uint32Array([1, 2 ** 32 - 1]);
      const i = new Int32Array([-1, 5]);
      const f = new Float32Array([-1.5, NaN]);
      expectSameBits((await kept(engine, u, { glsl: 'return value.yzw == uvec3(0u);' }, algorithm)) as Uint32Array, u);
      expectSameBits((await kept(engine, i, { glsl: 'return value.yzw == ivec3(0);' }, algorithm)) as Int32Array, i);
      expectSameBits((await kept(engine, f, { glsl: 'return value.yzw == vec3(0.0);' }, algorithm)) as Float32Array, f);
    });

    it('4-component streams: every component in its own type', async () => {
      const engine = await testEngine();
      const data = new Uint32Array([1, 2, 3, 2 ** 32 - 1, 1, 2, 3, 2 ** 32 - 2]);
      const stream = engine.stream(data, { components: 4 });
      const result = engine.compact(stream, { keep: { glsl: 'return value.w == 4294967295u && value.z == 3u;' }, algorithm });
      expect(Array.from(await result.read())).toEqual([1, 2, 3, 2 ** 32 - 1]);
      result.dispose();
      stream.dispose();
    });
  });

  describe('user GLSL with uniforms', () => {
    async function keptWith(engine: Engine, stream: Stream, glsl: string, uniforms: Record<string, number | number[]>) {
      const result = engine.compact(stream, { keep: { glsl, uniforms }, algorithm });
      try {
        return await result.read();
      } finally {
        result.dispose();
      }
    }

    it('float: a per-frame threshold by uniform compiles one program, and every value is honoured', async () => {
      const engine = await testEngine();
      const data = Float32Array.from({ length: 1000 }, (_, i) => i / 1000);
      const stream = engine.stream(data);
      await keptWith(engine, stream, 'return value.x > limit;', { limit: 0 });
      const programs = engine.resources.programs;
      for (let frame = 0; frame < 20; frame++) {
        const limit = frame / 20;
        expectSameBits((await keptWith(engine, stream, 'return value.x > limit;', { limit })) as Float32Array, data.filter((x) => x > Math.fround(limit)), `limit ${limit}`);
      }
      expect(engine.resources.programs).toBe(programs);
      stream.dispose();
    });

    it('uint: values past 2^31 arrive exactly (they travel as int bits), scalars and uvecN', async () => {
      const engine = await testEngine();
      const data = new Uint32Array([0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 2, 2 ** 32 - 1]);
      const stream = engine.stream(data);
      for (const [lo, hi] of [[2 ** 31, 2 ** 32 - 2], [2 ** 31 + 1, 2 ** 32 - 1], [0, 2 ** 31 - 1], [2 ** 32 - 1, 2 ** 32 - 1]]) {
        const expected = data.filter((x) => x >= lo && x <= hi);
        expectSameBits((await keptWith(engine, stream, 'return value.x >= lo && value.x <= hi;', { lo, hi })) as Uint32Array, expected, `scalars ${lo}..${hi}`);
        expectSameBits((await keptWith(engine, stream, 'return value.x >= range.x && value.x <= range.y;', { range: [lo, hi] })) as Uint32Array, expected, `uvec2 ${lo}..${hi}`);
      }
      expectSameBits((await keptWith(engine, stream, 'return value.x == m.w || value.x == m.z;', { m: [0, 0, 2 ** 31, 2 ** 32 - 1] })) as Uint32Array, Uint32Array.of(2 ** 31, 2 ** 32 - 1));
      stream.dispose();
    });

    it('int: negative values, scalars and ivecN', async () => {
      const engine = await testEngine();
      const data = new Int32Array([-(2 ** 31), -6, -5, -1, 0, 7, 2 ** 31 - 1]);
      const stream = engine.stream(data);
      for (const limit of [-(2 ** 31), -5, 0, 2 ** 31 - 1]) {
        expectSameBits((await keptWith(engine, stream, 'return value.x < limit;', { limit })) as Int32Array, data.filter((x) => x < limit), `limit ${limit}`);
      }
      expectSameBits((await keptWith(engine, stream, 'return value.x >= box.x && value.x <= box.y && box.z == -3;', { box: [-6, -1, -3] })) as Int32Array, Int32Array.of(-6, -5, -1));
      stream.dispose();
    });

    it('vec4 uniforms on 4-component float streams; the order of the names does not matter', async () => {
      const engine = await testEngine();
      const data = Float32Array.from({ length: 4 * 200 }, (_, k) => ((k * 37) % 101) / 10 - 5);
      const stream = engine.stream(data, { components: 4 });
      const inside = (lo: number[], hi: number[]) => {
        const out: number[] = [];
        for (let i = 0; i < 200; i++) {
          const v = data.subarray(i * 4, i * 4 + 4);
          if (v.every((x, c) => x >= Math.fround(lo[c]) && x <= Math.fround(hi[c]))) out.push(...v);
        }
        return Float32Array.from(out);
      };
      const glsl = 'return all(greaterThanEqual(value, lo)) && all(lessThanEqual(value, hi));';
      const lo = [-4, -4.5, -3, -5];
      const hi = [4, 3.3, 2, 1.25];
      expectSameBits((await keptWith(engine, stream, glsl, { lo, hi })) as Float32Array, inside(lo, hi));
      const programs = engine.resources.programs;
      expectSameBits((await keptWith(engine, stream, glsl, { hi: [5, 5, 5, 5], lo: [-1, -2, -3, -4] })) as Float32Array, inside([-1, -2, -3, -4], [5, 5, 5, 5]));
      expect(engine.resources.programs).toBe(programs);
      stream.dispose();
    });

    it('uniforms named like the keep passes\' own locals (word, first, texel, k, ...) reach the snippet', async () => {
      const engine = await testEngine();
      const data = Uint32Array.from({ length: 100 }, (_, i) => i);
      const stream = engine.stream(data);
      for (const name of ['word', 'first', 'texel', 'k', 'flag', 'sum']) {
        expectSameBits((await keptWith(engine, stream, `return value.x < ${name};`, { [name]: 7 })) as Uint32Array, data.filter((x) => x < 7), name);
      }
      stream.dispose();
    });

    it('a uniform value changed after the call does not reach the next call', async () => {
      const engine = await testEngine();
      const stream = engine.stream(new Uint32Array([1, 2, 3, 4]));
      const range = [2, 3];
      const keep = { glsl: 'return value.x >= range.x && value.x <= range.y;', uniforms: { range } };
      const result = engine.compact(stream, { keep, algorithm });
      range[1] = 4;
      expect(Array.from(await result.read())).toEqual([2, 3]);
      result.dispose();
      stream.dispose();
    });
  });

  describe('snippets are parsed, not pattern-matched', () => {
    it.each([
      ['$\' in a comment', "// it's $'\nreturn value.x > 1u;"],
      ['$& in a comment', '/* $& */ return value.x > 1u;'],
      ['$` in a comment', '// $` and $$ and $1\nreturn value.x > 1u;'],
      ['engine names in comments', '// main, u_length, u_values, outValue, COMPONENTS, keepElement\nreturn value.x > 1u; /* decodeValue */'],
      ['a directive in a block comment', '/*\n#define X 1\n#if 0\n*/\nreturn value.x > 1u;'],
      ['a # in a line comment', 'return value.x > 1u; // #1 rule'],
      ['braces in comments', '// }\n/* } } { */ return value.x > 1u;'],
      ['nested, balanced braces', 'if (value.x > 1u) { if (index < 100u) { return true; } }\nelse { return false; }\nreturn true;'],
      ['a struct in the body', 'struct Box { uint lo; uint hi; };\nBox b = Box(2u, 5u);\nreturn value.x >= b.lo;'],
      ['a backslash not ending a line, in a comment', '// a \\ b\nreturn value.x > 1u;'],
      ['Windows line ends', 'uint one = 1u;\r\nreturn value.x > one; // ok\r\n'],
    ])('%s', async (_, glsl) => {
      const engine = await testEngine();
      const data = new Uint32Array([0, 1, 2, 3, 4, 5]);
      expectSameBits((await kept(engine, data, { glsl }, algorithm)) as Uint32Array, data.filter((x) => x > 1));
    });

    it('a line continuation is refused by the engine before compiling (ANGLE in Chromium would splice it; headless-gl would not)', async () => {
      const engine = await testEngine();
      const stream = engine.stream(new Uint32Array(4));
      const programs = engine.resources.programs;
      expect(() => engine.compact(stream, { keep: { glsl: 'return value.x > 1u \\\n || index == 0u;' }, algorithm })).toThrow(/^keep\.glsl: line continuations are not allowed/);
      expect(engine.resources.programs).toBe(programs);
      stream.dispose();
    });
  });
});
