// Every GL object the engine makes is owned and freed. Checked twice: by the engine's own counters
// and, independently, by counting create*/delete* calls on the context itself (shaders included:
// a linked program's shaders are deleted, so none outlive the engine).
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { expectSameBits, testContext } from './support/engine.js';
import { countGlObjects } from './support/gl-objects.js';
import { gpuOf } from '../src/internal.js';
import { applicableCompactOptions } from './support/options.js';

async function mixedWork(engine: Engine, i: number): Promise<void> {
  const data = Uint32Array.from({ length: 3000 + i }, (_, j) => (j * 7 + i) % 5);
  const stream = engine.stream(data);
  const algorithm = (['recursive-doubling', 'blelloch', 'reduce-then-scan'] as const)[i % 3];
  const scanned = engine.scan(stream, { algorithm, exclusive: i % 3 === 0 });
  const result = engine.compact(stream, applicableCompactOptions({
    keep: 'nonzero',
    algorithm: (['jumping-jack', 'horn', 'jumping-jack', 'bitmask'] as const)[i % 4],
    global: i % 5 === 0 && i % 4 === 1, // Horn only
    blockSize: [16, 256, 2048][i % 3],
    output: i % 4 === 0 ? 'indices' : 'values',
    scan: algorithm,
  }));
  expect(await result.count(), `op ${i}`).toBe(data.filter((v) => v !== 0).length);
  result.dispose();
  scanned.dispose();
  stream.dispose();
}

describe('resource ownership', () => {
  it('200 scans and compactions return every live count to baseline', async () => {
    const { gl, engine } = await testContext();
    // Warm up every option combination first (60 = lcm of the cycles in mixedWork): programs are
    // compiled once per variant and cached for the engine's lifetime, by design.
    for (let i = 0; i < 60; i++) await mixedWork(engine, i);
    const baseline = engine.resources;
    const counter = countGlObjects(gl);
    try {
      for (let i = 0; i < 200; i++) await mixedWork(engine, i);
      expect(engine.resources).toEqual(baseline);
      for (const [kind, live] of Object.entries(counter.live)) expect(live, `${kind}s left alive on the context`).toBe(0);
    } finally {
      counter.restore();
    }
  });

  it('programs are compiled once and reused', async () => {
    const { engine } = await testContext();
    await mixedWork(engine, 1);
    const programs = engine.resources.programs;
    for (let i = 0; i < 6; i++) await mixedWork(engine, 1);
    expect(engine.resources.programs).toBe(programs);
  });

  it('reuses textures up to the pool budget, and trim() frees the idle ones', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl, { texturePoolBytes: 64 * 2 ** 20 });
    const stream = engine.stream(new Uint32Array(2 ** 16).map((_, i) => i % 3));
    const textureCounts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const result = engine.compact(stream, { keep: 'nonzero' });
      await result.count();
      result.dispose();
      textureCounts.push(engine.resources.textures);
    }
    // after the first call every target comes from the pool: no new textures
    expect(new Set(textureCounts.slice(1)).size).toBe(1);
    expect(engine.idleTextureBytes).toBeGreaterThan(0);
    expect(engine.idleTextureBytes).toBeLessThanOrEqual(64 * 2 ** 20);
    engine.trim();
    expect(engine.idleTextureBytes).toBe(0);
    expect(engine.resources.textures).toBe(1); // just the stream
    engine.dispose();

    const unpooled = createEngine(gl, { texturePoolBytes: 0 });
    const s2 = unpooled.stream(new Uint32Array([1, 0, 2]));
    unpooled.compact(s2, { keep: 'nonzero' }).dispose();
    expect(unpooled.idleTextureBytes).toBe(0);
    expect(unpooled.resources.textures).toBe(1); // just the stream
    unpooled.dispose();
  });

  it('engine.dispose() frees everything it made, streams included, and is idempotent', async () => {
    const { gl } = await testContext();
    const counter = countGlObjects(gl);
    try {
      const engine = createEngine(gl);
      const stream = engine.stream(new Uint32Array([1, 0, 2]));
      engine.compact(stream, { keep: 'nonzero' }); // left undisposed on purpose
      engine.scan(stream);
      expect(engine.resources.textures).toBeGreaterThan(0);
      engine.dispose();
      engine.dispose();
      expect(Object.values(engine.resources).every((n) => n === 0)).toBe(true);
      for (const [kind, live] of Object.entries(counter.live)) expect(live, `${kind}s left alive`).toBe(0);
      await expect(stream.read()).rejects.toThrow(/disposed/);
    } finally {
      counter.restore();
    }
  });
});

describe('failure inside a scan', () => {
  it('frees the ping-pong targets when a pass cannot be built', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl);
    const stream = engine.stream(new Uint32Array(5000).fill(1));
    const gpu = gpuOf(engine) as unknown as { program: (...args: unknown[]) => unknown };
    const program = gpu.program.bind(gpu);
    let calls = 0;
    gpu.program = (...args: unknown[]) => {
      if (++calls === 2) throw new Error('simulated driver failure');
      return program(...args);
    };
    expect(() => engine.scan(stream, { algorithm: 'recursive-doubling', radix: 2, blockSize: 256 })).toThrow('simulated driver failure');
    gpu.program = program;
    engine.trim();
    expect(engine.resources.textures).toBe(1); // the stream; nothing stranded outside the pool
    const scanned = engine.scan(stream, { algorithm: 'recursive-doubling', radix: 2, blockSize: 256 });
    // Ones scanned in blocks of 256: 1..256 again in every block.
    expectSameBits(await scanned.read(), Uint32Array.from({ length: 5000 }, (_, i) => (i % 256) + 1));
    engine.dispose();
  });
});
