// One cleanup scope per driver (gpu.scope): whichever pass of whichever algorithm fails, every
// intermediate is freed and the engine keeps working. Each operation is run once to count its
// draws, then once per draw with that draw made to throw.
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine, type Stream } from '../src/index.js';
import { gpuOf } from '../src/internal.js';
import { testContext } from './support/engine.js';
import { countGlObjects, glObjectKinds } from './support/gl-objects.js';

type Operation = [name: string, run: (engine: Engine, stream: Stream, chained: Stream) => unknown];

function operations(transformFeedback: boolean): Operation[] {
  const ops: Operation[] = [
    ['upload', (engine) => engine.stream(new Uint32Array([1, 2, 3]))],
    ['scan blelloch', (engine, stream) => engine.scan(stream)],
    ['scan recursive-doubling', (engine, stream) => engine.scan(stream, { algorithm: 'recursive-doubling', radix: 2 })],
    ['segmented scan blelloch', (engine, stream) => engine.scan(stream, { blockSize: 256 })],
    ['horn global', (engine, stream) => engine.compact(stream, { keep: 'nonzero', algorithm: 'horn', global: true })],
    ['histopyramid', (engine, stream) => engine.compact(stream, { keep: 'nonzero', algorithm: 'histopyramid' })],
    ['histopyramid indices', (engine, stream) => engine.compact(stream, { keep: 'nonzero', algorithm: 'histopyramid', output: 'indices' })],
    ['scan reduce-then-scan', (engine, stream) => engine.scan(stream, { algorithm: 'reduce-then-scan' })],
    ['exclusive scan reduce-then-scan', (engine, stream) => engine.scan(stream, { algorithm: 'reduce-then-scan', exclusive: true })],
    ['segmented scan reduce-then-scan', (engine, stream) => engine.scan(stream, { algorithm: 'reduce-then-scan', blockSize: 2048 })],
    ['bitmask', (engine, stream) => engine.compact(stream, { keep: 'nonzero', algorithm: 'bitmask' })],
    ['bitmask indices', (engine, stream) => engine.compact(stream, { keep: 'nonzero', algorithm: 'bitmask', output: 'indices' })],
    ['horn, block scan reduce-then-scan', (engine, stream) => engine.compact(stream, { keep: 'nonzero', algorithm: 'horn', scan: 'reduce-then-scan', blockSize: 1024 })],
    ['jumping-jack, block scan reduce-then-scan', (engine, stream) => engine.compact(stream, { keep: 'nonzero', algorithm: 'jumping-jack', scan: 'reduce-then-scan', blockSize: 32 })],
  ];
  for (const concat of transformFeedback ? ['vertex-fetch', 'transform-feedback'] as const : ['vertex-fetch'] as const) {
    for (const algorithm of ['jumping-jack', 'horn', 'auto'] as const) {
      ops.push([`${algorithm} ${concat}`, (engine, stream) => engine.compact(stream, { keep: 'nonzero', algorithm, concat })]);
    }
  }
  ops.push(['compaction of a stream whose length is on the GPU', (engine, _stream, chained) => engine.compact(chained, { keep: 'nonzero' })]);
  ops.push(['histopyramid of a stream whose length is on the GPU', (engine, _stream, chained) => engine.compact(chained, { keep: 'nonzero', algorithm: 'histopyramid' })]);
  ops.push(['bitmask of a stream whose length is on the GPU', (engine, _stream, chained) => engine.compact(chained, { keep: 'nonzero', algorithm: 'bitmask' })]);
  ops.push(['scan of a stream whose length is on the GPU', (engine, _stream, chained) => engine.scan(chained)]);
  ops.push(['reduce-then-scan of a stream whose length is on the GPU', (engine, _stream, chained) => engine.scan(chained, { algorithm: 'reduce-then-scan' })]);
  ops.push(['partition', (engine, stream) => engine.partition(stream, { keep: 'nonzero' })]);
  ops.push(['partition of a stream whose length is on the GPU', (engine, _stream, chained) => engine.partition(chained, { keep: 'nonzero', output: 'indices' })]);
  ops.push(['gather by indices whose length is on the GPU', (engine, stream, chained) => engine.gather(stream, chained as Stream<Uint32Array>)]);
  ops.push(['keep by flags (length on the GPU)', (engine, stream, chained) => engine.compact(stream, { keep: { flags: chained } })]);
  ops.push(['keep reading another stream', (engine, stream, chained) => engine.compact(stream, { keep: { glsl: 'return glcompactElement(other, index).x != 0u;', streams: { other: chained } }, algorithm: 'horn' })]);
  ops.push(['unique', (engine, stream) => engine.unique(stream)]);
  ops.push(['run-length encoding of a stream whose length is on the GPU', (engine, _stream, chained) => engine.runLengthEncode(chained)]);
  ops.push(['reduce min of a stream whose length is on the GPU', (engine, _stream, chained) => engine.reduce(chained, { op: 'min' })]);
  ops.push(['reduce sum', (engine, stream) => engine.reduce(stream, { op: 'sum' })]);
  ops.push(['scan with segments (exclusive)', (engine, stream) => engine.scan(stream, { segments: stream, exclusive: true })]);
  ops.push(['scan with segments of a stream whose length is on the GPU', (engine, stream, chained) => engine.scan(chained, { segments: stream })]);
  ops.push(['sort with values', (engine, stream) => engine.sort(stream, { values: stream, bits: 8 })]);
  ops.push(['sort of keys whose length is on the GPU', (engine, _stream, chained) => engine.sort(chained, { values: chained, descending: true, bits: 4 })]);
  ops.push(['argsort', (engine, stream) => engine.argsort(stream, { bits: 8 })]);
  ops.push(['argsort of keys whose length is on the GPU', (engine, _stream, chained) => engine.argsort(chained, { descending: true })]);
  return ops;
}

describe('a failing pass leaves nothing behind', () => {
  it('every pass of every algorithm', async () => {
    const { gl } = await testContext();
    // Counted on the context too, independently of the engine's own counters (an object made and
    // lost before the engine registers it would not show in engine.resources). Programs and shaders
    // aside: the program cache may evict and relink between runs.
    const counter = countGlObjects(gl, Object.keys(glObjectKinds).filter((kind) => kind !== 'Program' && kind !== 'Shader'));
    const engine = createEngine(gl);
    const gpu = gpuOf(engine);
    const stream = engine.stream(Uint32Array.from({ length: 9000 }, (_, i) => i % 3));
    const chained = engine.compact(stream, { keep: { lessEqual: 1 } }).stream;
    const draw = gpu.draw.bind(gpu);
    let injected = 0;
    for (const [name, run] of operations(engine.caps.transformFeedback)) {
      let draws = 0;
      gpu.draw = (call) => (draws++, draw(call));
      run(engine, stream, chained);
      // Integer uploads (Chromium) draw nothing; every other operation draws.
      expect(draws, name).toBeGreaterThan(name === 'upload' && engine.caps.uploadPath === 'integer' ? -1 : 0);
      engine.trim();
      // Streams made by the counting run stay alive (owned by the engine); the baseline includes them.
      const baseline = engine.resources;
      const baselineLive = { ...counter.live };
      for (let failAt = 1; failAt <= draws; failAt++) {
        let call = 0;
        gpu.draw = (c) => {
          if (++call === failAt) throw new Error(`injected failure in draw ${failAt} of ${name}`);
          draw(c);
        };
        expect(() => run(engine, stream, chained), `${name}, draw ${failAt}`).toThrow(`injected failure in draw ${failAt} of ${name}`);
        engine.trim();
        expect(engine.resources, `${name}, draw ${failAt} of ${draws}`).toEqual(baseline);
        expect(counter.live, `${name}, draw ${failAt} of ${draws}: GL objects on the context`).toEqual(baselineLive);
        injected++;
      }
      gpu.draw = draw;
    }
    console.log(`cleanup: ${injected} injected failures, resources back to baseline after each`);
    const result = engine.compact(stream, { keep: 'nonzero', algorithm: 'horn' });
    expect(await result.count()).toBe(6000);
    engine.dispose();
    expect(Object.values(engine.resources).every((count) => count === 0)).toBe(true);
    counter.restore();
    expect(Object.entries(counter.live).filter(([, n]) => n !== 0), 'GL objects left on the context').toEqual([]);
  });
});
