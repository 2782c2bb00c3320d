// engine.tune() (issue 20): the engine measures every path on its own context and 'auto' (and the
// default whole-stream scan) take the fastest per size class; results stay exact, order changes only
// with order: 'any'. A profile round-trips through JSON and is refused on another renderer or version.
import { describe, expect, it } from 'vitest';
import { createEngine, type TuningProfile } from '../src/index.js';
import { ENGINE_VERSION } from '../src/tuning.js';
import { testContext } from './support/engine.js';

describe('engine.tune()', () => {
  it('learns a path per size class; auto and the default scan take it; results stay exact', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl);
    engine.trim();
    const before = engine.resources;
    const profile = await engine.tune({ sizes: [1000, 20_000], densities: [0.2, 0.8], repeats: 1 });
    expect(profile).toMatchObject({ format: 'glcompact-profile', version: ENGINE_VERSION, renderer: engine.caps.renderer });
    const classes = Object.keys(profile.compact.keep).sort();
    expect(classes).toHaveLength(2);
    const ordered = ['bitmask', 'horn', 'horn-global', 'histopyramid'];
    for (const key of classes) {
      expect(ordered, `keep[${key}]`).toContain(profile.compact.keep[key]);
      expect(['jumping-jack', 'hybrid', ...ordered], `any[${key}]`).toContain(profile.compact.any[key]);
      expect(['reduce-then-scan', 'blelloch', 'recursive-doubling']).toContain(profile.scan[key]);
      // every path was timed at every density
      expect(Object.keys(profile.timings[`${key}/0.2`]).sort()).toEqual(['bitmask', 'histopyramid', 'horn', 'horn-global', 'hybrid', 'jumping-jack']);
    }
    console.log(`[tuning] ${engine.caps.renderer}: keep ${JSON.stringify(profile.compact.keep)}, any ${JSON.stringify(profile.compact.any)}, scan ${JSON.stringify(profile.scan)}`);

    for (const n of [1000, 20_000]) {
      const data = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) % 10);
      const want = Array.from(data).filter((v) => v > 3);
      const stream = engine.stream(data);
      const key = String(Math.round(Math.log2(stream.layout.capacity)));
      const kept = engine.compact(stream, { keep: { greaterThan: 3 } });
      expect(kept.stats.algorithm).toBe(profile.compact.keep[key]);
      expect(kept.stats.order).toBe('keep');
      expect(Array.from(await kept.read())).toEqual(want);
      const any = engine.compact(stream, { keep: { greaterThan: 3 }, order: 'any' });
      expect(any.stats.algorithm).toBe(profile.compact.any[key]);
      expect(Array.from(await any.read()).sort((a, b) => a - b)).toEqual([...want].sort((a, b) => a - b));
      const sums = engine.scan(stream);
      expect(engine.lastScanStats!.algorithm).toBe(profile.scan[key]);
      let total = 0;
      expect(Array.from(await sums.read())).toEqual(Array.from(data, (v) => (total += v)));
      for (const object of [sums, any, kept, stream]) object.dispose();
    }
    engine.useProfile(null);
    const stream = engine.stream(new Uint32Array(1000));
    const defaultPath = engine.compact(stream, { keep: 'nonzero' });
    expect(defaultPath.stats.algorithm).toBe('bitmask');
    defaultPath.dispose();
    stream.dispose();
    engine.trim();
    expect(engine.resources.textures).toBe(before.textures);
    expect(engine.resources.buffers).toBe(before.buffers);
    engine.dispose();
  });

  it('a profile round-trips through JSON; another renderer or version is refused; bad options are refused', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl);
    const profile: TuningProfile = {
      format: 'glcompact-profile', version: ENGINE_VERSION, renderer: engine.caps.renderer, measured: '2026-11-24T00:00:00Z',
      compact: { keep: { 11: 'horn-global' }, any: { 11: 'jumping-jack' } }, scan: { 11: 'blelloch' }, timings: {}, work: {},
    };
    engine.useProfile(JSON.parse(JSON.stringify(profile)));
    expect(engine.profile).toEqual(profile);
    const stream = engine.stream(Uint32Array.from({ length: 2000 }, (_, i) => i % 3));
    const kept = engine.compact(stream, { keep: 'nonzero' });
    expect(kept.stats.algorithm).toBe('horn-global');
    expect(engine.compact(stream, { keep: 'nonzero', order: 'any' }).stats.algorithm).toBe('jumping-jack');
    // explicit choices and block options are not overridden
    expect(engine.compact(stream, { keep: 'nonzero', algorithm: 'bitmask' }).stats.algorithm).toBe('bitmask');
    expect(engine.compact(stream, { keep: 'nonzero', blockSize: 64 }).stats.algorithm).toBe('horn');
    expect(() => engine.useProfile({ ...profile, renderer: 'Another GPU' })).toThrow(/measured on 'Another GPU', this context is/);
    expect(() => engine.useProfile({ ...profile, version: '0.0.1' })).toThrow(/measured by glcompact 0\.0\.1, this is/);
    expect(() => engine.useProfile({ ...profile, compact: { keep: { 11: 'jumping-jack' }, any: {} } })).toThrow(/compact\.keep\["11"\] = "jumping-jack" is not a path the engine can take there/);
    expect(() => engine.useProfile({} as never)).toThrow(/format 'glcompact-profile'/);
    await expect(engine.tune({ sizes: [0] })).rejects.toThrow(/sizes must be a non-empty array/);
    await expect(engine.tune({ densities: [2] })).rejects.toThrow(/densities must be/);
    expect(() => engine.compact(stream, { keep: 'nonzero', algorithm: 'jumping-jack', order: 'keep' })).toThrow(/does not keep the input's order, but options.order is 'keep'/);
    engine.dispose();
  });
});
