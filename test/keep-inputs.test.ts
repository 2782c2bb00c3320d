// What a keep predicate can read besides its element (issue 21): other streams of the engine
// (keep.streams, read with the streamGlsl functions), the app's own textures (keep.textures, bound
// to free units and put back, their parameters untouched), matrix and typed-array uniforms, and
// keep: { flags } (CUB's DeviceSelect::Flagged). Every result against a CPU reference, on every
// compaction path (the keep test runs in keep-flags.frag or keep-bitmask.frag).
import { mat3, mat4, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import type { CompactOptions, Engine, Stream } from '../src/index.js';
import { drawnTexture } from './support/app-textures.js';
import { expectSameBits, testContext, testEngine } from './support/engine.js';

const paths: Array<Pick<CompactOptions, 'algorithm' | 'order' | 'global'>> = [
  { algorithm: 'bitmask' },
  { algorithm: 'horn' },
  { algorithm: 'histopyramid' },
  { algorithm: 'horn', global: true },
  { algorithm: 'jumping-jack', order: 'any' },
];
const label = (path: (typeof paths)[number]) => `${path.algorithm}${path.global ? ' global' : ''}`;

/** The kept input positions of `stream` under `keep`, on `path` (sorted when the path does not keep order). */
async function keptIndices(engine: Engine, stream: Stream, keep: CompactOptions['keep'], path: (typeof paths)[number]): Promise<Uint32Array> {
  const result = engine.compact(stream, { keep, ...path, output: 'indices' });
  try {
    const got = (await result.read()) as Uint32Array;
    return path.order === 'any' ? got.slice().sort() : got;
  } finally {
    result.dispose();
  }
}

const indicesWhere = (n: number, kept: (i: number) => boolean) => Uint32Array.from({ length: n }, (_, i) => i).filter(kept);

describe('keep.streams: the snippet reads other streams with the streamGlsl functions', () => {
  it.each(paths)('a float radius per element decides, on a uint32 stream ($algorithm)', async (path) => {
    const engine = await testEngine();
    const n = 4099; // two rows and a bit, a partial last word
    const ids = engine.stream(Uint32Array.from({ length: n }, (_, i) => i * 7));
    const radii = Float32Array.from({ length: n }, (_, i) => ((i * 2654435761) % 1000) / 100);
    const radiusStream = engine.stream(radii);
    // uniforms take the stream's type (uint here), so the float comparison converts
    const keep = { glsl: 'return glcompactFloatElement(radii, index).x > float(minRadius) && value.x % 2u == 0u;', uniforms: { minRadius: 4 }, streams: { radii: radiusStream } };
    expectSameBits(await keptIndices(engine, ids, keep, path), indicesWhere(n, (i) => radii[i] > 4 && (i * 7) % 2 === 0), label(path));
    ids.dispose();
    radiusStream.dispose();
  });

  it('4-component streams of each type, one of them GPU-resident (a compaction output), read by index', async () => {
    const engine = await testEngine();
    const n = 2049;
    const positions = Float32Array.from({ length: 4 * n }, (_, k) => ((k * 37) % 101) - 50);
    const lives = Int32Array.from({ length: n }, (_, i) => (i % 5) - 2);
    const source = engine.stream(Uint32Array.from({ length: n }, (_, i) => i));
    const posStream = engine.stream(positions, { components: 4 });
    const lifeStream = engine.stream(lives);
    // mask: the even ids, compacted: element j of `even` is 2j (its length stays on the GPU)
    const even = engine.compact(source, { keep: { glsl: 'return value.x % 2u == 0u;' } });
    const keep = {
      glsl: 'vec4 p = glcompactFloatElement(positions, index);\nint life = int(glcompactElement(lives, index).x);\nuint twice = glcompactElement(evens, index / 2u).x;\nreturn p.y > 0.0 && life >= 0 && twice == index - index % 2u;',
      streams: { positions: posStream, lives: lifeStream, evens: even.stream },
    };
    expectSameBits(await keptIndices(engine, source, keep, { algorithm: 'bitmask' }), indicesWhere(n, (i) => positions[4 * i + 1] > 0 && lives[i] >= 0));
    even.dispose();
    for (const s of [source, posStream, lifeStream]) s.dispose();
  });
});

describe("keep.textures: the app's own textures, sampled by name", () => {
  function parameters(gl: WebGL2RenderingContext, texture: WebGLTexture): void {
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.MIRRORED_REPEAT); // a parameter the engine must not touch
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  /** A float texture uploaded from data (float uploads work everywhere, headless-gl included). */
  function floatTexture(gl: WebGL2RenderingContext, data: Float32Array, side: number): WebGLTexture {
    const texture = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R32F, side, side, 0, gl.RED, gl.FLOAT, data);
    parameters(gl, texture);
    return texture;
  }

  it.each(paths)('uint, int and float textures (texelFetch and textureLod), app bindings and parameters kept ($algorithm)', async (path) => {
    const { gl, engine } = await testContext();
    const side = 64;
    const n = side * side + 7; // a few elements past the textures: the snippet clamps
    const visible = Uint32Array.from({ length: side * side }, (_, k) => (Math.imul(k, 2654435761) >>> 29) & 1);
    const layer = Int32Array.from({ length: side * side }, (_, k) => (k % 7) - 3);
    const depth = Float32Array.from({ length: side * side }, (_, k) => (k % 13) / 16); // exact in float32
    const visibleTexture = drawnTexture(gl, 'uint', '(k * 2654435761u >> 29u) & 1u', side);
    parameters(gl, visibleTexture);
    const layerTexture = drawnTexture(gl, 'int', 'int(k % 7u) - 3', side);
    parameters(gl, layerTexture);
    const depthTexture = floatTexture(gl, depth, side);
    // the app's own bindings on the first units, which the engine's samplers will use
    const appBound = [gl.createTexture()!, gl.createTexture()!, gl.createTexture()!, gl.createTexture()!, gl.createTexture()!];
    appBound.forEach((texture, unit) => {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, texture);
    });
    gl.activeTexture(gl.TEXTURE2);
    const stream = engine.stream(Float32Array.from({ length: n }, (_, i) => i)); // float: maxDepth is a float uniform
    const keep = {
      glsl: [
        'uint k = min(index, 4095u);',
        'ivec2 at = ivec2(int(k % 64u), int(k / 64u));',
        'bool seen = texelFetch(visible, at, 0).r != 0u;',
        'int l = texelFetch(layers, at, 0).r;',
        'float d = textureLod(depth, (vec2(at) + 0.5) / 64.0, 0.0).r;',
        'return seen && l >= 0 && d < maxDepth;',
      ].join('\n'),
      uniforms: { maxDepth: 0.5 },
      textures: { visible: { texture: visibleTexture, type: 'uint' as const }, layers: { texture: layerTexture, type: 'int' as const }, depth: { texture: depthTexture, type: 'float' as const } },
    };
    const expected = indicesWhere(n, (i) => {
      const k = Math.min(i, side * side - 1);
      return visible[k] !== 0 && layer[k] >= 0 && depth[k] < 0.5;
    });
    expectSameBits(await keptIndices(engine, stream, keep, path), expected, label(path));
    // the app's state: the active unit and every unit's binding as they were; parameters untouched
    expect(gl.getParameter(gl.ACTIVE_TEXTURE)).toBe(gl.TEXTURE2);
    appBound.forEach((texture, unit) => {
      gl.activeTexture(gl.TEXTURE0 + unit);
      expect(gl.getParameter(gl.TEXTURE_BINDING_2D), `unit ${unit}`).toBe(texture);
    });
    for (const texture of [visibleTexture, layerTexture, depthTexture]) {
      gl.bindTexture(gl.TEXTURE_2D, texture);
      expect(gl.getTexParameter(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S)).toBe(gl.MIRRORED_REPEAT);
      expect(gl.getTexParameter(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER)).toBe(gl.NEAREST);
    }
    gl.bindTexture(gl.TEXTURE_2D, null);
    gl.activeTexture(gl.TEXTURE0);
    for (const texture of [visibleTexture, layerTexture, depthTexture, ...appBound]) gl.deleteTexture(texture);
    stream.dispose();
  });
});

describe('matrix and typed-array uniforms', () => {
  it('mat4 (gl-matrix, column-major) on a float32 stream: a clip-space test, on every path', async () => {
    const engine = await testEngine();
    const n = 3000;
    const points = Float32Array.from({ length: 4 * n }, (_, k) => (k % 4 === 3 ? 1 : (((k * 7919) % 2001) - 1000) / 100));
    const stream = engine.stream(points, { components: 4 });
    const view = mat4.create();
    mat4.fromTranslation(view, [1, -2, 0]);
    mat4.scale(view, view, [2, 0.5, 1]); // x' = 2x + 1, y' = 0.5y - 2
    const keep = { glsl: 'vec4 p = viewProj * vec4(value.xyz, 1.0);\nreturn p.x > 0.0 && p.y < 0.0;', uniforms: { viewProj: view } };
    const expected = indicesWhere(n, (i) => 2 * points[4 * i] + 1 > 0 && 0.5 * points[4 * i + 1] - 2 < 0);
    for (const path of paths) expectSameBits(await keptIndices(engine, stream, keep, path), expected, label(path));
    stream.dispose();
  });

  it('mat3 on a uint32 stream (matrices are float on every type), a Float32Array vec3 on a float32 one, a readonly tuple on an int32 one', async () => {
    const engine = await testEngine();
    const n = 1000;
    const ids = engine.stream(Uint32Array.from({ length: n }, (_, i) => i));
    const m = mat3.fromValues(3, 0, 0, 0, 1, 0, -100, 0, 1); // x' = 3x - 100 (column-major: the last column translates)
    const keep = { glsl: 'vec3 p = transform * vec3(float(value.x), 0.0, 1.0);\nreturn p.x > 500.0;', uniforms: { transform: m } };
    expectSameBits(await keptIndices(engine, ids, keep, { algorithm: 'bitmask' }), indicesWhere(n, (i) => 3 * i - 100 > 500));
    const floats = engine.stream(Float32Array.from({ length: n }, (_, i) => i / 10));
    const weights = vec3.fromValues(2, 0, 0);
    expectSameBits(await keptIndices(engine, floats, { glsl: 'return dot(vec3(value.x, 1.0, 1.0), weights) > 150.0;', uniforms: { weights } }, { algorithm: 'horn' }), indicesWhere(n, (i) => 2 * Math.fround(i / 10) > 150));
    floats.dispose();
    const signed = engine.stream(Int32Array.from({ length: n }, (_, i) => i - 500));
    const range = [-20, 30] as const;
    expectSameBits(await keptIndices(engine, signed, { glsl: 'return value.x >= range.x && value.x < range.y;', uniforms: { range } }, { algorithm: 'horn' }), indicesWhere(n, (i) => i - 500 >= -20 && i - 500 < 30));
    ids.dispose();
    signed.dispose();
  });
});

describe('keep: { flags }', () => {
  it.each(paths)('uint32 flags; float32 flags with -0 (not kept) and NaN (kept) ($algorithm)', async (path) => {
    const engine = await testEngine();
    const n = 2 ** 12 + 33;
    const values = engine.stream(Float32Array.from({ length: n }, (_, i) => i + 0.5));
    const uintFlags = Uint32Array.from({ length: n }, (_, i) => ((i * 2654435761) >>> 30) === 0 ? 7 : 0);
    const flags = engine.stream(uintFlags);
    expectSameBits(await keptIndices(engine, values, { flags }, path), indicesWhere(n, (i) => uintFlags[i] !== 0), label(path));
    const floatFlags = Float32Array.from({ length: n }, (_, i) => [0, -0, NaN, 1e-30, -2][i % 5]);
    const flags2 = engine.stream(floatFlags);
    expectSameBits(await keptIndices(engine, values, { flags: flags2 }, path), indicesWhere(n, (i) => i % 5 >= 2), label(path));
    for (const s of [values, flags, flags2]) s.dispose();
  });

  it("flags from a compaction (length on the GPU): elements past the flags' length are not kept", async () => {
    const engine = await testEngine();
    const n = 5000;
    const values = engine.stream(Int32Array.from({ length: n }, (_, i) => -i));
    const source = engine.stream(Uint32Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : i)));
    const compacted = engine.compact(source, { keep: 'nonzero' }); // 3333 non-zero values, then padding
    const m = n - Math.ceil(n / 3);
    const expected = indicesWhere(n, (i) => i < m);
    expectSameBits(await keptIndices(engine, values, { flags: compacted.stream }, { algorithm: 'bitmask' }), expected);
    expect(await compacted.count()).toBe(m);
    compacted.dispose();
    values.dispose();
    source.dispose();
  });
});
