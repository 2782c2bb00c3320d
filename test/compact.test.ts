// Compaction against the CPU reference: Jumping Jack (any order: compared as a multiset, indices as
// a permutation of the kept positions), Horn, the HistoPyramid and the bitmask compaction (exact, in
// order), per block (with each block scan, reduce-then-scan included) and over the whole stream,
// with both concatenation modes where the context has them, both outputs.
import { describe, expect, it, onTestFinished } from 'vitest';
import { BITMASK_SHAPE } from '../src/compact/bitmask.js';
import type { Engine, Stream } from '../src/index.js';
import { expectSameBits, testContext, testEngine } from './support/engine.js';
import { envCount } from './support/env.js';
import { sorted } from './support/reference.js';
import { blockBoundariesKept, keptIndices, loneKeptPerBlock, nonzeroWhereKept, randomKept } from './support/streams.js';
import { applicableCompactOptions } from './support/options.js';

// GLCOMPACT_COMPACT_MAX_N drops the larger sizes (the firefox and webkit projects stop at 2^16 + 5 for
// CI time; node and chromium run 2^20 + 3, and the property tests' large fixed cases run everywhere).
const maxSize = envCount('GLCOMPACT_COMPACT_MAX_N', 2 ** 20 + 3);
const sizes = [1, 255, 256, 257, 2 ** 16 + 5, 2 ** 20 + 3].filter((n) => n <= maxSize);
const densities = [0, 0.001, 0.5, 0.999, 1];
const blockSizes = [16, 256, 2048];
const concatModes = ['vertex-fetch', 'transform-feedback'] as const;

interface Case {
  stream: Stream;
  data: Uint32Array;
  kept: Uint32Array;
}

/**
 * Both test platforms run the transform-feedback path (headless-gl through glcompact/node's
 * patches, Chromium natively): a probe that stopped finding it would fail here, not skip.
 */
function requireTransformFeedback(engine: Engine, concat: string): void {
  if (concat === 'transform-feedback') expect(engine.caps.transformFeedback, 'transform feedback on this test context').toBe(true);
}

const inputs = new Map<string, Case>();
function input(engine: Engine, key: string, kept: () => boolean[]): Case {
  let c = inputs.get(key);
  if (!c) {
    const flags = kept();
    const data = nonzeroWhereKept(flags);
    c = { stream: engine.stream(data), data, kept: keptIndices(flags) };
    inputs.set(key, c);
  }
  return c;
}

async function checkCompaction(
  engine: Engine,
  c: Case,
  options: Parameters<Engine['compact']>[1],
  label: string,
): Promise<void> {
  // Jumping Jack may reorder, and 'auto' with order: 'any' may (the per-block hybrid; the bitmask
  // without block options keeps order): compared in order wherever the path reports 'keep'. Every
  // other path asked for here keeps the input's order ('auto' with block options runs Horn).
  const expectedOrder = options.algorithm === 'jumping-jack' ? 'any' : options.order === 'any' ? undefined : 'keep';
  for (const output of ['values', 'indices'] as const) {
    const result = engine.compact(c.stream, { ...options, output });
    try {
      expect(await result.count(), `${label} ${output}: count`).toBe(c.kept.length);
      const got = (await result.read()) as Uint32Array;
      expect(got).toBeInstanceOf(Uint32Array);
      // values are i + 1 at kept positions: the expected values are the kept indices + 1
      const expected = output === 'indices' ? c.kept : c.kept.map((i) => i + 1);
      if (expectedOrder) expect(result.stats.order, `${label} ${output}: order`).toBe(expectedOrder);
      expectSameBits(result.stats.order === 'keep' ? got : sorted(got), expected, `${label} ${output}`);
      if (options.concat) expect(result.stats.concat).toBe(options.concat);
    } finally {
      result.dispose();
    }
  }
}

// 'auto' with block options runs Horn per block, and with order: 'any' the per-block hybrid (Jumping
// Jack, Horn or a copy, block by block).
const perBlock: ReadonlyArray<readonly ['jumping-jack' | 'horn' | 'auto', { order?: 'any' }]> = [['jumping-jack', {}], ['horn', {}], ['auto', {}], ['auto', { order: 'any' }]];

describe.each(perBlock.map(([algorithm, extra]) => [`${algorithm}${extra.order ? ` (order ${extra.order})` : ''}`, algorithm, extra] as const))('%s per block', (_, algorithm, extra) => {
  describe.each(concatModes)('concat %s', (concat) => {
    describe.each(blockSizes)('block %i', (blockSize) => {
      it.for(sizes)('n = %i at densities 0, 0.1 %, 50 %, 99.9 %, 100 %', async (n) => {
        const engine = await testEngine();
        requireTransformFeedback(engine, concat);
        for (const density of densities) {
          const c = input(engine, `${n}/${density}`, () => randomKept(n, density, n * 31 + density * 1000));
          await checkCompaction(engine, c, { keep: 'nonzero', algorithm, ...extra, blockSize, concat }, `${algorithm}/${concat}/b${blockSize}/n${n}/d${density}`);
        }
      });

      it('lone kept element in the middle of each block (worst case: b - 1 jumps)', async () => {
        const engine = await testEngine();
        requireTransformFeedback(engine, concat);
        const n = 4096 * 3 + 5;
        const c = input(engine, `lone/${blockSize}`, () => loneKeptPerBlock(n, blockSize));
        await checkCompaction(engine, c, { keep: 'nonzero', algorithm, ...extra, blockSize, concat }, 'lone');
      });

      it('kept elements only at block boundaries', async () => {
        const engine = await testEngine();
        requireTransformFeedback(engine, concat);
        const n = 4096 * 3 + 5;
        const c = input(engine, `edges/${blockSize}`, () => blockBoundariesKept(n, blockSize));
        await checkCompaction(engine, c, { keep: 'nonzero', algorithm, ...extra, blockSize, concat }, 'edges');
      });
    });
  });
});

describe('horn over the whole stream (global: no blocks, no concatenation)', () => {
  it.each(sizes)('n = %i at every density', async (n) => {
    const engine = await testEngine();
    for (const density of densities) {
      const c = input(engine, `${n}/${density}`, () => randomKept(n, density, n * 31 + density * 1000));
      await checkCompaction(engine, c, { keep: 'nonzero', algorithm: 'horn', global: true }, `horn-global/n${n}/d${density}`);
    }
  });

  it('reports its path', async () => {
    const engine = await testEngine();
    const result = engine.compact(engine.stream(new Uint32Array([0, 1, 2])), { keep: 'nonzero', algorithm: 'horn', global: true });
    expect(result.stats).toMatchObject({ algorithm: 'horn-global', concat: 'none', blockSize: undefined });
    result.dispose();
  });
});

// The paper's block compactions with reduce-then-scan as the block scan (its max-allowable-size
// variant): every block size, since its tree takes a different shape for each.
describe.each(['jumping-jack', 'horn', 'auto'] as const)("%s per block, scan 'reduce-then-scan'", (algorithm) => {
  it.each([16, 32, 64, 128, 256, 512, 1024, 2048])('block %i: random densities, a lone kept element per block, block boundaries', async (blockSize) => {
    const engine = await testEngine();
    const concat = blockSize % 128 === 0 && engine.caps.transformFeedback ? 'transform-feedback' : 'vertex-fetch';
    const options = { keep: 'nonzero', algorithm, blockSize, concat, scan: 'reduce-then-scan' } as const;
    for (const density of [0.001, 0.5, 1]) {
      const n = 2 ** 16 + 5;
      const c = input(engine, `${n}/${density}`, () => randomKept(n, density, n * 31 + density * 1000));
      await checkCompaction(engine, c, options, `${algorithm}/rts/b${blockSize}/d${density}`);
    }
    const n = 4096 * 3 + 5;
    await checkCompaction(engine, input(engine, `lone/${blockSize}`, () => loneKeptPerBlock(n, blockSize)), options, `${algorithm}/rts/b${blockSize}/lone`);
    await checkCompaction(engine, input(engine, `edges/${blockSize}`, () => blockBoundariesKept(n, blockSize)), options, `${algorithm}/rts/b${blockSize}/edges`);
  });

  it('reports the scan it ran', async () => {
    const engine = await testEngine();
    const result = engine.compact(engine.stream(new Uint32Array([0, 1, 2])), { keep: 'nonzero', algorithm, scan: 'reduce-then-scan' });
    expect(result.stats.scan).toBe('reduce-then-scan');
    expect(Array.from(await result.read()).sort()).toEqual([1, 2]);
    result.dispose();
  });
});

it("horn per block, scan 'reduce-then-scan': 2^20 + 3 elements at 50 % (a taller tree)", async () => {
  const engine = await testEngine();
  const n = 2 ** 20 + 3;
  const c = input(engine, `${n}/0.5`, () => randomKept(n, 0.5, n * 31 + 500));
  await checkCompaction(engine, c, { keep: 'nonzero', algorithm: 'horn', blockSize: 256, scan: 'reduce-then-scan' }, 'horn/rts/2^20');
});

describe('histopyramid (over the whole stream, order kept)', () => {
  it.each(sizes)('n = %i at every density', async (n) => {
    const engine = await testEngine();
    for (const density of densities) {
      const c = input(engine, `${n}/${density}`, () => randomKept(n, density, n * 31 + density * 1000));
      await checkCompaction(engine, c, { keep: 'nonzero', algorithm: 'histopyramid' }, `histopyramid/n${n}/d${density}`);
    }
  });

  // Kept only at one position of every group of 4^k (the traversal's first, middle or last child at
  // each level; the last child is taken without a fetch), only the first or last element, counts
  // at a row boundary.
  it.each([
    ['every 4th, last of its group', (i: number) => i % 4 === 3],
    ['every 16th, first of its group', (i: number) => i % 16 === 0],
    ['every 64th, in the middle', (i: number) => i % 64 === 37],
    ['every 4096th, last of its group', (i: number) => i % 4096 === 4095],
    ['the first element only', (i: number) => i === 0],
    ['the last element only', (i: number, n: number) => i === n - 1],
    // the traversal covers only the rows holding kept elements (2048 per row here)
    ['the first row exactly', (i: number) => i < 2048],
    ['the first row and one more', (i: number) => i <= 2048],
    ['all', () => true],
  ] as const)('kept %s', async (name, isKept) => {
    const engine = await testEngine();
    const n = 4096 * 5 + 3;
    const c = input(engine, `hp/${name}`, () => Array.from({ length: n }, (_, i) => isKept(i, n)));
    await checkCompaction(engine, c, { keep: 'nonzero', algorithm: 'histopyramid' }, `histopyramid ${name}`);
  });

  // The bitmask writes its padding in its output pass (BITMASK_SHAPE.paddingInOutput) or in a pass of
  // its own, and takes the select pass where the context writes 4+ attachments (not below
  // directWordsUpTo words, so that shortcut is lowered here to reach it).
  it.each([
    ['histopyramid', {}],
    ['bitmask', {}],
    ['bitmask', { paddingInOutput: false }],
    ['bitmask', { directWordsUpTo: 0 }],
    ['bitmask', { directWordsUpTo: 0, paddingInOutput: false }],
    ['jumping-jack', {}],
  ] as const)('writes 0 to every texel past the count (%s %o), also into a reused texture', async (algorithm, shape) => {
    const { gl, engine } = await testContext();
    const defaults = { ...BITMASK_SHAPE };
    Object.assign(BITMASK_SHAPE, shape);
    onTestFinished(() => void Object.assign(BITMASK_SHAPE, defaults));
    const n = 3 * 2048 + 7;
    const c = input(engine, 'hp/padding', () => randomKept(n, 0.3, 5));
    for (const output of ['values', 'indices'] as const) {
      // First a compaction keeping every element, whose output (non-zero past the next one's count)
      // goes back to the texture pool: the compaction below gets that texture and must zero its padding.
      engine.compact(c.stream, { keep: { glsl: 'return true;' }, algorithm: 'histopyramid', output: 'indices' }).dispose();
      engine.compact(c.stream, { keep: { glsl: 'return true;' }, algorithm: 'histopyramid', output }).dispose();
      const result = engine.compact(c.stream, { keep: 'nonzero', algorithm, output, ...(algorithm === 'jumping-jack' ? { order: 'any' as const } : {}) });
      const { width, height } = result.stream.layout;
      const framebuffer = gl.createFramebuffer();
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, result.stream.texture, 0);
      const texels = new Uint32Array(width * height * 4);
      gl.readPixels(0, 0, width, height, gl.RGBA_INTEGER, gl.UNSIGNED_INT, texels);
      gl.getError(); // headless-gl raises INVALID_ENUM here while returning the data (src/adapter.ts)
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.deleteFramebuffer(framebuffer);
      const past = texels.filter((_, i) => i % 4 === 0 && i / 4 >= c.kept.length);
      expect(past.length).toBe(width * height - c.kept.length);
      expect(past.every((v) => v === 0), `${output}: texels past the count`).toBe(true);
      result.dispose();
    }
  });

  it('reports its path', async () => {
    const engine = await testEngine();
    const result = engine.compact(engine.stream(new Uint32Array([0, 1, 2])), { keep: 'nonzero', algorithm: 'histopyramid' });
    expect(result.stats).toMatchObject({ algorithm: 'histopyramid', requestedAlgorithm: 'histopyramid', concat: 'none', blockSize: undefined });
    result.dispose();
  });
});

describe('bitmask (over the whole stream, order kept; keep flags packed 32 to a word)', () => {
  it.each(sizes)('n = %i at every density', async (n) => {
    const engine = await testEngine();
    for (const density of densities) {
      const c = input(engine, `${n}/${density}`, () => randomKept(n, density, n * 31 + density * 1000));
      await checkCompaction(engine, c, { keep: 'nonzero', algorithm: 'bitmask' }, `bitmask/n${n}/d${density}`);
    }
  });

  // Lengths around a word (32 elements) and a row (2048), and lengths whose last word is partial
  // (the rest of it is padding, never kept): all kept, half kept, only the last element kept.
  it.each([1, 2, 31, 32, 33, 63, 64, 65, 2047, 2048, 2049, 4096 * 5 + 3, 2 ** 16 + 17])('n = %i: all, 50 %, only the last element', async (n) => {
    const engine = await testEngine();
    for (const [name, kept] of [
      ['all', () => Array.from({ length: n }, () => true)],
      ['50 %', () => randomKept(n, 0.5, n + 7)],
      ['last only', () => Array.from({ length: n }, (_, i) => i === n - 1)],
    ] as const) {
      await checkCompaction(engine, input(engine, `bm/${n}/${name}`, kept), { keep: 'nonzero', algorithm: 'bitmask' }, `bitmask n=${n} ${name}`);
    }
  });

  // Kept at given bits of every word (bit 31 is the word's sign bit), whole words on and off,
  // words far apart (the search over the words' counts), counts at a row boundary; in a stream that
  // searches all words from the output pass (up to 2^18 elements) and in one with the directory and
  // the select pass (four ranks per fragment, ranks crossing words inside a fragment's four).
  describe.each([4096 * 17 + 3, 2 ** 18 + 4096 * 3 + 5])('n = %i', (n) => it.each([
    ['bit 31 of every word', (i: number) => i % 32 === 31],
    ['bit 0 of every word', (i: number) => i % 32 === 0],
    ['every bit but 31', (i: number) => i % 32 !== 31],
    ['bits 15 and 16 of every word', (i: number) => i % 32 === 15 || i % 32 === 16],
    ['every other word full', (i: number) => (i >> 5) % 2 === 0],
    ['every other element', (i: number) => i % 2 === 1],
    ['one element every 1000 words', (i: number) => i % 32000 === 12345 % 32000],
    ['the first element only', (i: number) => i === 0],
    ['the last element only', (i: number, n: number) => i === n - 1],
    ['the first row exactly', (i: number) => i < 2048],
    ['the first row and one more', (i: number) => i <= 2048],
    ['all', () => true],
  ] as const)('kept %s', async (name, isKept) => {
    const engine = await testEngine();
    const c = input(engine, `bm/${n}/${name}`, () => Array.from({ length: n }, (_, i) => isKept(i, n)));
    await checkCompaction(engine, c, { keep: 'nonzero', algorithm: 'bitmask' }, `bitmask n=${n} ${name}`);
  }));

  it('reports its path', async () => {
    const engine = await testEngine();
    const result = engine.compact(engine.stream(new Uint32Array([0, 1, 2])), { keep: 'nonzero', algorithm: 'bitmask' });
    expect(result.stats).toMatchObject({ algorithm: 'bitmask', requestedAlgorithm: 'bitmask', concat: 'none', blockSize: undefined });
    expect(Array.from(await result.read())).toEqual([1, 2]);
    result.dispose();
  });
});

describe("algorithm 'auto' (per-block hybrid)", () => {
  it('mixes Horn and Jumping Jack block by block, exactly', async () => {
    const engine = await testEngine();
    const blockSize = 256;
    // blocks cycle through 3 %, 50 %, 95 % and 100 % kept: Horn, Jumping Jack, Horn, no search
    const n = blockSize * 64 + 17;
    const layers = [0.03, 0.5, 0.95, 1].map((density, k) => randomKept(n, density, k + 1));
    const c = input(engine, 'hybrid', () => layers[0].map((_, i) => layers[Math.floor(i / blockSize) % 4][i]));
    await checkCompaction(engine, c, { keep: 'nonzero', algorithm: 'auto', order: 'any', blockSize }, 'hybrid');
    const result = engine.compact(c.stream, { keep: 'nonzero', order: 'any', blockSize });
    expect(result.stats).toMatchObject({ algorithm: 'hybrid', requestedAlgorithm: 'auto', order: 'any' });
    result.dispose();
  });

  it("auto: the bitmask without block options; with blockSize, scan or concat Horn per block, or the hybrid with order: 'any'", async () => {
    const engine = await testEngine();
    const stream = engine.stream(Float32Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? 0 : i)));
    const want = Array.from({ length: 5000 }, (_, i) => i).filter((i) => i % 3 !== 0);
    for (const [options, path] of [
      [{}, 'bitmask'],
      [{ order: 'any' }, 'bitmask'],
      [{ blockSize: 64 }, 'horn'],
      [{ scan: 'blelloch' }, 'horn'],
      [{ concat: 'vertex-fetch' }, 'horn'],
      [{ blockSize: 64, order: 'any' }, 'hybrid'],
      [{ scan: 'blelloch', order: 'any' }, 'hybrid'],
      [{ concat: 'vertex-fetch', order: 'any' }, 'hybrid'],
    ] as const) {
      const result = engine.compact(stream, { keep: 'nonzero', ...options });
      expect(result.stats.algorithm, JSON.stringify(options)).toBe(path);
      expect(result.stats.order, JSON.stringify(options)).toBe(path === 'hybrid' ? 'any' : 'keep');
      const got = Array.from(await result.read());
      // order 'keep' (the default): input order, exactly; 'any': the same elements
      expect(path === 'hybrid' ? got.sort((a, b) => a - b) : got).toEqual(want);
      result.dispose();
    }
    stream.dispose();
  });
});

describe('stream shapes', () => {
  it.each([2047, 2049, 4095, 6145, 3 * 2048 + 1])('n = %i, not a multiple of the row width', async (n) => {
    const engine = await testEngine();
    const c = input(engine, `shape/${n}`, () => randomKept(n, 0.4, n));
    for (const algorithm of ['jumping-jack', 'horn', 'histopyramid', 'bitmask'] as const) {
      await checkCompaction(engine, c, applicableCompactOptions({ keep: 'nonzero', algorithm, blockSize: 256 }), `shape ${algorithm}`);
    }
  });

  it('compacts 4-component elements whole', async () => {
    const engine = await testEngine();
    const n = 10_000;
    const data = new Float32Array(n * 4).map((_, i) => (Math.floor(i / 4) % 3 === 0 ? i + 0.5 : 0));
    const expected = data.filter((_, i) => Math.floor(i / 4) % 3 === 0);
    for (const algorithm of ['horn', 'histopyramid', 'bitmask'] as const) {
      const result = engine.compact(engine.stream(data, { components: 4 }), { keep: 'nonzero', algorithm });
      expect(await result.count()).toBe(expected.length / 4);
      expectSameBits((await result.read()) as Float32Array, expected, algorithm);
      result.dispose();
    }
  });

  it.each(['horn', 'histopyramid', 'bitmask'] as const)('chains a result into the next compaction without reading its count (%s)', async (algorithm) => {
    const engine = await testEngine();
    const data = Uint32Array.from({ length: 50_000 }, (_, i) => i % 7);
    const first = engine.compact(engine.stream(data), { keep: 'nonzero', algorithm });
    const second = engine.compact(first.stream, { keep: { greaterThan: 3 }, algorithm });
    // (after a bitmask compaction, the other new path: a reduce-then-scan of a GPU-resident length)
    const scanned = engine.scan(second.stream, { exclusive: false, algorithm: algorithm === 'bitmask' ? 'reduce-then-scan' : undefined });
    const expected = data.filter((v) => v > 3);
    expect(await second.count()).toBe(expected.length);
    expectSameBits((await second.read()) as Uint32Array, expected);
    let sum = 0;
    expectSameBits((await scanned.read()) as Uint32Array, expected.map((v) => (sum += v)));
    first.dispose();
    second.dispose();
    scanned.dispose();
  });
});
