// Both forms of reduce-then-scan (src/scan/reduce-then-scan.ts) against the CPU, in every engine:
// the lanes (each fragment writes its group's running sums to 1, 4 or 8 attachments, as many as the
// context's draw buffers allow: headless-gl without the GPU server's shim writes one,
// capabilities.ts) and the summing tree (small scans, and four-component ones on one attachment).
// The engine picks lanes only for large inputs (LANES_SHAPE), so this file forces each form at
// small sizes, where group, segment and row boundaries are many:
// whole-stream and segmented, inclusive and exclusive, uint32 wrapping, int32 vec4, float32,
// max-allowable-size (Jumping Jack's inner scan) and the bitmask compaction's word counts.
import { afterEach, describe, expect, it } from 'vitest';
import { gpuOf } from '../src/internal.js';
import { LANES_SHAPE } from '../src/scan/reduce-then-scan.js';
import type { Engine } from '../src/index.js';
import { engineWithDrawBuffers, expectSameBits, restoreDrawBuffers, testContext, testEngine } from './support/engine.js';
import { appStates, createAppObjects, deleteAppObjects, resetState, snapshotState } from './support/gl-state.js';
import { random, referenceScan, sorted } from './support/reference.js';

/** Each form: its name, the attachments per pass, and whether lanes run (else the summing tree). */
const forms = [
  ['the summing tree, one attachment', 1, false],
  ['lanes of one attachment (4 per group)', 1, true],
  ['lanes of 4 attachments', 4, true],
  ['lanes of 8 attachments', 8, true],
] as const;
const defaultAboveTexels = LANES_SHAPE.aboveTexels;
const defaultMinDrawBuffers = LANES_SHAPE.minDrawBuffers;
afterEach(() => {
  LANES_SHAPE.aboveTexels = defaultAboveTexels;
  LANES_SHAPE.minDrawBuffers = defaultMinDrawBuffers;
});

/**
 * The engine with `drawBuffers` attachments per pass and lanes at every size (or, without `lanes`,
 * the summing tree at every size); undefined where the context has fewer.
 */
async function engineWith(drawBuffers: 1 | 4 | 8, lanes = true): Promise<Engine | undefined> {
  const engine = await engineWithDrawBuffers(drawBuffers);
  if (engine) {
    LANES_SHAPE.aboveTexels = 0;
    LANES_SHAPE.minDrawBuffers = lanes ? 1 : Infinity;
  }
  return engine;
}

const restore = restoreDrawBuffers;

function uints(n: number, seed: number, max = 2 ** 32): Uint32Array {
  const next = random(seed);
  return Uint32Array.from({ length: n }, () => Math.floor(next() * max));
}

describe.each(forms)('reduce-then-scan: %s', (_name, drawBuffers, lanes) => {
  it('whole-stream uint32 scans (sums wrap) across group and row boundaries, inclusive and exclusive', async (context) => {
    const engine = await engineWith(drawBuffers, lanes);
    context.skip(!engine, `this context writes fewer than ${drawBuffers} attachments per pass (engine.caps.drawBuffers); headless-gl writes 1`);
    try {
      for (const n of [1, 3, 15, 16, 17, 31, 32, 33, 1023, 1025, 2049, 2 ** 15 + 7, 2 ** 17 + 3]) {
        const data = uints(n, n);
        const stream = engine!.stream(data);
        for (const exclusive of [false, true]) {
          const scanned = engine!.scan(stream, { algorithm: 'reduce-then-scan', exclusive });
          expectSameBits((await scanned.read()) as Uint32Array, referenceScan(data, { exclusive }), `n=${n} exclusive=${exclusive}`);
          scanned.dispose();
        }
        stream.dispose();
      }
    } finally {
      restore(engine!);
    }
  });

  it('segmented float32 (integer-valued, so exact) and int32 vec4 scans', async (context) => {
    const engine = await engineWith(drawBuffers, lanes);
    context.skip(!engine, `this context writes fewer than ${drawBuffers} attachments per pass`);
    try {
      const next = random(drawBuffers);
      const floats = Float32Array.from({ length: 3 * 2048 + 77 }, () => Math.floor(next() * 33) - 16);
      const floatStream = engine!.stream(floats);
      for (const blockSize of [16, 32, 64, 256, 2048]) {
        for (const exclusive of [false, true]) {
          const scanned = engine!.scan(floatStream, { algorithm: 'reduce-then-scan', blockSize, exclusive });
          expectSameBits((await scanned.read()) as Float32Array, referenceScan(floats, { blockSize, exclusive }), `float32 block ${blockSize} exclusive=${exclusive}`);
          scanned.dispose();
        }
      }
      floatStream.dispose();
      const ints = Int32Array.from({ length: 4 * 5000 }, () => Math.floor(next() * 2 ** 32) - 2 ** 31);
      const vec4 = engine!.stream(ints, { components: 4 });
      for (const blockSize of [undefined, 16, 256]) {
        const scanned = engine!.scan(vec4, { algorithm: 'reduce-then-scan', blockSize, exclusive: blockSize === 16 });
        expectSameBits((await scanned.read()) as Int32Array, referenceScan(ints, { components: 4, blockSize, exclusive: blockSize === 16 }), `int32 vec4 block ${blockSize}`);
        scanned.dispose();
      }
      vec4.dispose();
    } finally {
      restore(engine!);
    }
  });

  it('compactions on it: Jumping Jack (max-allowable-size in its last pass) and the bitmask (word counts)', async (context) => {
    const engine = await engineWith(drawBuffers, lanes);
    context.skip(!engine, `this context writes fewer than ${drawBuffers} attachments per pass`);
    try {
      const n = 2 ** 15 + 11;
      const data = uints(n, 99, 1000);
      const expected = data.filter((v) => v % 3 !== 0);
      const stream = engine!.stream(data);
      for (const blockSize of [16, 256, 2048]) {
        const result = engine!.compact(stream, { keep: { glsl: 'return value.x % 3u != 0u;' }, algorithm: 'jumping-jack', scan: 'reduce-then-scan', blockSize });
        expect(await result.count()).toBe(expected.length);
        expectSameBits(sorted((await result.stream.read()) as Uint32Array), sorted(expected), `jumping jack block ${blockSize}`);
        result.dispose();
      }
      const bitmask = engine!.compact(stream, { keep: { glsl: 'return value.x % 3u != 0u;' }, algorithm: 'bitmask' });
      expect(await bitmask.count()).toBe(expected.length);
      expectSameBits((await bitmask.stream.read()) as Uint32Array, expected, 'bitmask');
      bitmask.dispose();
      stream.dispose();
    } finally {
      restore(engine!);
    }
  });
});

it("the lanes' shaders compile where the context cannot draw them (headless-gl's ANGLE rejects what Chromium's accepts, e.g. line continuations)", async (context) => {
  const engine = await testEngine();
  context.skip(engine.caps.drawBuffers >= 4, 'this context draws the lanes, and the tests above check their results');
  // Attachment 0 only is written here (capabilities.ts), so the results are wrong and not read: this
  // compiles every program the lanes take (up from the stream and from lanes, down with a parent
  // texture and with parent lanes, exclusive, segmented, max-allowable-size, popcount input).
  const stream = engine.stream(uints(40_000, 5, 1000));
  const vec4 = engine.stream(uints(4 * 3000, 6, 1000), { components: 4 });
  try {
    // As many as the context claims (a phone-profile context claims 4 and refuses a fifth attachment).
    const gl = gpuOf(engine).gl;
    const claimed = Number(gl.getParameter(gl.MAX_DRAW_BUFFERS));
    for (const drawBuffers of ([4, 8] as const).filter((count) => count <= claimed)) {
      gpuOf(engine).drawBuffers = drawBuffers;
      LANES_SHAPE.aboveTexels = 0;
      for (const options of [{}, { exclusive: true }, { blockSize: 16 }, { blockSize: 2048, exclusive: true }] as const) {
        engine.scan(stream, { algorithm: 'reduce-then-scan', ...options }).dispose();
        engine.scan(vec4, { algorithm: 'reduce-then-scan', ...options }).dispose();
      }
      engine.compact(stream, { keep: 'nonzero', algorithm: 'jumping-jack', scan: 'reduce-then-scan', blockSize: 256 }).dispose();
      const large = engine.stream(new Uint32Array(2 ** 19 + 1).fill(1));
      engine.compact(large, { keep: 'nonzero', algorithm: 'bitmask' }).dispose();
      large.dispose();
    }
  } finally {
    restore(engine);
    stream.dispose();
    vec4.dispose();
  }
  await engine.finish();
});

it("the lanes leave the app's texture bindings (TEXTURE_2D and TEXTURE_2D_ARRAY on every unit, samplers, the active unit) as they were", async () => {
  // With one attachment (headless-gl) the lanes are TEXTURE_2Ds; with more, texture arrays.
  const { gl, engine } = await testContext();
  const app = createAppObjects(gl);
  const items = ['TEXTURE_2D bound on units 0–7', 'TEXTURE_2D_ARRAY, TEXTURE_3D, TEXTURE_CUBE_MAP bound on units 0–7', 'LINEAR sampler objects bound on units 0–7', 'active texture unit 5'];
  try {
    gpuOf(engine).drawBuffers = engine.caps.drawBuffers;
    LANES_SHAPE.aboveTexels = 0;
    for (const name of items) appStates.find((item) => item.name === name)!.apply(gl, app);
    const before = snapshotState(gl);
    const data = uints(20_000, 7, 1000);
    const stream = engine.stream(data);
    for (const options of [{}, { exclusive: true }, { blockSize: 256 }] as const) {
      const scanned = engine.scan(stream, { algorithm: 'reduce-then-scan', ...options });
      expectSameBits((await scanned.read()) as Uint32Array, referenceScan(data, options), JSON.stringify(options));
      scanned.dispose();
    }
    stream.dispose();
    expect(snapshotState(gl)).toEqual(before);
  } finally {
    resetState(gl);
    deleteAppObjects(gl, app);
  }
});
