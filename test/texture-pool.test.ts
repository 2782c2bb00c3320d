// The texture pool under changing lengths (issue 25): a stream of a new length every frame used to
// miss the pool almost every time for its larger targets (one texture per height: 1,318 idle textures,
// the pool full at its budget). Heights are now rounded up to size classes, so frames of nearby lengths
// share textures. A functional test of reuse (hits and idle bytes), not a timing test.
import { describe, expect, it, vi } from 'vitest';
import { createEngine } from '../src/index.js';
import { gpuOf } from '../src/internal.js';
import { texelFormats } from '../src/texel-format.js';
import { heightClass } from '../src/texture-pool.js';
import { testContext } from './support/engine.js';
import { countGlObjects, nonZero } from './support/gl-objects.js';

describe('texture pool', () => {
  it('height classes: exact up to 4 rows, then at most 25 % more, never fewer rows', () => {
    for (let rows = 1; rows <= 5000; rows++) {
      const allocated = heightClass(rows);
      expect(allocated).toBeGreaterThanOrEqual(rows);
      if (rows <= 4) expect(allocated).toBe(rows);
      else expect(allocated / rows).toBeLessThanOrEqual(1.25);
    }
    expect([5, 8, 9, 293, 300].map(heightClass)).toEqual([5, 8, 10, 320, 320]);
    // few classes: 4 per octave
    expect(new Set(Array.from({ length: 4096 }, (_, i) => heightClass(i + 1))).size).toBeLessThan(50);
  });

  it('a stream of a new length every frame reuses the pool\'s textures (hits ≥ 90 % after warm-up), every count exact', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl, { texturePoolBytes: 16 * 2 ** 20 });
    const pool = gpuOf(engine).pool;
    let seed = 99;
    const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const frames = 60;
    let hitsAtWarm = 0;
    let missesAtWarm = 0;
    for (let frame = 0; frame < frames; frame++) {
      if (frame === 10) [hitsAtWarm, missesAtWarm] = [pool.hits, pool.misses];
      const length = Math.round(60_000 * (0.5 - 0.5 * Math.cos((2 * Math.PI * frame) / 30)) + random() * 3000);
      const data = Float32Array.from({ length }, random);
      const stream = engine.stream(data);
      const live = engine.compact(stream, { keep: { glsl: 'return value.x > 0.25;' } });
      const sums = engine.scan(live.stream);
      expect(await live.count(), `frame ${frame}`).toBe(data.filter((v) => v > 0.25).length);
      for (const object of [sums, live, stream]) object.dispose();
      expect(engine.idleTextureBytes).toBeLessThanOrEqual(16 * 2 ** 20);
    }
    const hits = pool.hits - hitsAtWarm;
    const misses = pool.misses - missesAtWarm;
    console.log(`[texture-pool] after frame 10: ${hits} hits, ${misses} misses`);
    expect(hits / (hits + misses), `${hits} hits, ${misses} misses after frame 10`).toBeGreaterThanOrEqual(0.9);
    // Without size classes every frame made a new texture for each target whose height follows the
    // length (45 misses in these 50 frames); with them a new texture is rare (15 here).
    expect(misses, 'new textures in 50 frames of changing lengths').toBeLessThanOrEqual(25);
    engine.dispose();
  });

  // A target may have a companion texture (render-target.ts; the sort's select writes its planes
  // there): pooled apart from the same target without one, counted in its bytes, deleted with it.
  it('a target with a companion texture is pooled apart from one without, counts its bytes and deletes both textures', async (context) => {
    const { gl } = await testContext();
    const engine = createEngine(gl);
    context.skip(engine.caps.drawBuffers < 8, `a 4-layer target and its companion are 5 attachments; this context writes ${engine.caps.drawBuffers} (headless-gl: 1)`);
    const pool = gpuOf(engine).pool;
    const { rgba32ui, r32ui } = texelFormats;
    engine.trim(); // the capability probe's targets, made before the count starts
    const before = engine.resources;
    const counter = countGlObjects(gl, ['Texture', 'Framebuffer']);
    try {
      const plain = pool.take(16, 8, rgba32ui, 4);
      const paired = pool.take(16, 8, rgba32ui, 4, r32ui);
      expect(plain.companion).toBeUndefined();
      expect(paired.companion).toBeDefined();
      expect(paired.bytes).toBe(16 * 8 * (4 * 16 + 4));
      expect(counter.live).toEqual({ Texture: 3, Framebuffer: 2 });
      plain.free();
      paired.free();
      // Each comes back for its own kind of request only.
      const again = pool.take(16, 8, rgba32ui, 4, r32ui);
      expect(again).toBe(paired);
      const plainAgain = pool.take(16, 8, rgba32ui, 4);
      expect(plainAgain).toBe(plain);
      again.free();
      plainAgain.free();
      engine.trim();
      expect(nonZero(counter.live), 'GL objects after trim').toEqual({});
      expect(engine.resources).toEqual(before);
    } finally {
      counter.restore();
      engine.dispose();
    }
  });

  it('counts the targets made again after the pool freed them for its budget; debug mode warns once, naming texturePoolBytes', async () => {
    const { gl } = await testContext();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const data = Uint32Array.from({ length: 2 ** 18 }, (_, i) => Math.imul(i, 2654435761) >>> 0);
    const want = data.filter((v) => v % 3 === 0).length;
    const compactTwice = async (options: Parameters<typeof createEngine>[1]) => {
      const engine = createEngine(gl, options);
      const stream = engine.stream(data);
      for (let call = 0; call < 2; call++) {
        const kept = engine.compact(stream, { keep: { glsl: 'return value.x % 3u == 0u;' } });
        expect(await kept.count()).toBe(want);
        kept.dispose();
      }
      const { reallocations } = gpuOf(engine).pool;
      stream.dispose();
      engine.dispose();
      return reallocations;
    };
    try {
      // 2^18 elements: 1 MiB R32UI targets, more than a 512 KiB pool holds: the second call makes
      // again what the first gave back (and a call's later passes what its earlier ones gave back).
      expect(await compactTwice({ texturePoolBytes: 2 ** 19, debug: true })).toBeGreaterThan(0);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/texturePoolBytes \(0\.5 MiB\)/);
      // Without debug mode the count still moves, and nothing is said.
      warn.mockClear();
      expect(await compactTwice({ texturePoolBytes: 2 ** 19 })).toBeGreaterThan(0);
      expect(warn).not.toHaveBeenCalled();
      // The default pool holds these calls: nothing made again, nothing said.
      expect(await compactTwice({ debug: true })).toBe(0);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('a target evicted for the budget and made again counts once per eviction; trim() forgets; a pool of 0 bytes counts none', async () => {
    const { gl } = await testContext();
    const { r32ui, rgba32ui } = texelFormats;
    const engine = createEngine(gl, { texturePoolBytes: 72 * 1024 });
    const pool = gpuOf(engine).pool;
    try {
      engine.trim(); // the capability probe's targets
      const before = pool.reallocations;
      const small = pool.take(64, 64, r32ui);
      const large = pool.take(64, 64, rgba32ui);
      expect([small.bytes, large.bytes]).toEqual([16 * 1024, 64 * 1024]);
      small.free();
      large.free(); // 80 KiB idle, over 72: the older, small, is evicted for the budget
      expect(engine.idleTextureBytes).toBe(64 * 1024);
      const again = pool.take(64, 64, r32ui);
      expect(pool.reallocations - before, 'made again after its eviction').toBe(1);
      const another = pool.take(64, 64, r32ui);
      expect(pool.reallocations - before, 'a second at once: the working set grew, no eviction to answer for').toBe(1);
      again.free(); // 80 KiB again: the large one, now the oldest, is evicted for the budget
      another.free();
      engine.trim(); // the app's choice: what it frees is no reallocation, nor is what was evicted before it
      pool.take(64, 64, rgba32ui).free();
      expect(pool.reallocations - before, 'after trim()').toBe(1);
    } finally {
      engine.dispose();
    }
    const off = createEngine(gl, { texturePoolBytes: 0 }); // the pool disabled on purpose
    try {
      const offPool = gpuOf(off).pool;
      const before = offPool.reallocations;
      for (let call = 0; call < 3; call++) offPool.take(64, 64, r32ui).free();
      expect(offPool.misses).toBeGreaterThanOrEqual(3);
      expect(offPool.reallocations - before).toBe(0);
    } finally {
      off.dispose();
    }
  });

  it('trim() frees what the app chose to free: targets made after it are no reallocation', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl);
    const stream = engine.stream(new Uint32Array(2 ** 16));
    for (let call = 0; call < 2; call++) {
      engine.scan(stream).dispose();
      engine.trim();
    }
    expect(gpuOf(engine).pool.misses).toBeGreaterThan(0);
    expect(gpuOf(engine).pool.reallocations).toBe(0);
    stream.dispose();
    engine.dispose();
  });
});
