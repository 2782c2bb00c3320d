// No sync points in steady state (issue 18): after createEngine and a path's first use, the public
// calls make no GL call that waits for the GPU. In a browser, getParameter, isEnabled, getError,
// checkFramebufferStatus, program/shader status and info logs, uniform and attribute lookups, object
// parameter queries, finish, and synchronous readPixels/getBufferSubData each wait until the GPU
// process has run everything queued before them (MDN "WebGL best practices"); an app calling the
// engine every frame would wait with them (DESIGN: 1.2-1.5 s per frame after heavy app frames).
//
// The context is wrapped BEFORE createEngine (the engine's interceptors then wrap the wrappers, so
// every call the engine makes passes through them). Every path runs once unwatched (first use:
// compiling and linking may ask), then again watched, in both preserveState modes.
//
// Reads: in a browser the read is a readPixels into a pixel-pack buffer, a fence polled between
// tasks, then getBufferSubData of data that is already there: the watched part is everything before
// the await, plus the copy after it. headless-gl has no asynchronous read (no pixel-pack buffers in
// its wrapper, no event loop to give back to, getBufferSubData a stub): its reads are synchronous
// readPixels by necessity, so only the browser project watches reads.
import { describe, expect, it } from 'vitest';
import { createEngine, PROGRAM_CACHE_SIZE, type CompactOptions, type Engine, type ScanOptions } from '../src/index.js';
import { LANES_SHAPE } from '../src/scan/reduce-then-scan.js';
import { SORT_DIRECTORY, SORT_SELECT } from '../src/sort.js';
import type { Stream } from '../src/index.js';
import { testGl } from './support/phone-profile.js';

const blocking = [
  'getParameter', 'isEnabled', 'getError', 'checkFramebufferStatus', 'getProgramParameter', 'getShaderParameter',
  'getProgramInfoLog', 'getShaderInfoLog', 'getUniformLocation', 'getActiveUniform', 'getActiveUniforms',
  'getAttribLocation', 'getFragDataLocation', 'getUniformBlockIndex', 'getUniformIndices', 'getActiveUniformBlockParameter',
  'getTexParameter', 'getFramebufferAttachmentParameter', 'getBufferParameter', 'getRenderbufferParameter',
  'getSamplerParameter', 'getIndexedParameter', 'getVertexAttrib', 'getVertexAttribOffset', 'getInternalformatParameter',
  'getQueryParameter', 'getSyncParameter', 'getShaderPrecisionFormat', 'getAttachedShaders', 'finish',
] as const;

interface Watch {
  /** Blocking calls seen while armed, by name (and for reads, what kind). */
  seen: Map<string, number>;
  /** Every GL call seen while armed (the per-call budget). */
  calls: number;
  armed: boolean;
}

async function freshContext(): Promise<{ gl: WebGL2RenderingContext; asyncReads: boolean; destroy(): void }> {
  if (typeof document !== 'undefined') {
    const context = document.createElement('canvas').getContext('webgl2');
    if (!context) throw new Error('this browser gives no WebGL2 context');
    const gl = testGl(context);
    return { gl, asyncReads: true, destroy: () => gl.getExtension('WEBGL_lose_context')?.loseContext() };
  }
  const node = await import('../src/node.js');
  const gl = testGl(node.createHeadlessContext());
  return { gl, asyncReads: false, destroy: () => node.destroyHeadlessContext(gl) };
}

/** Wraps every method of the context as an own property that counts calls while the watch is armed. */
function watch(gl: WebGL2RenderingContext): Watch {
  const w: Watch = { seen: new Map(), calls: 0, armed: false };
  const blockingNames = new Set<string>(blocking);
  const names = new Set<string>();
  for (let proto: object | null = gl; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
  }
  const target = gl as unknown as Record<string, unknown>;
  for (const name of names) {
    let value: unknown;
    try {
      value = target[name];
    } catch {
      continue;
    }
    if (typeof value !== 'function' || name === 'constructor') continue;
    const method = value as (...args: unknown[]) => unknown;
    const counted = function (this: unknown, ...args: unknown[]) {
      if (w.armed) {
        w.calls += 1;
        // readPixels into a pixel-pack buffer (a numeric offset) is asynchronous; into an array it waits.
        const kind = name === 'readPixels' ? (typeof args[6] === 'number' ? undefined : 'readPixels (into an array)') : blockingNames.has(name) ? name : undefined;
        if (kind) w.seen.set(kind, (w.seen.get(kind) ?? 0) + 1);
      }
      return method.apply(gl, args);
    };
    Object.defineProperty(gl, name, { value: counted, writable: true, configurable: true });
  }
  return w;
}

const scans: ScanOptions[] = [
  {},
  { algorithm: 'blelloch' },
  { algorithm: 'recursive-doubling', radix: 2 },
  { algorithm: 'reduce-then-scan', exclusive: true },
  { blockSize: 64 },
];

function compactions(engine: Engine): CompactOptions[] {
  const concats = engine.caps.transformFeedback ? (['transform-feedback', 'vertex-fetch'] as const) : (['vertex-fetch'] as const);
  return [
    { keep: 'nonzero' },
    { keep: { greaterThan: 3 }, algorithm: 'bitmask', output: 'indices' },
    { keep: { glsl: 'return value.x % m == 1u;', uniforms: { m: 3 } }, algorithm: 'histopyramid' },
    { keep: { lessEqual: 2 }, algorithm: 'horn', global: true },
    ...concats.flatMap((concat) => (['jumping-jack', 'horn', 'auto'] as const).map((algorithm) => ({ keep: { greaterThan: 2 }, algorithm, concat, blockSize: 64 }) as CompactOptions)),
  ];
}

/** One round of every path; `watched` arms the watch around the synchronous parts (and browser reads). */
async function everyPath(engine: Engine, w: Watch, asyncReads: boolean, length: number, uniform: number): Promise<void> {
  const data = Uint32Array.from({ length }, (_, i) => (i * 2654435761) % 7);
  const armed = w.armed;
  const stream = engine.stream(data);
  for (const options of scans) {
    const sums = engine.scan(stream, options);
    // a scan of a compaction's output too: its length is still on the GPU
    sums.dispose();
  }
  for (const options of compactions(engine)) {
    const keep = typeof options.keep === 'object' && 'glsl' in options.keep ? { ...options.keep, uniforms: { m: uniform } } : options.keep;
    const result = engine.compact(stream, { ...options, keep });
    const again = engine.scan(result.stream, { exclusive: true });
    w.armed = armed && asyncReads;
    const count = await result.count();
    w.armed = armed;
    const expected = referenceCount(data, keep);
    expect(count, `${JSON.stringify(options)}`).toBe(expected);
    again.dispose();
    result.dispose();
  }
  // The calls added with the culling toolkit and the compaction family (issues 21, 22).
  const flags = engine.stream(Uint32Array.from(data, (v) => v & 1));
  const indices = engine.compact(stream, { keep: { flags }, output: 'indices' });
  const byStream = engine.compact(stream, { keep: { glsl: 'return glcompactElement(other, index).x != 0u;', streams: { other: flags } } });
  const gathered = engine.gather(stream, indices.stream);
  const split = engine.partition(stream, { keep: { greaterThan: 2 } });
  const distinct = engine.unique(stream);
  const runs = engine.runLengthEncode(stream);
  const total = engine.reduce(stream, { op: 'sum' });
  const segmented = engine.scan(stream, { segments: flags, exclusive: true });
  const sorted = engine.sort(stream, { values: flags, bits: 4 });
  const order = engine.argsort(stream, { bits: 4 });
  w.armed = armed && asyncReads;
  const odd = data.filter((v) => (v & 1) === 1);
  expect(await byStream.count()).toBe(odd.length);
  expect(Array.from(await gathered.read())).toEqual(Array.from(odd));
  expect(await split.count()).toBe(data.filter((v) => v > 2).length);
  expect(await distinct.count()).toBe(data.filter((v, i) => i === 0 || v !== data[i - 1]).length);
  expect(await runs.count()).toBe(await distinct.count());
  expect((await total.read())[0]).toBe(data.reduce((a, v) => a + v, 0));
  expect(Array.from(await sorted.keys.read())).toEqual(Array.from(data).sort((a, b) => a - b));
  expect(Array.from(await order.read())).toEqual(Array.from(data, (_, i) => i).sort((i, j) => data[i]! - data[j]! || i - j));
  await segmented.read();
  w.armed = armed;
  for (const r of [indices, byStream, split, distinct, runs, total, sorted]) r.dispose();
  for (const s of [flags, gathered, segmented, order]) s.dispose();
  w.armed = armed && asyncReads;
  const back = await stream.read();
  w.armed = armed;
  expect(Array.from(back)).toEqual(Array.from(data));
  stream.dispose();
}

/**
 * The scan's lanes (where the context writes 4+ attachments) and the sort's directories (the move's,
 * and the select's where passes write 4+ attachments; issues 22, 23), forced at these small sizes, in
 * a round of their own.
 */
async function largeStreamPaths(engine: Engine, w: Watch, asyncReads: boolean, length: number): Promise<void> {
  const data = Uint32Array.from({ length }, (_, i) => (i * 2654435761) % 7);
  const armed = w.armed;
  const stream = engine.stream(data);
  const values = engine.stream(Uint32Array.from(data, (_, i) => i));
  const defaults = { lanes: { ...LANES_SHAPE }, sort: { ...SORT_DIRECTORY }, select: { ...SORT_SELECT } };
  Object.assign(LANES_SHAPE, { aboveTexels: 0 });
  Object.assign(SORT_DIRECTORY, { fromElements: 0 });
  Object.assign(SORT_SELECT, { directoryFrom: 0 });
  let sums: Stream<Uint32Array>;
  let sorted: ReturnType<Engine['sort']>;
  let order: Stream<Uint32Array>;
  try {
    sums = engine.scan(stream, { algorithm: 'reduce-then-scan', exclusive: true });
    sorted = engine.sort(stream, { values, bits: 4 });
    order = engine.argsort(stream, { bits: 4 });
  } finally {
    Object.assign(LANES_SHAPE, defaults.lanes);
    Object.assign(SORT_DIRECTORY, defaults.sort);
    Object.assign(SORT_SELECT, defaults.select);
  }
  w.armed = armed && asyncReads;
  let running = 0;
  expect(Array.from(await sums.read())).toEqual(Array.from(data, (v) => ((running += v), running - v)));
  expect(Array.from(await sorted.keys.read())).toEqual(Array.from(data).sort((a, b) => a - b));
  expect(Array.from(await order.read())).toEqual(Array.from(data, (_, i) => i).sort((i, j) => data[i]! - data[j]! || i - j));
  w.armed = armed;
  sums.dispose();
  sorted.dispose();
  order.dispose();
  values.dispose();
  stream.dispose();
}

function referenceCount(data: Uint32Array, keep: CompactOptions['keep']): number {
  if (keep === 'nonzero') return data.filter((v) => v !== 0).length;
  if ('greaterThan' in keep) return data.filter((v) => v > keep.greaterThan).length;
  if ('lessEqual' in keep) return data.filter((v) => v <= keep.lessEqual).length;
  if ('flags' in keep) throw new Error('referenceCount: flags are not used here');
  const m = (keep.uniforms as { m: number }).m;
  return data.filter((v) => v % m === 1).length;
}

describe('no blocking GL calls in steady state', () => {
  for (const preserveState of [true, false]) {
    it(`preserveState ${preserveState}: stream, scan, compact, reads and dispose make none once each path has run`, async () => {
      const { gl, asyncReads, destroy } = await freshContext();
      const w = watch(gl);
      const engine = createEngine(gl, { preserveState });
      // The watch itself sees what it must: a blocking call while armed is counted.
      w.armed = true;
      gl.getError();
      w.armed = false;
      expect(w.seen.get('getError')).toBe(1);
      w.seen.clear();
      try {
        // First use of every path (compiles), at the lengths used below (their texture sizes).
        for (const length of [1000, 5000]) await everyPath(engine, w, asyncReads, length, 3);
        w.armed = true;
        // Steady state: other lengths (new pool targets), other uniform values.
        for (const [length, uniform] of [[1000, 4], [5000, 5], [1001, 3]] as const) await everyPath(engine, w, asyncReads, length, uniform);
        w.armed = false;
        expect(Object.fromEntries(w.seen), `blocking calls in steady state (${w.calls} GL calls watched)`).toEqual({});
      } finally {
        w.armed = false;
        engine.dispose();
        destroy();
      }
    });
  }

  it('the lanes and the sort directory make none either once they have run (forced at small sizes)', async () => {
    const { gl, asyncReads, destroy } = await freshContext();
    const w = watch(gl);
    const engine = createEngine(gl);
    try {
      for (const length of [1000, 5000]) await largeStreamPaths(engine, w, asyncReads, length);
      w.armed = true;
      for (const length of [1000, 5000, 1001]) await largeStreamPaths(engine, w, asyncReads, length);
      w.armed = false;
      expect(Object.fromEntries(w.seen), `blocking calls in steady state (${w.calls} GL calls watched; draw buffers ${engine.caps.drawBuffers})`).toEqual({});
    } finally {
      w.armed = false;
      engine.dispose();
      destroy();
    }
  });

  it('GL calls per steady-state call stay within 12 + 8 per pass (no app state to undo; printed per call)', async () => {
    const { gl, destroy } = await freshContext();
    const w = watch(gl);
    const report: string[] = [];
    for (const preserveState of [true, false]) {
      const engine = createEngine(gl, { preserveState });
      const data = Uint32Array.from({ length: 4096 }, (_, i) => (i * 2654435761) % 7);
      const stream = engine.stream(data);
      const calls: Array<[string, () => { passes: number; dispose(): void }]> = [
        ['compact (default)', () => { const r = engine.compact(stream, { keep: { greaterThan: 2 } }); return { passes: r.stats.passes, dispose: () => r.dispose() }; }],
        ['compact jumping-jack', () => { const r = engine.compact(stream, { keep: { greaterThan: 2 }, algorithm: 'jumping-jack' }); return { passes: r.stats.passes, dispose: () => r.dispose() }; }],
        ['scan (default)', () => { const s = engine.scan(stream); return { passes: engine.lastScanStats!.passes, dispose: () => s.dispose() }; }],
        ['scan blelloch', () => { const s = engine.scan(stream, { algorithm: 'blelloch' }); return { passes: engine.lastScanStats!.passes, dispose: () => s.dispose() }; }],
      ];
      for (const [label, call] of calls) {
        call().dispose(); // first use
        call().dispose();
        w.calls = 0;
        w.armed = true;
        const { passes, dispose } = call();
        w.armed = false;
        dispose();
        report.push(`preserveState ${preserveState}, ${label} at 2^12: ${w.calls} GL calls for ${passes} passes (budget ${12 + 8 * passes})`);
        expect(w.calls, label).toBeLessThanOrEqual(12 + 8 * passes);
      }
      stream.dispose();
      engine.dispose();
    }
    console.log(`[no-blocking-calls] ${typeof document !== 'undefined' ? 'browser' : 'headless-gl'}:\n  ${report.join('\n  ')}`);
    destroy();
  });
});

describe('engine.warmUp()', () => {
  it('compiles ahead: the first real call of each warmed path makes no blocking call', async () => {
    const { gl, asyncReads, destroy } = await freshContext();
    const w = watch(gl);
    const engine = createEngine(gl);
    try {
      const length = 3000;
      const keep = { glsl: 'return value.x % m == 1u;', uniforms: { m: 3 } };
      await engine.warmUp([
        { compact: { keep }, type: 'uint32', lengths: [length] },
        { compact: { keep: 'nonzero', algorithm: 'jumping-jack' }, type: 'uint32', lengths: [length] },
        { scan: { exclusive: true }, type: 'uint32', lengths: [length], lengthOnGpu: true },
        // what the read of an output needs
        { compact: { keep: 'nonzero', algorithm: 'bitmask' }, type: 'uint32', lengths: [length] },
      ]);
      const data = Uint32Array.from({ length }, (_, i) => (i * 2654435761) % 7);
      w.armed = true;
      const stream = engine.stream(data);
      const kept = engine.compact(stream, { keep: { ...keep, uniforms: { m: 4 } } });
      const any = engine.compact(stream, { keep: 'nonzero', algorithm: 'jumping-jack' });
      const sums = engine.scan(kept.stream, { exclusive: true });
      w.armed = asyncReads;
      expect(await kept.count()).toBe(data.filter((v) => v % 4 === 1).length);
      expect(await any.count()).toBe(data.filter((v) => v !== 0).length);
      w.armed = false;
      expect(Object.fromEntries(w.seen), 'blocking calls in the first real calls after warmUp').toEqual({});
      for (const object of [sums, any, kept, stream]) object.dispose();
    } finally {
      w.armed = false;
      engine.dispose();
      destroy();
    }
  });

  // Without KHR_parallel_shader_compile a link-status question waits for the link. The GL of a browser
  // links in order behind what was issued before, so warmUp() first waits (between tasks) for a fence
  // issued after the links (Firefox's questions had waited 13-18 ms in a tune's longest stretches).
  it('without KHR_parallel_shader_compile, asks a link\'s status only once a fence issued after the link has signaled', async (context) => {
    const { gl, asyncReads, destroy } = await freshContext();
    if (!asyncReads || gl.getExtension('KHR_parallel_shader_compile')) {
      destroy();
      context.skip(!asyncReads
        ? 'headless-gl links inside linkProgram and has no asynchronous fence: nothing to wait for'
        : 'this context has KHR_parallel_shader_compile: warmUp() asks only after the driver says the link is done');
    }
    // What happened, in order, while armed: links issued, fences made, fences seen signaled, link questions.
    const log: Array<{ what: 'link' | 'fence' | 'signaled' | 'ask'; sync?: WebGLSync | null }> = [];
    let armed = false;
    const method = <K extends keyof WebGL2RenderingContext>(name: K) => (gl[name] as (...args: unknown[]) => unknown).bind(gl);
    const [linkProgram, fenceSync, clientWaitSync, getProgramParameter] = [method('linkProgram'), method('fenceSync'), method('clientWaitSync'), method('getProgramParameter')];
    Object.assign(gl, {
      linkProgram: (program: WebGLProgram) => (armed && log.push({ what: 'link' }), linkProgram(program)),
      fenceSync: (condition: number, flags: number) => {
        const sync = fenceSync(condition, flags) as WebGLSync | null;
        if (armed) log.push({ what: 'fence', sync });
        return sync;
      },
      clientWaitSync: (sync: WebGLSync, flags: number, timeout: number) => {
        const status = clientWaitSync(sync, flags, timeout);
        if (armed && (status === gl.ALREADY_SIGNALED || status === gl.CONDITION_SATISFIED)) log.push({ what: 'signaled', sync });
        return status;
      },
      getProgramParameter: (program: WebGLProgram, name: number) => (armed && name === gl.LINK_STATUS && log.push({ what: 'ask' }), getProgramParameter(program, name)),
    });
    const engine = createEngine(gl);
    try {
      armed = true;
      await engine.warmUp([{ compact: { keep: { glsl: 'return value.x % 7u == 3u;' } }, type: 'uint32', lengths: [500] }]);
      armed = false;
      const asks = log.flatMap((entry, at) => (entry.what === 'ask' ? [at] : []));
      expect(asks.length, 'link questions asked').toBeGreaterThan(0);
      for (const at of asks) {
        let lastLink = at;
        while (lastLink >= 0 && log[lastLink]!.what !== 'link') lastLink -= 1;
        const fenced = log.some((entry, i) => i > lastLink && i < at && entry.what === 'signaled'
          && log.findIndex((made) => made.what === 'fence' && made.sync === entry.sync) > lastLink);
        expect(fenced, `question ${at} of ${JSON.stringify(log.map((entry) => entry.what))}`).toBe(true);
      }
      const data = Uint32Array.from({ length: 500 }, (_, i) => i);
      const stream = engine.stream(data);
      const kept = engine.compact(stream, { keep: { glsl: 'return value.x % 7u == 3u;' } });
      expect(await kept.count()).toBe(data.filter((v) => v % 7 === 3).length);
      kept.dispose();
      stream.dispose();
    } finally {
      armed = false;
      engine.dispose();
      destroy();
    }
  });

  it("the app's own calls while warmUp() runs (between its tasks) draw as usual, exactly", async () => {
    const { gl, destroy } = await freshContext();
    const engine = createEngine(gl);
    try {
      const data = Uint32Array.from({ length: 5000 }, (_, i) => (i * 2654435761) % 9);
      const stream = engine.stream(data);
      const warming = engine.warmUp([
        { compact: { keep: { lessEqual: 3 }, algorithm: 'histopyramid' }, type: 'uint32', lengths: [1000, 5000, 9000] },
        { scan: { algorithm: 'blelloch' }, type: 'uint32', lengths: [1000, 5000] },
      ]);
      const counts: number[] = [];
      for (let k = 0; k < 4; k++) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        const kept = engine.compact(stream, { keep: { greaterThan: 4 } });
        counts.push(await kept.count());
        kept.dispose();
      }
      await warming;
      expect(counts).toEqual(counts.map(() => data.filter((v) => v > 4).length));
      stream.dispose();
    } finally {
      engine.dispose();
      destroy();
    }
  });

  // More programs than the cache holds: the first ones are evicted (deleted) while the rest link.
  // With KHR_parallel_shader_compile (WebKitGTK here) warmUp once polled a deleted program's
  // completion status, which never comes: it did not return. Each snippet is a keep pass of its own.
  it('a warm-up of more programs than the cache holds returns, and its paths stay exact', async () => {
    const { gl, destroy } = await freshContext();
    const engine = createEngine(gl);
    try {
      const snippets = Array.from({ length: PROGRAM_CACHE_SIZE + 8 }, (_, k) => `return value.x % ${k + 2}u == 1u;`);
      await engine.warmUp(snippets.map((glsl) => ({ compact: { keep: { glsl } }, type: 'uint32' as const, lengths: [100] })));
      expect(engine.resources.programs).toBeLessThanOrEqual(PROGRAM_CACHE_SIZE);
      const data = Uint32Array.from({ length: 1000 }, (_, i) => i);
      const stream = engine.stream(data);
      // The first snippet's program was evicted: it links again on use.
      for (const k of [0, snippets.length - 1]) {
        const kept = engine.compact(stream, { keep: { glsl: snippets[k]! } });
        expect(await kept.count()).toBe(data.filter((v) => v % (k + 2) === 1).length);
        kept.dispose();
      }
      stream.dispose();
    } finally {
      engine.dispose();
      destroy();
    }
  }, 60_000);

  it('reports what the call would: a snippet that does not compile, options the call refuses', async () => {
    const { gl, destroy } = await freshContext();
    const engine = createEngine(gl);
    engine.trim();
    const before = engine.resources;
    try {
      await expect(engine.warmUp([{ compact: { keep: { glsl: 'return value.x > ;' } } }])).rejects.toThrow(/keep\.glsl does not compile/);
      await expect(engine.warmUp([{ compact: { keep: 'nonzero', blockSize: 3 } }])).rejects.toThrow(/blockSize/);
      await expect(engine.warmUp([{ scan: {}, compact: { keep: 'nonzero' } }] as never)).rejects.toThrow(/exactly one of scan .* or compact/);
      await expect(engine.warmUp({} as never)).rejects.toThrow(/calls must be an array/);
      // nothing left behind but programs that compiled (and idle textures in the pool, trimmed here)
      engine.trim();
      const after = engine.resources;
      expect({ ...after, programs: 0 }).toEqual({ ...before, programs: 0 });
    } finally {
      engine.dispose();
      destroy();
    }
  });
});
