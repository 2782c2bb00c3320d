// Bad input fails loudly and leaves nothing half-done. Every bad call must
//   1. throw (or reject) an Error whose message names the argument, what was given and what is allowed,
//   2. leave no GL object behind: engine.resources is identical before and after the bad call, and
//      an independent count of create*/delete* calls on the context itself nets to zero,
//   3. leave the engine working: a good compaction right after it gives the right answer (and
//      once it is freed and the pool trimmed, only the programs it compiled remain).
// Plus the defined results for empty streams, the texture-size limit (faked through
// getParameter), and float streams on a context without EXT_color_buffer_float.
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine, type Stream } from '../src/index.js';
import { ENGINE_VERSION } from '../src/tuning.js';
import { layoutFor } from '../src/layout.js';
import { countGlObjects, nonZero } from './support/gl-objects.js';
import { expectSameBits, testContext } from './support/engine.js';
import { applicableCompactOptions } from './support/options.js';

type Part = string | RegExp;

function expectMessage(message: string, parts: Part[]): void {
  for (const part of parts) {
    if (part instanceof RegExp) expect(message).toMatch(part);
    else expect(message).toContain(part);
  }
}

/** A good compaction, checked against the CPU: the engine still works. */
async function expectWorks(engine: Engine): Promise<void> {
  const data = Uint32Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? i + 1 : 0));
  const stream = engine.stream(data);
  const result = engine.compact(stream, { keep: 'nonzero', algorithm: 'horn' });
  expect(await result.count()).toBe(1000);
  expectSameBits((await result.read()) as Uint32Array, data.filter((v) => v !== 0), 'good compaction after the bad call');
  result.dispose();
  stream.dispose();
}

/** Runs `bad`, which must throw or reject; checks the message, that nothing leaked, and that `engine` still works. Returns the message. */
async function expectCleanFailure(gl: WebGL2RenderingContext, engine: Engine, bad: () => unknown, ...parts: Part[]): Promise<string> {
  engine.trim(); // idle pooled textures would hide a target taken and returned by the bad call
  const before = engine.resources;
  const counter = countGlObjects(gl);
  let message: string | undefined;
  try {
    await bad();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    message = (error as Error).message;
  } finally {
    counter.restore();
  }
  if (message === undefined) throw new Error('the bad call did not throw');
  expectMessage(message, parts);
  expect(engine.resources, `engine.resources after: ${message}`).toEqual(before);
  expect(nonZero(counter.live), `GL objects left on the context by: ${message}`).toEqual({});
  await expectWorks(engine);
  engine.trim();
  expect({ ...engine.resources, programs: 0 }).toEqual({ ...before, programs: 0 });
  return message;
}

let input: Stream | undefined;
/** A 10,000-element uint32 stream that the option-error tests pass around. */
async function shared(): Promise<{ gl: WebGL2RenderingContext; engine: Engine; stream: Stream }> {
  const { gl, engine } = await testContext();
  input ??= engine.stream(Uint32Array.from({ length: 10_000 }, (_, i) => i % 3));
  return { gl, engine, stream: input };
}

/** Wraps gl.getParameter so that MAX_TEXTURE_SIZE reads `size`, for an engine created inside `body`. */
async function withMaxTextureSize<T>(gl: WebGL2RenderingContext, size: number, body: () => Promise<T>): Promise<T> {
  const original = gl.getParameter;
  const hadOwn = Object.prototype.hasOwnProperty.call(gl, 'getParameter');
  (gl as { getParameter: (p: number) => unknown }).getParameter = (p: number) => (p === gl.MAX_TEXTURE_SIZE ? size : original.call(gl, p));
  try {
    return await body();
  } finally {
    if (hadOwn) gl.getParameter = original;
    else delete (gl as { getParameter?: unknown }).getParameter;
  }
}

describe('createEngine(gl): not a WebGL2 context', () => {
  const allowed = "gl must be a WebGL2RenderingContext (canvas.getContext('webgl2'))";
  it.each([
    ['{}', {}, 'got an object with keys {}'],
    ['null', null, 'got null'],
    ['undefined', undefined, 'got undefined'],
    ['a number', 1, 'got 1'],
    ['a WebGL1-like object', { texImage2D() {}, createTexture() {}, getExtension: () => null, drawArrays() {} }, 'got an object with keys {texImage2D, createTexture, getExtension, drawArrays}'],
  ])('%s', async (_, value, given) => {
    const { gl, engine } = await testContext();
    await expectCleanFailure(gl, engine, () => createEngine(value as unknown as WebGL2RenderingContext), 'createEngine(gl)', allowed, given);
  });

  it('a real WebGL1 context', async () => {
    const { gl, engine } = await testContext();
    let webgl1: WebGLRenderingContext;
    let destroy = () => {};
    if (typeof document !== 'undefined') {
      webgl1 = document.createElement('canvas').getContext('webgl')!;
    } else {
      // headless-gl's WebGL1 context has the WebGL2 methods on its prototype, but not the API behind them
      const { createRequire } = await import('node:module');
      const createGL = createRequire(import.meta.url)('gl') as (w: number, h: number) => WebGLRenderingContext;
      webgl1 = createGL(1, 1);
      destroy = () => (webgl1.getExtension('STACKGL_destroy_context') as { destroy(): void } | null)?.destroy();
    }
    expect(webgl1).toBeTruthy();
    const counter = countGlObjects(webgl1 as WebGL2RenderingContext);
    try {
      await expectCleanFailure(gl, engine, () => createEngine(webgl1 as WebGL2RenderingContext), 'createEngine(gl)', allowed, 'got a WebGLRenderingContext');
      expect(nonZero(counter.live), 'GL objects left on the WebGL1 context').toEqual({});
    } finally {
      counter.restore();
      destroy();
    }
  });

  it.each<[unknown, string[]]>([
    [{ texturePoolBytes: -1 }, ['options.texturePoolBytes', 'got -1', 'a number of bytes >= 0']],
    [{ texturePoolBytes: '1' }, ['options.texturePoolBytes', 'got "1"', 'a number of bytes >= 0']],
    [{ poolBytes: 5 }, ['createEngine(gl, options)', 'unknown option(s) poolBytes', 'allowed: texturePoolBytes']],
    [{ debug: 'yes' }, ['createEngine(gl, options): options.debug must be a boolean', 'got "yes"']],
    [{ preserveState: 0 }, ['createEngine(gl, options): options.preserveState must be a boolean', 'got 0']],
    ['big', ['createEngine(gl, options)', 'got "big"', 'an options object']],
    [{ maxTexureSize: 8192 }, ['createEngine(gl, options)', 'unknown option(s) maxTexureSize', 'allowed: texturePoolBytes, debug, preserveState, maxTextureSize']],
    ...[4096.5, NaN, 0, -4096, 1024, Infinity, '8192', null].map((size): [unknown, string[]] => [
      { maxTextureSize: size },
      ["createEngine(gl, options): options.maxTextureSize must be an integer number of texels from 2048 to the context's MAX_TEXTURE_SIZE", `got ${typeof size === 'string' ? JSON.stringify(size) : String(size)}`],
    ]),
  ])('bad options %j', async (options, parts) => {
    const { gl, engine } = await testContext();
    await expectCleanFailure(gl, engine, () => createEngine(gl, options as never), ...parts);
  });

  it('maxTextureSize above the context\'s MAX_TEXTURE_SIZE names both numbers', async () => {
    const { gl, engine } = await testContext();
    const contextMax = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    for (const asked of [contextMax + 1, 2 * contextMax]) {
      await expectCleanFailure(gl, engine, () => createEngine(gl, { maxTextureSize: asked }),
        `createEngine(gl, options): options.maxTextureSize ${asked} is above this context's MAX_TEXTURE_SIZE ${contextMax}; allowed: 2048 to ${contextMax}`);
    }
  });
});

describe('engine.stream(data): wrong data', () => {
  const allowed = 'data must be a Float32Array, Uint32Array or Int32Array';
  it.each([
    ['Float64Array', () => new Float64Array(3), 'got Float64Array(3)'],
    ['plain Array', () => [1, 2, 3], 'got an Array(3)'],
    ['Uint8Array', () => new Uint8Array(4), 'got Uint8Array(4)'],
    ['Int16Array', () => new Int16Array(2), 'got Int16Array(2)'],
    ['ArrayBuffer', () => new ArrayBuffer(8), 'got an ArrayBuffer'],
    ['DataView', () => new DataView(new ArrayBuffer(8)), 'got DataView(8 bytes)'],
    ['nothing', () => undefined, 'got undefined'],
  ])('%s', async (_, make, given) => {
    const { gl, engine } = await shared();
    await expectCleanFailure(gl, engine, () => engine.stream(make() as never), 'engine.stream(data)', allowed, given);
  });

  it.each([
    [new Uint32Array(5), { components: 4 }, ['data.length', 'got 5', 'a multiple of options.components (4)']],
    [new Float32Array(6), { components: 4 }, ['data.length', 'got 6', 'a multiple of options.components (4)']],
    [new Uint32Array(6), { components: 3 }, ['options.components', 'got 3', 'must be 1 or 4']],
    [new Uint32Array(6), { components: '4' }, ['options.components', 'got "4"', 'must be 1 or 4']],
    [new Uint32Array(6), 4, ['engine.stream(data, options)', 'got 4', 'an options object']],
    [new Uint32Array(6), { component: 4 }, ['engine.stream(data, options)', 'unknown option(s) component', 'allowed: components']],
  ])('%o with options %j', async (data, options, parts) => {
    const { gl, engine } = await shared();
    await expectCleanFailure(gl, engine, () => engine.stream(data, options as never), ...parts);
  });
});

describe('empty streams have defined results', () => {
  it('an empty stream reads back empty, in its own type', async () => {
    const { engine } = await shared();
    for (const data of [new Float32Array(0), new Uint32Array(0), new Int32Array(0)]) {
      for (const components of [1, 4] as const) {
        const stream = engine.stream(data, { components });
        expect(stream.length).toBe(0);
        expect(await stream.readLength()).toBe(0);
        const back = await stream.read();
        expect(back).toBeInstanceOf(data.constructor);
        expect(back.length).toBe(0);
        stream.dispose();
      }
    }
  });

  it('scans of an empty stream are empty (global and segmented, both algorithms, inclusive and exclusive)', async () => {
    const { engine } = await shared();
    for (const data of [new Float32Array(0), new Uint32Array(0)]) {
      const stream = engine.stream(data);
      for (const algorithm of ['recursive-doubling', 'blelloch'] as const) {
        for (const exclusive of [false, true]) {
          for (const blockSize of [undefined, 16, 2048]) {
            const scanned = engine.scan(stream, { algorithm, exclusive, blockSize });
            expect(scanned.length).toBe(0);
            const back = await scanned.read();
            expect(back.length, `${algorithm} exclusive=${exclusive} blockSize=${blockSize}`).toBe(0);
            expect(back).toBeInstanceOf(data.constructor);
            scanned.dispose();
          }
        }
      }
      stream.dispose();
    }
  });

  it('compacting an empty stream gives count 0 and an empty read, on every path', async () => {
    const { engine } = await shared();
    const stream = engine.stream(new Float32Array(0), { components: 4 });
    const concats = engine.caps.transformFeedback ? (['vertex-fetch', 'transform-feedback'] as const) : (['vertex-fetch'] as const);
    for (const [algorithm, global] of [['jumping-jack', false], ['horn', false], ['auto', false], ['horn', true], ['histopyramid', false]] as const) {
      for (const concat of concats) {
        for (const output of ['values', 'indices'] as const) {
          const label = `${algorithm}${global ? ' global' : ''} ${concat} ${output}`;
          const result = engine.compact(stream, applicableCompactOptions({ keep: { glsl: 'return true;' }, algorithm, global, concat, output }));
          expect(await result.count(), label).toBe(0);
          const back = await result.read();
          expect(back.length, label).toBe(0);
          expect(back).toBeInstanceOf(output === 'indices' ? Uint32Array : Float32Array);
          // and its output (length 0 on the GPU) chains into another compaction and a scan
          const again = engine.compact(result.stream, { keep: 'nonzero' });
          expect(await again.count(), `${label}, compacted again`).toBe(0);
          const scanned = engine.scan(result.stream);
          expect((await scanned.read()).length, `${label}, scanned`).toBe(0);
          again.dispose();
          scanned.dispose();
          result.dispose();
        }
      }
    }
    stream.dispose();
  });
});

describe('streams longer than the texture limit', () => {
  it('layoutFor() accepts maxTextureSize² elements and refuses one more', () => {
    for (const max of [16, 2048, 16384]) {
      expect(layoutFor(max * max, max).capacity).toBe(max * max);
      expect(() => layoutFor(max * max + 1, max)).toThrow(
        `stream length ${max * max + 1} exceeds the texture limit: at most ${max}² = ${max * max} elements fit (maxTextureSize ${max})`,
      );
    }
  });

  it('engine.stream() names the data, its length and the limit (MAX_TEXTURE_SIZE faked to 2048)', async () => {
    const { gl } = await testContext();
    await withMaxTextureSize(gl, 2048, async () => {
      const small = createEngine(gl);
      try {
        expect(small.caps.maxTextureSize).toBe(2048);
        expect(small.caps.contextMaxTextureSize).toBe(2048);
        const tooLong = new Uint32Array(2048 * 2048 + 1);
        await expectCleanFailure(gl, small, () => small.stream(tooLong), 'engine.stream(data)', 'got 4194305 elements', "at most 2048² = 4194304 elements fit (maxTextureSize 2048, the context's MAX_TEXTURE_SIZE: no longer stream fits on this device)");
        await expectCleanFailure(gl, small, () => small.stream(new Float32Array(4 * (2048 * 2048 + 1)), { components: 4 }), 'engine.stream(data)', 'got 4194305 elements', 'at most 2048² = 4194304');
      } finally {
        small.dispose();
      }
    });
  });

  it('a block larger than the row width is refused (MAX_TEXTURE_SIZE faked to 1024: rows of 1024)', async () => {
    const { gl } = await testContext();
    await withMaxTextureSize(gl, 1024, async () => {
      const small = createEngine(gl);
      try {
        const stream = small.stream(Uint32Array.from({ length: 5000 }, (_, i) => i % 2));
        expect(stream.layout.width).toBe(1024);
        for (const bad of [() => small.compact(stream, { keep: 'nonzero', blockSize: 2048 }), () => small.scan(stream, { blockSize: 2048 })]) {
          await expectCleanFailure(gl, small, bad, 'options.blockSize', '2048', "larger than the stream's row width 1024");
        }
        // the largest block that fits still works there
        const result = small.compact(stream, { keep: 'nonzero', blockSize: 1024, algorithm: 'horn', output: 'indices' });
        expectSameBits((await result.read()) as Uint32Array, Uint32Array.from({ length: 2500 }, (_, i) => 2 * i + 1));
        result.dispose();
        stream.dispose();
      } finally {
        small.dispose();
      }
    });
  });
});

describe('engine.compact() and engine.scan(): bad options', () => {
  const blockSizeAllowed = 'must be a power of two from 16 to 2048';
  it.each([100, 8, 4096, 0, -16, 256.5, '256', NaN, Infinity, null])('blockSize %s', async (blockSize) => {
    const { gl, engine, stream } = await shared();
    const given = `got ${typeof blockSize === 'string' ? JSON.stringify(blockSize) : String(blockSize)}`;
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: 'nonzero', blockSize: blockSize as number }), 'engine.compact(): options.blockSize', blockSizeAllowed, given);
    await expectCleanFailure(gl, engine, () => engine.scan(stream, { blockSize: blockSize as number }), 'engine.scan(): options.blockSize', blockSizeAllowed, given);
  });

  it.each([
    [{ algorithm: 'bitmask', blockSize: 64 }, "options.blockSize does not apply to algorithm 'bitmask', which has no blocks"],
    [{ algorithm: 'histopyramid', concat: 'vertex-fetch' }, "options.concat does not apply to algorithm 'histopyramid', which has no blocks"],
    [{ algorithm: 'horn', global: true, blockSize: 64 }, "options.blockSize does not apply to algorithm 'horn' with global: true, which has no blocks"],
    [{ algorithm: 'bitmask', scan: 'blelloch' }, "options.scan does not apply to algorithm 'bitmask', which runs its own passes"],
    [{ algorithm: 'histopyramid', radix: 8 }, 'options.radix applies to recursive-doubling scans only', "algorithm 'histopyramid' runs no scan of that kind"],
    [{ algorithm: 'horn', blockSize: 256, radix: 8 }, 'options.radix applies to recursive-doubling scans only', "this compaction scans with 'blelloch' (add scan: 'recursive-doubling')"],
    [{ radix: 8 }, 'options.radix applies to recursive-doubling scans only'],
  ] as Array<[object, ...string[]]>)('an option the path does not use: %j', async (options, ...parts) => {
    const { gl, engine, stream } = await shared();
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: 'nonzero', ...options }), 'engine.compact(): ', ...parts);
  });

  it('scan: radix with another algorithm than recursive doubling', async () => {
    const { gl, engine, stream } = await shared();
    await expectCleanFailure(gl, engine, () => engine.scan(stream, { algorithm: 'blelloch', radix: 8 }), "engine.scan(): options.radix applies to algorithm 'recursive-doubling' only; this scan is 'blelloch'");
    await expectCleanFailure(gl, engine, () => engine.scan(stream, { radix: 8 }), "engine.scan(): options.radix applies to algorithm 'recursive-doubling' only", "(the default here): add algorithm: 'recursive-doubling'");
  });

  it('stats report scan and radix only where the path used them', async () => {
    const { engine, stream } = await shared();
    const expectations: Array<[object, unknown, unknown]> = [
      [{ algorithm: 'bitmask' }, undefined, undefined],
      [{ algorithm: 'histopyramid' }, undefined, undefined],
      [{ algorithm: 'horn', blockSize: 256 }, 'blelloch', undefined],
      [{ algorithm: 'horn', blockSize: 16 }, 'recursive-doubling', 4],
      [{ algorithm: 'horn', scan: 'recursive-doubling', radix: 8 }, 'recursive-doubling', 8],
      [{ algorithm: 'horn', global: true }, 'blelloch', undefined],
    ];
    for (const [options, scan, radix] of expectations) {
      const result = engine.compact(stream, { keep: 'nonzero', ...options });
      expect(result.stats.scan, JSON.stringify(options)).toBe(scan);
      expect(result.stats.radix, JSON.stringify(options)).toBe(radix);
      result.dispose();
    }
    engine.scan(stream, { algorithm: 'reduce-then-scan' }).dispose();
    expect(engine.lastScanStats?.radix).toBeUndefined();
  });

  it.each([3, 32, 1, '4', 4.5])('radix %s', async (radix) => {
    const { gl, engine, stream } = await shared();
    const given = `got ${typeof radix === 'string' ? JSON.stringify(radix) : radix}`;
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: 'nonzero', radix: radix as number }), 'engine.compact(): options.radix', 'must be one of 2, 4, 8, 16', given);
    await expectCleanFailure(gl, engine, () => engine.scan(stream, { algorithm: 'recursive-doubling', radix: radix as number }), 'engine.scan(): options.radix', 'must be one of 2, 4, 8, 16', given);
  });

  it.each([
    ['algorithm', { algorithm: 'jj' }, ["options.algorithm must be one of 'jumping-jack', 'horn', 'histopyramid', 'bitmask', 'auto'", 'got "jj"']],
    ['algorithm (case)', { algorithm: 'Horn' }, ["options.algorithm must be one of 'jumping-jack', 'horn', 'histopyramid', 'bitmask', 'auto'", 'got "Horn"']],
    ['algorithm (internal path name)', { algorithm: 'horn-global' }, ["options.algorithm must be one of 'jumping-jack', 'horn', 'histopyramid', 'bitmask', 'auto'", 'got "horn-global"']],
    ['concat', { concat: 'tf' }, ["options.concat must be one of 'transform-feedback', 'vertex-fetch', 'auto'", 'got "tf"']],
    ['output', { output: 'value' }, ["options.output must be one of 'values', 'indices'", 'got "value"']],
    ['scan', { scan: 'hillis-steele' }, ["options.scan must be one of 'recursive-doubling', 'blelloch', 'reduce-then-scan'", 'got "hillis-steele"']],
    ['global (type)', { global: 'yes' }, ['options.global must be a boolean', 'got "yes"']],
    ['global with jumping-jack', { global: true, algorithm: 'jumping-jack' }, ["options.global applies to algorithm 'horn' only", 'got algorithm "jumping-jack"']],
    ['global with auto', { global: true }, ["options.global applies to algorithm 'horn' only", "got algorithm 'auto' (the default): add algorithm: 'horn'"]],
    ['global with histopyramid', { global: true, algorithm: 'histopyramid' }, ["options.global applies to algorithm 'horn' only", 'got algorithm "histopyramid"']],
    ['an unknown option (typo)', { algorithim: 'horn' }, ['engine.compact(stream, options)', 'unknown option(s) algorithim', 'allowed: keep, algorithm, order, blockSize, global, concat, output, scan, radix']],
    ['options not an object', 'horn', ['engine.compact(stream, options)', 'got "horn"', 'an options object']],
  ])('compact %s', async (_, options, parts) => {
    const { gl, engine, stream } = await shared();
    const opts = typeof options === 'object' ? { keep: 'nonzero', ...options } : options;
    await expectCleanFailure(gl, engine, () => engine.compact(stream, opts as never), ...parts);
  });

  it("concat 'transform-feedback' where the probe found it broken (createTransformFeedback faked to fail)", async () => {
    const { gl } = await shared();
    // Both test platforms capture, so the probe is made to fail. headless-gl keeps some methods as
    // own properties of the context: put back exactly what was there.
    const broken = gl as unknown as Record<string, unknown>;
    const hadOwn = Object.prototype.hasOwnProperty.call(broken, 'createTransformFeedback');
    const original = broken.createTransformFeedback;
    broken.createTransformFeedback = () => null;
    let engine: Engine;
    try {
      engine = createEngine(gl);
    } finally {
      if (hadOwn) broken.createTransformFeedback = original;
      else delete broken.createTransformFeedback;
    }
    expect(engine.caps.transformFeedback).toBe(false);
    const stream = engine.stream(new Uint32Array([0, 1, 2]));
    expect(engine.compact(stream, { keep: 'nonzero', blockSize: 256 }).stats.concat).toBe('vertex-fetch');
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: 'nonzero', concat: 'transform-feedback' }),
      "options.concat 'transform-feedback' is not available", 'engine.caps.transformFeedback is false', "use 'vertex-fetch' or 'auto'");
    engine.dispose();
  });

  it.each([
    ['algorithm', { algorithm: 'kogge-stone' }, ["engine.scan(): options.algorithm must be one of 'recursive-doubling', 'blelloch', 'reduce-then-scan'", 'got "kogge-stone"']],
    ['exclusive', { exclusive: 'yes' }, ['engine.scan(): options.exclusive must be a boolean', 'got "yes"']],
    ['an unknown option', { inclusive: false }, ['engine.scan(stream, options)', 'unknown option(s) inclusive', 'allowed: algorithm, exclusive, blockSize, radix']],
    ['options not an object', true, ['engine.scan(stream, options)', 'got true', 'an options object']],
  ])('scan %s', async (_, options, parts) => {
    const { gl, engine, stream } = await shared();
    await expectCleanFailure(gl, engine, () => engine.scan(stream, options as never), ...parts);
  });
});

describe('engine.compact(): keep of the wrong shape', () => {
  const allowed = "options.keep must be 'nonzero', { lessEqual: number }, { greaterThan: number }, { flags: Stream } or { glsl: string, uniforms?: { name: number | number[] }, streams?: { name: Stream }, textures?: { name: { texture, type } } }";
  it.each([
    ['missing', { keep: undefined }, [allowed, 'got undefined']],
    ['a number', { keep: 5 }, [allowed, 'got 5']],
    ['a misspelt string', { keep: 'nonZero' }, [allowed, 'got "nonZero"']],
    ['null', { keep: null }, [allowed, 'got null']],
    ['an array', { keep: [1] }, [allowed, 'got an Array(1)']],
    ['{ foo: 1 }', { keep: { foo: 1 } }, [allowed, 'got an object with keys {foo}']],
    ['two keys', { keep: { lessEqual: 1, greaterThan: 0 } }, [allowed, 'got an object with keys {lessEqual, greaterThan}']],
    ['uniforms without glsl', { keep: { uniforms: { a: 1 } } }, [allowed, 'got an object with keys {uniforms}']],
    ['glsl with a misspelt key', { keep: { glsl: 'return true;', uniform: { a: 1 } } }, [allowed, 'got an object with keys {glsl, uniform}']],
    ["{ lessEqual: 'a' }", { keep: { lessEqual: 'a' } }, ['options.keep.lessEqual must be a finite number', 'got "a"']],
    ['{ lessEqual: NaN }', { keep: { lessEqual: NaN } }, ['options.keep.lessEqual must be a finite number', 'got NaN']],
    ['{ greaterThan: Infinity }', { keep: { greaterThan: Infinity } }, ['options.keep.greaterThan must be a finite number', 'got Infinity']],
    ['{ lessEqual: -Infinity }', { keep: { lessEqual: -Infinity } }, ['options.keep.lessEqual must be a finite number', 'got -Infinity']],
    ['{ greaterThan: 1n }', { keep: { greaterThan: 1n } }, ['options.keep.greaterThan must be a finite number', 'got bigint']],
    ['{ glsl: empty }', { keep: { glsl: '  ' } }, ['options.keep.glsl must be a non-empty string of GLSL', 'bool keep(uvec4 value, uint index) on this uint32 stream', 'got "  "']],
    ['{ glsl: number }', { keep: { glsl: 1 } }, ['options.keep.glsl must be a non-empty string of GLSL', 'got 1']],
  ])('%s', async (_, options, parts) => {
    const { gl, engine, stream } = await shared();
    await expectCleanFailure(gl, engine, () => engine.compact(stream, options as never), ...parts);
  });

  it('no options at all', async () => {
    const { gl, engine, stream } = await shared();
    await expectCleanFailure(gl, engine, () => (engine.compact as (s: Stream) => unknown)(stream), 'engine.compact(stream, options): options.keep is required', "e.g. { keep: 'nonzero' }", 'got no options');
  });
});

describe('engine.compact(): keep.uniforms of the wrong shape, name or value', () => {
  const glsl = 'return true;';
  const uniformsShape = 'options.keep.uniforms must be an object of { name: number | number[] }';
  const badName = (name: string, why: string) => [`options.keep.uniforms: the name ${JSON.stringify(name)} ${why}`, 'pick another name'];
  const sizes = 'options.keep.uniforms.limit must be a number, an array of 2 to 4 numbers';
  it.each([
    ['not an object', 5, [uniformsShape, 'got 5']],
    ['an array', [1, 2], [uniformsShape, 'got an Array(2)']],
    ['null', null, [uniformsShape, 'got null']],
    ['too many', Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, 1])), ['options.keep.uniforms: at most 64 uniforms; got 65']],
    ['a name with a dash', { 'my-limit': 1 }, badName('my-limit', 'is not a GLSL identifier')],
    ['a name starting with a digit', { '1st': 1 }, badName('1st', 'is not a GLSL identifier')],
    ['an empty name', { '': 1 }, badName('', 'is not a GLSL identifier')],
    ['a keyword', { if: 1 }, badName('if', 'is a GLSL keyword or type')],
    ['a type', { vec3: 1 }, badName('vec3', 'is a GLSL keyword or type')],
    ['a reserved word', { input: 1 }, badName('input', 'is a word GLSL reserves for future use')],
    ['a built-in function', { texelFetch: 1 }, badName('texelFetch', 'is a GLSL built-in function')],
    ['gl_ prefix', { gl_Limit: 1 }, badName('gl_Limit', 'starts with gl_')],
    ['a double underscore', { my__limit: 1 }, badName('my__limit', 'contains __')],
    ["the engine's u_ prefix", { u_limit: 1 }, badName('u_limit', "starts with u_, the prefix of the engine's own uniforms")],
    ['an engine function', { streamLength: 1 }, badName('streamLength', "is a name the engine's shader reserves")],
    ['an engine define', { COMPONENTS: 1 }, badName('COMPONENTS', "is a name the engine's shader reserves")],
    ['the value parameter', { value: 1 }, badName('value', 'is taken by keep(value, index) itself')],
    ['the index parameter', { index: 1 }, badName('index', 'is taken by keep(value, index) itself')],
    ['a string value', { limit: '3' }, [sizes, 'declared uint or uvec2..4 on a uint32 stream', 'or a matrix of 9 or 16 numbers (mat3, mat4)', 'got "3"']],
    ['one-element array', { limit: [3] }, [sizes, 'got an Array(1)']],
    ['five-element array', { limit: [1, 2, 3, 4, 5] }, [sizes, 'got an Array(5)']],
    ['a 12-number Float32Array', { limit: new Float32Array(12) }, [sizes, 'got Float32Array(12)']],
    ['NaN in a mat4', { m: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, NaN, 1] }, ['options.keep.uniforms.m[14] must be a finite number', 'got NaN']],
    ['NaN', { limit: NaN }, ['options.keep.uniforms.limit must be a finite number', 'got NaN']],
    ['Infinity in an array', { range: [1, Infinity] }, ['options.keep.uniforms.range[1] must be a finite number', 'got Infinity']],
    ['a negative uint', { limit: -1 }, ['options.keep.uniforms.limit must be an integer from 0 to 4294967295', 'declared uint on a uint32 stream', 'got -1']],
    ['a uint past 2^32 - 1', { limit: 2 ** 32 }, ['options.keep.uniforms.limit must be an integer from 0 to 4294967295', 'got 4294967296']],
    ['a fractional uint', { range: [1, 2.5] }, ['options.keep.uniforms.range[1] must be an integer from 0 to 4294967295', 'got 2.5']],
  ])('%s', async (_, uniforms, parts) => {
    const { gl, engine, stream } = await shared();
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl, uniforms: uniforms as never } }), ...parts);
  });

  it.each([
    ['int32: below -2^31', new Int32Array(4), { limit: -(2 ** 31) - 1 }, ['options.keep.uniforms.limit must be an integer from -2147483648 to 2147483647', 'declared int on a int32 stream']],
    ['int32: 2^31', new Int32Array(4), { limit: 2 ** 31 }, ['options.keep.uniforms.limit must be an integer from -2147483648 to 2147483647', 'got 2147483648']],
    ['float32: past float32 range', new Float32Array(4), { limit: 1e39 }, ["options.keep.uniforms.limit is outside float32's range", 'got 1e+39']],
  ])('%s', async (_, data, uniforms, parts) => {
    const { gl, engine } = await shared();
    const stream = engine.stream(data);
    try {
      await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl, uniforms } }), ...parts);
    } finally {
      stream.dispose();
    }
  });
});

describe('keep.streams, keep.textures, keep.flags, gather and partition: bad inputs', () => {
  const glsl = 'return true;';
  it.each([
    ['streams not an object', { streams: 5 }, ['options.keep.streams must be an object of { name: Stream }', 'got 5']],
    ['a stream that is a typed array', { streams: { radii: new Float32Array(4) } }, ['options.keep.streams.radii must be a Stream of this engine', 'got Float32Array(4)']],
    ['a stream under a bad name', { streams: { 'my-radii': 'stream' } }, ['options.keep.streams: the name "my-radii" is not a GLSL identifier']],
    ['textures not an object', { textures: [1] }, ["options.keep.textures must be an object of { name: { texture: WebGLTexture, type: 'float' | 'int' | 'uint' } }", 'got an Array(1)']],
    ['a texture without its type', { textures: { hiz: { texture: 'texture' } } }, ["options.keep.textures.hiz.type must be 'float' (sampler2D), 'int' (isampler2D) or 'uint' (usampler2D)", 'got undefined']],
    ['a texture with a wrong type name', { textures: { hiz: { texture: 'texture', type: 'uint32' } } }, ["options.keep.textures.hiz.type must be 'float'", 'got "uint32"']],
    ['a texture with an extra field', { textures: { hiz: { texture: 'texture', type: 'float', filter: 'nearest' } } }, ['options.keep.textures.hiz has unknown field(s) filter; allowed: texture, type']],
    ['not a texture', { textures: { hiz: { texture: 5, type: 'float' } } }, ["options.keep.textures.hiz must be { texture: WebGLTexture, type: 'float' | 'int' | 'uint' }"]],
    ['a name in uniforms and textures', { uniforms: { hiz: 1 }, textures: { hiz: { texture: 'texture', type: 'float' } } }, ['options.keep.textures: the name "hiz" is also in options.keep.uniforms', 'each name declares one GLSL variable']],
    ['a texture named like a keep parameter', { textures: { value: { texture: 'texture', type: 'float' } } }, ['options.keep.textures: the name "value" is taken by keep(value, index) itself']],
    ['nine samplers', { textures: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`t${i}`, { texture: 'texture', type: 'float' }])) }, ['options.keep.streams and options.keep.textures: at most 8 together (each takes a texture unit); got 9']],
    ['flags that are not a stream', { flags: new Uint32Array(4) }, ['options.keep.flags must be a Stream of this engine', 'got Uint32Array(4)']],
  ])('%s', async (_, inputs, parts) => {
    const { gl, engine, stream } = await shared();
    const texture = gl.createTexture()!;
    // 'stream' and 'texture' stand for a real stream and texture of the right kind
    const real = JSON.parse(JSON.stringify(inputs), (key, v) => (v === 'texture' ? texture : v === 'stream' ? stream : v)) as Record<string, unknown>;
    if ('flags' in inputs) real.flags = inputs.flags; // typed arrays do not survive JSON
    if ('streams' in inputs && typeof inputs.streams === 'object' && inputs.streams && 'radii' in inputs.streams) real.streams = inputs.streams;
    const keep = 'flags' in real ? real : { glsl, ...real };
    try {
      await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: keep as never }), 'engine.compact(): ', ...parts);
      await expectCleanFailure(gl, engine, () => engine.partition(stream, { keep: keep as never }), 'engine.partition(): ', ...parts);
    } finally {
      gl.deleteTexture(texture);
    }
  });

  it('flags of another length, and streams of another engine or disposed', async () => {
    const { gl, engine, stream } = await shared();
    const short = engine.stream(new Uint32Array(9999));
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { flags: short } }), 'engine.compact(): options.keep.flags has 9999 elements but the stream has 10000', 'the lengths must match');
    await expectCleanFailure(gl, engine, () => engine.partition(stream, { keep: { flags: short } }), 'engine.partition(): options.keep.flags has 9999 elements');
    short.dispose();
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { flags: short } }), 'engine.compact(): options.keep.flags', 'disposed');
    const other = createEngine(gl);
    const foreign = other.stream(new Float32Array(10_000));
    const belongs = 'this stream belongs to another engine';
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { flags: foreign } }), 'engine.compact(): options.keep.flags', belongs);
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl, streams: { radii: foreign } } }), 'engine.compact(): options.keep.streams.radii', belongs);
    await expectCleanFailure(gl, engine, () => engine.gather(foreign, stream as Stream<Uint32Array>), 'engine.gather(source)', belongs);
    await expectCleanFailure(gl, engine, () => engine.gather(stream, foreign as unknown as Stream<Uint32Array>), 'engine.gather(source, indices)', belongs);
    await expectCleanFailure(gl, engine, () => engine.partition(foreign, { keep: 'nonzero' }), 'engine.partition(stream)', belongs);
    other.dispose();
  });

  it('gather: indices that are not uint32 scalars; partition: unknown options', async () => {
    const { gl, engine, stream } = await shared();
    const floats = engine.stream(new Float32Array(8));
    const vec4s = engine.stream(new Uint32Array(8), { components: 4 });
    const scalars = "indices must be a stream of uint32 scalars (e.g. a compaction's output with output: 'indices')";
    await expectCleanFailure(gl, engine, () => engine.gather(stream, floats as unknown as Stream<Uint32Array>), `engine.gather(source, indices): ${scalars}`, 'got a float32 stream of 1 components');
    await expectCleanFailure(gl, engine, () => engine.gather(stream, vec4s as Stream<Uint32Array>), scalars, 'got a uint32 stream of 4 components');
    await expectCleanFailure(gl, engine, () => engine.gather(stream, new Uint32Array(4) as never), 'engine.gather(source, indices): stream must be a Stream made by engine.stream()');
    await expectCleanFailure(gl, engine, () => engine.partition(stream, { keep: 'nonzero', algorithm: 'horn' } as never), 'engine.partition(stream, options): unknown option(s) algorithm; allowed: keep, output');
    await expectCleanFailure(gl, engine, () => engine.partition(stream, { keep: 'nonzero', output: 'index' } as never), "engine.partition(): options.output must be one of 'values', 'indices'", 'got "index"');
    await expectCleanFailure(gl, engine, () => (engine.partition as (s: Stream) => unknown)(stream), 'engine.partition(stream, options): options.keep is required');
    floats.dispose();
    vec4s.dispose();
  });

  it("a texture whose format does not match its type: debug mode names the keep textures (without debug, the GPU's INVALID_OPERATION is the app's to find: WebGL cannot be asked a texture's format)", async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl, { debug: true });
    const stream = engine.stream(new Uint32Array(100));
    const texture = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32F, 4, 4); // a float texture, said to be 'uint'
    // complete (one level, NEAREST): Firefox samples an incomplete texture as black without an error
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.bindTexture(gl.TEXTURE_2D, null);
    const keep = { glsl: 'return texelFetch(hiz, ivec2(0), 0).r == 0u;', textures: { hiz: { texture, type: 'uint' as const } } };
    let message = '';
    try {
      engine.compact(stream, { keep, algorithm: 'horn' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('debug: GL error INVALID_OPERATION');
    expect(message).toContain('options.keep textures or streams (hiz)');
    expect(message).toContain("check that each keep.textures type matches its texture's format");
    gl.deleteTexture(texture);
    engine.dispose();
  });
});

describe('unique, runLengthEncode, reduce, scan with segments, sort: bad inputs', () => {
  it('refused with the call and option named, nothing left behind', async () => {
    const { gl, engine, stream } = await shared();
    const vec4s = engine.stream(new Float32Array(8), { components: 4 });
    const floats = engine.stream(new Float32Array(10_000));
    const short = engine.stream(new Uint32Array(99));
    const cases: Array<[() => unknown, ...string[]]> = [
      [() => engine.reduce(stream, undefined as never), "engine.reduce(stream, options): options.op is required: 'sum', 'min' or 'max'"],
      [() => engine.reduce(stream, { op: 'product' } as never), "engine.reduce(): options.op must be one of 'sum', 'min', 'max'", 'got "product"'],
      [() => engine.reduce(stream, { op: 'sum', exclusive: true } as never), 'engine.reduce(stream, options): unknown option(s) exclusive; allowed: op'],
      [() => engine.unique(new Uint32Array(3) as never), 'engine.unique(stream): stream must be a Stream made by engine.stream()'],
      [() => engine.runLengthEncode(null as never), 'engine.runLengthEncode(stream): stream must be a Stream', 'got null'],
      [() => engine.scan(stream, { segments: new Uint32Array(4) as never }), 'engine.scan(): options.segments must be a Stream of this engine', 'got Uint32Array(4)'],
      [() => engine.scan(stream, { segments: stream, blockSize: 256 }), 'engine.scan(): options.blockSize does not apply with options.segments'],
      [() => engine.scan(stream, { segments: stream, algorithm: 'blelloch' }), 'engine.scan(): options.algorithm does not apply with options.segments'],
      [() => engine.scan(stream, { segments: short }), 'engine.scan(): options.segments has 99 elements but the stream has 10000', 'the lengths must match'],
      [() => engine.sort(vec4s), 'engine.sort(keys): keys must be a stream of scalars (1 component); got 4 components'],
      [() => engine.sort(stream, { values: short }), 'engine.sort(): options.values has 99 elements but the keys have 10000'],
      [() => engine.sort(floats, { bits: 16 }), 'engine.sort(): options.bits applies to uint32 keys only (the keys are float32'],
      [() => engine.sort(stream, { bits: 33 }), 'engine.sort(): options.bits must be an integer from 1 to 32', 'got 33'],
      [() => engine.sort(stream, { descending: 'yes' } as never), 'engine.sort(): options.descending must be a boolean', 'got "yes"'],
      [() => engine.sort(stream, { order: 'desc' } as never), 'engine.sort(keys, options): unknown option(s) order; allowed: values, descending, bits'],
    ];
    for (const [bad, ...parts] of cases) await expectCleanFailure(gl, engine, bad, ...parts);
    const other = createEngine(gl);
    const foreign = other.stream(new Uint32Array(10_000));
    await expectCleanFailure(gl, engine, () => engine.sort(stream, { values: foreign }), 'engine.sort(): options.values', 'this stream belongs to another engine');
    await expectCleanFailure(gl, engine, () => engine.scan(stream, { segments: foreign }), 'engine.scan(): options.segments', 'this stream belongs to another engine');
    await expectCleanFailure(gl, engine, () => engine.reduce(foreign, { op: 'max' }), 'engine.reduce(stream)', 'this stream belongs to another engine');
    other.dispose();
    for (const s of [vec4s, floats, short]) s.dispose();
  });
});

describe('engine.compact(): user GLSL that does not compile', () => {
  it.each([
    ['an undeclared name', 'uint limit = 5u;\nreturn value.x < limt;', ['keep.glsl does not compile', 'line 2:', '> 2 | return value.x < limt;', '  1 | uint limit = 5u;']],
    ['a type error', 'return value.x;', ['keep.glsl does not compile', 'line 1:', '> 1 | return value.x;']],
    ['a float literal against a uint value', 'return value.x > 2.0;', ['keep.glsl does not compile', 'line 1:', '> 1 | return value.x > 2.0;']],
    ['a syntax error on line 3', 'bool a = true;\nbool b = false;\nreturn a &&& b;', ['keep.glsl does not compile', 'line 3:', '> 3 | return a &&& b;']],
  ])('%s: the message quotes the user line', async (_, glsl, parts) => {
    const { gl, engine, stream } = await shared();
    const message = await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl } }), ...parts);
    expect(message).toContain('your keep(uvec4 value, uint index) body:');
    // the bitmask compaction runs the keep test in its own pass (keep-bitmask.frag): the same message
    const bitmask = await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl }, algorithm: 'bitmask' }), ...parts);
    expect(bitmask).toContain('your keep(uvec4 value, uint index) body:');
  });

  it('a body without return, and a name meant for keep.uniforms', async () => {
    const { gl, engine, stream } = await shared();
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl: 'value.x > 2u;' } }), 'keep.glsl: the keep() body has no return statement', "e.g. 'return value.x > 0.5;'");
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl: 'return value.x > minLife;' } }), "'minLife' is not declared: pass a value in keep.uniforms (e.g. uniforms: { minLife: 1 })", 'keep.streams', 'keep.textures');
  });

  it('the message shows the uniforms in their GLSL types', async () => {
    const { gl, engine, stream } = await shared();
    const message = await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl: 'return value.x < limt;', uniforms: { limit: 3, range: [1, 2] } } }),
      'line 1:', '> 1 | return value.x < limt;');
    expect(message).toContain('your uniforms: uint limit, uvec2 range\nyour keep(uvec4 value, uint index) body:');
  });
});

describe('engine.compact(): user GLSL that is not a plain keep() body (refused before compiling)', () => {
  const reserved = (name: string, line = 1) => `keep.glsl: '${name}' is a name the engine's shader reserves (line ${line}); rename it`;
  it.each([
    ['a line continuation', 'return value.x > 0u \\\n  && index > 0u;', ['keep.glsl: line continuations are not allowed', 'a backslash ends line 1']],
    ['a line continuation reaching an engine uniform', 'return value.x > uint(u_wid\\\nthLog2);', ['keep.glsl: line continuations are not allowed']],
    ['a line continuation in a comment', 'return true; // a comment \\\n', ['keep.glsl: line continuations are not allowed', 'comments included']],
    ['a block comment never closed', 'return true; /* no end', ['keep.glsl: the block comment opened on line 1 is never closed']],
    ['a preprocessor directive', '#define X 1\nreturn true;', ['keep.glsl: preprocessor directives (#...) are not allowed', '(line 1: "#define X 1")', 'write plain GLSL statements']],
    ['a preprocessor directive after spaces', 'bool a = true;\n   #undef COMPONENTS\nreturn a;', ['keep.glsl: preprocessor directives (#...) are not allowed', 'line 2']],
    ['a directive after a block comment', '/* c */ #if 1\nreturn true;\n#endif', ['keep.glsl: preprocessor directives (#...) are not allowed', 'line 1']],
    ['a brace that closes keep() early', 'return true; }\nbool helper() { return true;', ["keep.glsl: the '}' on line 1 closes keep() early"]],
    ['a top-level global after an early brace', 'return true; }\nuint stolen = 1u;\nbool f() {\n  return true;', ["keep.glsl: the '}' on line 1 closes keep() early"]],
    ['an unclosed brace', 'if (value.x > 1u) {\n  return true;', ["keep.glsl: the '{' on line 1 is never closed"]],
    ['an engine uniform', 'return u_length > 0;', [reserved('u_length')]],
    ['an engine sampler', 'return texelFetch(u_values, ivec2(0), 0).r > 0u;', [reserved('u_values')]],
    ['an engine define', 'return COMPONENTS == 1;', [reserved('COMPONENTS')]],
    ['an engine define on line 2', 'bool f = true;\nreturn f && LENGTH_FROM_TEXTURE > 0;', [reserved('LENGTH_FROM_TEXTURE', 2)]],
    ['discard', 'if (value.x == 0u) discard;\nreturn true;', ["keep.glsl: 'discard' is not allowed in keep() (line 1)", 'return false to drop the element']],
    ['a new u_ name', 'uint u_mine = 1u;\nreturn value.x > u_mine;', ["keep.glsl: 'u_mine' uses the engine's u_ prefix, reserved for its uniforms (line 1)"]],
  ])('%s', async (_, glsl, parts) => {
    const { gl, engine, stream } = await shared();
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl } }), ...parts);
  });

  it.each(['outValue', 'keepElement', 'decodeValue', 'componentBits', 'texelOf', 'indexOf', 'streamLength', 'main', 'u_widthLog2', 'u_lengthTexture', 'FLOAT_VALUES', 'INT_VALUES', 'KEPT_FLAGS'])('using %s', async (name) => {
    const { gl, engine, stream } = await shared();
    const glsl = `bool ${name} = true;\nreturn ${name};`;
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: { glsl } }), reserved(name));
  });
});

describe('disposed streams and engines, streams of another engine', () => {
  it('a disposed stream is refused by compact, scan and its own reads', async () => {
    const { gl, engine } = await shared();
    const stream = engine.stream(new Uint32Array([1, 0, 2]));
    stream.dispose();
    stream.dispose(); // idempotent
    const disposed = 'this stream was disposed';
    await expectCleanFailure(gl, engine, () => engine.compact(stream, { keep: 'nonzero' }), 'engine.compact(stream): this stream was disposed; create a new one with engine.stream()');
    await expectCleanFailure(gl, engine, () => engine.scan(stream), 'engine.scan(stream): this stream was disposed');
    await expectCleanFailure(gl, engine, () => engine.gather(stream, stream), 'engine.gather(source): this stream was disposed');
    await expectCleanFailure(gl, engine, () => engine.partition(stream, { keep: 'nonzero' }), 'engine.partition(stream): this stream was disposed');
    await expectCleanFailure(gl, engine, () => stream.read(), 'stream.read()', disposed);
    await expectCleanFailure(gl, engine, () => stream.readLength(), 'stream.readLength()', disposed);
    await expectCleanFailure(gl, engine, () => stream.length, 'stream.length', disposed);
  });

  it('a disposed result is refused by count() and read()', async () => {
    const { gl, engine, stream } = await shared();
    const result = engine.compact(stream, { keep: 'nonzero' });
    result.dispose();
    result.dispose();
    await expectCleanFailure(gl, engine, () => result.count(), 'result.count(): this result was disposed; its textures are freed. Run the call again for a new result');
    await expectCleanFailure(gl, engine, () => result.read(), 'result.read(): this result was disposed');
    await expectCleanFailure(gl, engine, () => engine.compact(result.stream, { keep: 'nonzero' }), 'engine.compact(stream): this stream was disposed');
    const split = engine.partition(stream, { keep: 'nonzero' });
    split.dispose();
    await expectCleanFailure(gl, engine, () => split.count(), 'result.count(): this result was disposed');
  });

  it('something that is not a Stream', async () => {
    const { gl, engine, stream } = await shared();
    const result = engine.compact(stream, { keep: 'nonzero' });
    const allowed = 'stream must be a Stream made by engine.stream()';
    await expectCleanFailure(gl, engine, () => engine.compact(new Uint32Array(3) as never, { keep: 'nonzero' }), 'engine.compact(stream)', allowed, 'got Uint32Array(3)');
    await expectCleanFailure(gl, engine, () => engine.scan(undefined as never), 'engine.scan(stream)', allowed, 'got undefined');
    await expectCleanFailure(gl, engine, () => engine.compact(result as never, { keep: 'nonzero' }), 'engine.compact(stream)', allowed, 'got a CompactResult', 'pass result.stream');
    result.dispose();
  });

  it('a stream from another engine is refused, and neither engine is harmed', async () => {
    const { gl, engine } = await shared();
    const other = createEngine(gl);
    const foreign = other.stream(new Uint32Array([1, 0, 2]));
    const otherBefore = other.resources;
    const belongs = 'this stream belongs to another engine';
    await expectCleanFailure(gl, engine, () => engine.compact(foreign, { keep: 'nonzero' }), 'engine.compact(stream)', belongs);
    await expectCleanFailure(gl, engine, () => engine.scan(foreign), 'engine.scan(stream)', belongs);
    expect(other.resources).toEqual(otherBefore);
    await expectWorks(other);
    expect(Array.from(await foreign.read())).toEqual([1, 0, 2]);
    other.dispose();
  });

  it('after engine.dispose(): every call names the disposed engine, dispose() is idempotent, nothing is left on the context', async () => {
    const { gl } = await testContext();
    const counter = countGlObjects(gl);
    let engine: Engine | undefined;
    try {
      engine = createEngine(gl);
      const stream = engine.stream(Uint32Array.from({ length: 5000 }, (_, i) => i % 2));
      const result = engine.compact(stream, { keep: 'nonzero' });
      const scanned = engine.scan(stream);
      const pending = result.count(); // started before dispose: one texel, already read in Node
      engine.dispose();
      engine.dispose();
      await pending.then(
        (count) => expect(count).toBe(2500),
        (error: Error) => expect(error.message).toMatch(/this engine was disposed/),
      );
      expect(Object.values(engine.resources).every((n) => n === 0)).toBe(true);
      expect(engine.isDisposed).toBe(true);
      const gone = 'this engine was disposed; create a new one with createEngine(gl)';
      const calls: Array<[() => unknown, string]> = [
        [() => engine!.stream(new Uint32Array(3)), 'engine.stream()'],
        [() => engine!.compact(stream, { keep: 'nonzero' }), 'engine.compact()'],
        [() => engine!.scan(stream), 'engine.scan()'],
        [() => engine!.finish(), 'engine.finish()'],
        [() => engine!.trim(), 'engine.trim()'],
      ];
      for (const [call, name] of calls) {
        let message = '';
        try {
          await call();
        } catch (error) {
          message = (error as Error).message;
        }
        expectMessage(message, [name, gone]);
      }
      // its streams and results went with it, and say so
      const streamGone = 'was disposed by engine.dispose()';
      for (const [call, name] of [
        [() => result.count(), 'result.count()'],
        [() => result.read(), 'result.read()'],
        [() => stream.read(), 'stream.read()'],
        [() => scanned.read(), 'stream.read()'],
      ] as const) {
        await expect(call()).rejects.toThrow(name);
        await expect(call()).rejects.toThrow(streamGone);
      }
      result.dispose(); // disposing what the engine already freed is a no-op
      stream.dispose();
      expect(nonZero(counter.live), 'GL objects left on the context by a disposed engine').toEqual({});
    } finally {
      counter.restore();
    }
    // the context itself is fine: a new engine on it works
    const fresh = createEngine(gl);
    await expectWorks(fresh);
    fresh.dispose();
  });
});

describe('float streams do not need EXT_color_buffer_float', () => {
  it('with getExtension returning null for it, float streams upload, scan and compact bit-exactly, rendering only to integer targets', async () => {
    const { gl } = await testContext();
    const target = gl as unknown as Record<string, (...args: unknown[]) => unknown>;
    const originals: Record<string, { fn: (...args: unknown[]) => unknown; own: boolean }> = {};
    const wrap = (name: string, make: (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown) => {
      originals[name] = { fn: target[name], own: Object.prototype.hasOwnProperty.call(target, name) };
      target[name] = make(target[name]);
    };
    // every draw and clear records the component type of the framebuffer it renders to
    const renderedComponentTypes = new Set<number>();
    const recordTarget = () => {
      if (!gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING)) return;
      renderedComponentTypes.add(gl.getFramebufferAttachmentParameter(gl.DRAW_FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE) as number);
    };
    wrap('getExtension', (original) => (name) => (name === 'EXT_color_buffer_float' ? null : original.call(gl, name)));
    for (const draw of ['drawArrays', 'drawArraysInstanced', 'clearBufferuiv', 'clearBufferfv', 'clear']) {
      wrap(draw, (original) => (...args) => (recordTarget(), original.apply(gl, args)));
    }
    let engine: Engine | undefined;
    try {
      expect(gl.getExtension('EXT_color_buffer_float')).toBeNull();
      engine = createEngine(gl);
      expect(engine.caps.floatRender).toBe(false);
      const special = new Uint32Array([0x7fc00001, 0xffc12345, 0x7f800001, 0x80000000, 0x00000001, 0x807fffff, 0x7f800000, 0xff800000]);
      const values = Float32Array.from({ length: 20_000 }, (_, i) => (i % 7 === 0 ? 0 : (i % 101) - 50.25));
      new Uint32Array(values.buffer).set(special, 100);
      const stream = engine.stream(values);
      expectSameBits((await stream.read()) as Float32Array, values, 'round trip');
      const finite = Float32Array.from({ length: 5000 }, (_, i) => (i % 9) * 0.5 - 1);
      const finiteStream = engine.stream(finite);
      const scanned = engine.scan(finiteStream, { exclusive: true });
      const expectedScan = new Float32Array(finite.length);
      for (let i = 1, sum = 0; i < finite.length; i++) expectedScan[i] = sum = Math.fround(sum + finite[i - 1]);
      expectSameBits((await scanned.read()) as Float32Array, expectedScan, 'float scan');
      const kept = engine.compact(stream, { keep: { glsl: 'return index % 2u == 0u || value.x != value.x;' }, algorithm: 'horn' });
      const bits = new Uint32Array(values.buffer);
      const expected = Float32Array.from(values.filter((v, i) => i % 2 === 0 || Number.isNaN(v)));
      // NaN payloads compare through the bits, not through Array.filter's float copy
      const expectedBits = Uint32Array.from(bits.filter((_, i) => i % 2 === 0 || Number.isNaN(values[i])));
      expect(await kept.count()).toBe(expected.length);
      expectSameBits(new Uint32Array(((await kept.read()) as Float32Array).buffer), expectedBits, 'float compaction');
      const thresholded = engine.compact(stream, { keep: { lessEqual: 0.5 }, algorithm: 'horn' });
      expectSameBits(new Uint32Array(((await thresholded.read()) as Float32Array).buffer), Uint32Array.from(bits.filter((_, i) => values[i] <= 0.5)), 'float lessEqual');
      await engine.finish();
      expect([...renderedComponentTypes]).toEqual([gl.UNSIGNED_INT]);
    } finally {
      engine?.dispose();
      for (const [name, { fn, own }] of Object.entries(originals)) {
        if (own) target[name] = fn;
        else delete target[name];
      }
    }
  });
});

describe('warmUp, useProfile, gpuTime: input checked before anything runs', () => {
  it('warmUp: a bad call anywhere in the list rejects before any call runs (no texture taken, nothing compiled)', async () => {
    const { gl, engine } = await testContext();
    await expectCleanFailure(gl, engine, () => engine.warmUp([{ compact: { keep: 'nonzero', blockSize: 3 } }]), 'engine.warmUp(calls): calls[0]', 'blockSize');
    await expectCleanFailure(gl, engine, () => engine.warmUp([{ scan: { exclusive: true }, type: 'uint32', lengths: [1000, 5000] }, { scan: { bogus: 1 } as never }]), 'engine.warmUp(calls): calls[1]', 'bogus');
    await expectCleanFailure(gl, engine, () => engine.warmUp([{ scan: {}, type: null as never }]), 'engine.warmUp(calls): calls[0].type', 'got null');
    await expectCleanFailure(gl, engine, () => engine.warmUp([{ scan: {}, components: null as never }]), 'calls[0].components', 'got null');
  });

  it('useProfile: a hand-made profile without timings works; malformed timings are refused', async () => {
    const { gl, engine } = await testContext();
    const data = Uint32Array.from({ length: 5000 }, (_, i) => i % 3);
    const stream = engine.stream(data);
    const saved = engine.profile;
    const handMade = { format: 'glcompact-profile', version: ENGINE_VERSION, renderer: engine.caps.renderer, compact: { keep: { [Math.round(Math.log2(stream.layout.capacity))]: 'horn' }, any: {} }, scan: {} };
    try {
      engine.useProfile(handMade as never);
      for (let k = 0; k < 2; k++) {
        // The second call follows a count (auto's switch at a known density asks the timings).
        const result = engine.compact(stream, { keep: 'nonzero' });
        expect(result.stats.algorithm).toBe('horn');
        expect(await result.count()).toBe(data.filter((v) => v !== 0).length);
        expectSameBits(await result.read(), data.filter((v) => v !== 0));
        result.dispose();
      }
      await expectCleanFailure(gl, engine, () => engine.useProfile({ ...handMade, timings: { '12/0.5': null } } as never), 'engine.useProfile(profile): profile.timings["12/0.5"]');
      await expectCleanFailure(gl, engine, () => engine.useProfile({ ...handMade, timings: { '12/0.5': { horn: 'fast' } } } as never), 'profile.timings["12/0.5"].horn', 'a time in ms');
      // profile.sampling.blockingCalls sets auto's switch margin at a known density (1.05 where true):
      // anything but a boolean is refused, not taken as truthy.
      await expectCleanFailure(gl, engine, () => engine.useProfile({ ...handMade, sampling: { timer: 'fence', fenceFloorMs: 1, blockingCalls: 'yes', batches: {} } } as never), 'profile.sampling.blockingCalls', 'true or false');
      await expectCleanFailure(gl, engine, () => engine.useProfile({ ...handMade, sampling: 'fast' } as never), 'profile.sampling', 'an object');
      engine.useProfile({ ...handMade, sampling: { timer: 'fence', fenceFloorMs: 1, blockingCalls: true, batches: {} } } as never);
    } finally {
      if (saved) engine.useProfile(saved);
      else engine.useProfile(null);
      stream.dispose();
    }
  });

  it('scan: radix is checked against the algorithm asked for, whatever a profile tuned', async () => {
    const { gl, engine } = await testContext();
    const stream = engine.stream(new Uint32Array(5000).fill(1));
    const saved = engine.profile;
    try {
      engine.useProfile({ format: 'glcompact-profile', version: ENGINE_VERSION, renderer: engine.caps.renderer, compact: { keep: {}, any: {} }, scan: { [Math.round(Math.log2(stream.layout.capacity))]: 'recursive-doubling' }, timings: {}, work: {} } as never);
      engine.scan(stream).dispose();
      expect(engine.lastScanStats?.algorithm).toBe('recursive-doubling');
      await expectCleanFailure(gl, engine, () => engine.scan(stream, { radix: 8 }), "engine.scan(): options.radix applies to algorithm 'recursive-doubling' only");
    } finally {
      if (saved) engine.useProfile(saved);
      else engine.useProfile(null);
      stream.dispose();
    }
  });

  it('gpuTime: a run that returns a promise, and a call inside run, are refused', async () => {
    const { engine } = await testContext();
    await expect(engine.gpuTime(async () => {})).rejects.toThrow('engine.gpuTime(run): run returned a promise');
    // The inner call's outcome is taken at once: with a timer query the outer call waits tasks for its
    // result, and a rejection left that long unhandled is reported as such.
    let inner: Promise<string> | undefined;
    await engine.gpuTime(() => {
      inner = engine.gpuTime(() => {}).then(() => 'resolved', (error: Error) => error.message);
    });
    expect(await inner).toContain('engine.gpuTime(): already timing');
    await expectWorks(engine);
  });
});
