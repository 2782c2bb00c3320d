// engine.tune({ worker }) (issue 20): the tune's samples in a Web Worker, on a WebGL2 context of an
// OffscreenCanvas of its own; the page takes the profile. A real worker in the browsers (WebKitGTK
// gives workers no WebGL2 context: the tune rejects, saying so); the page's side of the messages
// against a stand-in worker everywhere.
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, serveTuning, type TuneProgress, type TuneWorker, type TuningProfile } from '../src/index.js';
import { TUNE_WORKER } from '../src/tune-in-worker.js';
import { ENGINE_VERSION } from '../src/tuning.js';
import { testContext } from './support/engine.js';
import { countGlObjects, nonZero } from './support/gl-objects.js';
import { replaceGlMethod } from './support/gl-method.js';
import { testPlatform } from './support/platform.js';

/** A worker whose answers the test writes: what it was asked, and `reply` to answer. */
class StandInWorker extends EventTarget implements TuneWorker {
  readonly requests: Array<{ glcompact: string; id: number; options: unknown }> = [];
  postMessage(message: unknown): void {
    this.requests.push(message as StandInWorker['requests'][number]);
  }
  reply(data: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
  /** Listeners left on it (the tune must remove its own once settled). */
  listeners = 0;
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>): void {
    this.listeners++;
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget['removeEventListener']>): void {
    this.listeners--;
    super.removeEventListener(...args);
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('engine.tune({ worker }) in a Web Worker', () => {
  it('tunes on the worker\'s own context: the profile taken here, nothing made on this context, auto exact (WebKitGTK: rejected, no WebGL2 in workers)', async (context) => {
    context.skip(typeof Worker === 'undefined', 'Node has no Web Worker with an OffscreenCanvas (headless-gl): engine.tune() runs on the page there');
    const { gl } = await testContext();
    const worker = new Worker(new URL('./support/tune-worker.ts', import.meta.url), { type: 'module' });
    const engine = createEngine(gl);
    try {
      const counter = countGlObjects(gl);
      let draws = 0;
      const restoreDraws = replaceGlMethod(gl, 'drawArrays', (original) => function (this: WebGL2RenderingContext, ...args: Parameters<WebGL2RenderingContext['drawArrays']>) {
        draws++;
        return original.apply(gl, args);
      });
      let profile: TuningProfile;
      const told: TuneProgress[] = [];
      try {
        const tuning = engine.tune({ sizes: [2 ** 10, 2 ** 14], densities: [0.5], repeats: 1, worker, onProgress: (p) => told.push(p) });
        if (testPlatform() === 'webkit') {
          // WebKitGTK 2.50: OffscreenCanvas exists in workers, getContext('webgl2') gives null there.
          await expect(tuning).rejects.toThrow(/the worker's tune failed: this browser gives a worker's OffscreenCanvas no WebGL2 context/);
          expect(engine.profile).toBeUndefined();
          return;
        }
        profile = await tuning;
      } finally {
        restoreDraws();
        counter.restore();
      }
      // The samples ran elsewhere: nothing drawn, and no texture, program or buffer left, on the page's context.
      expect(draws, 'draws on the page\'s context during the tune').toBe(0);
      expect(nonZero(counter.live)).toEqual({});
      expect(profile.renderer).toBe(engine.caps.renderer);
      expect(Object.keys(profile.compact.keep), 'a choice per size tuned').toHaveLength(2);
      // The worker's progress, told on this thread: each point of 2 sizes × (1 density + the scans).
      expect(told.map((p) => [p.done, p.total, p.size, p.density])).toEqual([[1, 4, 1024, 0.5], [2, 4, 1024, undefined], [3, 4, 16384, 0.5], [4, 4, 16384, undefined]]);
      expect(engine.profile).toEqual(profile);
      // What auto takes from it is exact here (every path is).
      const data = Uint32Array.from({ length: 2 ** 14 }, (_, i) => Math.imul(i + 3, 2654435761) >>> 20);
      const stream = engine.stream(data);
      const kept = engine.compact(stream, { keep: { lessEqual: 2047 } });
      expect(Array.from(await kept.stream.read())).toEqual(Array.from(data).filter((v) => v <= 2047));
      kept.dispose();
      stream.dispose();
    } finally {
      engine.dispose();
      worker.terminate();
    }
  });
});

describe('engine.tune({ worker }): cancelled by the page', () => {
  it('an engine disposed while its worker tunes: tune() rejects at once, and the worker stops (its engine disposed mid-tune)', async (context) => {
    context.skip(typeof Worker === 'undefined', 'Node has no Web Worker with an OffscreenCanvas (headless-gl)');
    context.skip(testPlatform() === 'webkit', 'WebKitGTK 2.50 gives workers no WebGL2 context (the test above shows the rejection)');
    const { gl } = await testContext();
    const worker = new Worker(new URL('./support/tune-worker.ts', import.meta.url), { type: 'module' });
    const engine = createEngine(gl);
    try {
      const answers: Array<{ glcompact: string; message?: string }> = [];
      worker.addEventListener('message', (event) => answers.push(event.data));
      let disposedAt = 0;
      // Four sizes up to 2^18 with three densities: seconds of work, which the dispose cuts short.
      const tuning = engine.tune({ sizes: [2 ** 10, 2 ** 14, 2 ** 16, 2 ** 18], worker, onProgress: (p) => {
        if (p.done === 1) {
          engine.dispose();
          disposedAt = performance.now();
        }
      } });
      await expect(tuning).rejects.toThrow(/^engine\.tune\(\): this engine was disposed/);
      expect(performance.now() - disposedAt, 'rejected as the engine was disposed, not when the worker answered').toBeLessThan(1000);
      // The worker's own engine is disposed at its next task: its answer is a failure saying so.
      await expect.poll(() => answers.find((a) => a.glcompact === 'tune-failed' || a.glcompact === 'tune-done'), { timeout: 60_000 }).toBeDefined();
      const last = answers.find((a) => a.glcompact === 'tune-failed' || a.glcompact === 'tune-done')!;
      expect(last.glcompact).toBe('tune-failed');
      expect(last.message).toMatch(/this engine was disposed/);
      expect(answers.filter((a) => a.glcompact === 'tune-progress').length, 'progress after the cancel').toBeLessThan(4 * 4);
    } finally {
      engine.dispose();
      worker.terminate();
    }
  });
});

describe('engine.tune({ worker }): the page\'s side', () => {
  const answerMs = TUNE_WORKER.answerMs;
  afterEach(() => {
    TUNE_WORKER.answerMs = answerMs;
  });

  const profileOf = (renderer: string): TuningProfile => ({ format: 'glcompact-profile', version: ENGINE_VERSION, renderer, measured: '', compact: { keep: { 10: 'horn' }, any: { 10: 'horn' } }, scan: {}, timings: {}, work: {} });

  it('asks with the checked options and its engine\'s, takes the answer, and leaves no listener on the worker', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl, { texturePoolBytes: 2 ** 20, preserveState: false, maxTextureSize: 2048 });
    const worker = new StandInWorker();
    try {
      const tuning = engine.tune({ sizes: [1024], worker });
      await flush();
      expect(worker.requests).toHaveLength(1);
      const [request] = worker.requests;
      expect(request).toMatchObject({ glcompact: 'tune', options: { sizes: [1024], densities: [0.05, 0.5, 0.95], repeats: 3 }, engineOptions: { texturePoolBytes: 2 ** 20, preserveState: false, maxTextureSize: 2048 } });
      // The worker's context on the app's GPU where a machine has two.
      expect((request as unknown as { powerPreference: unknown }).powerPreference).toBe(gl.getContextAttributes()?.powerPreference);
      worker.reply({ glcompact: 'tune-started', id: request!.id });
      // Progress asked for only where the page gave onProgress (this tune did not): nothing to call.
      expect(request).toMatchObject({ progress: false });
      worker.reply({ glcompact: 'tune-progress', id: request!.id, progress: { done: 1, total: 4, size: 1024, density: 0.1 } });
      worker.reply({ glcompact: 'tune-done', id: request!.id + 1, profile: profileOf('another request') }); // not this request's
      const profile = profileOf(engine.caps.renderer);
      worker.reply({ glcompact: 'tune-done', id: request!.id, profile });
      expect(await tuning).toEqual(profile);
      expect(engine.profile).toEqual(profile);
      expect(worker.listeners).toBe(0);
    } finally {
      engine.dispose();
    }
  });

  it('rejects, taking no profile: another renderer, the worker\'s failure, its error event, no answer, a disposed engine, bad input', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl);
    // A profile in use before: a failed tune leaves it as it was.
    const before = profileOf(engine.caps.renderer);
    engine.useProfile(before);
    try {
      const ask = async (answer: (worker: StandInWorker, id: number) => void) => {
        const worker = new StandInWorker();
        const tuning = engine.tune({ sizes: [1024], worker });
        tuning.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
        await flush();
        answer(worker, worker.requests[0]!.id);
        await expect(tuning).rejects.toThrow();
        expect(worker.listeners, 'listeners left on the worker').toBe(0);
        return tuning.catch((error: Error) => error.message);
      };
      expect(await ask((w, id) => w.reply({ glcompact: 'tune-done', id, profile: profileOf('SomeOtherGPU') })))
        .toMatch(/engine\.tune\(\{ worker \}\): the worker's context reports the renderer 'SomeOtherGPU', this engine's '.*': its timings are not this context's/);
      expect(await ask((w, id) => w.reply({ glcompact: 'tune-done', id, profile: { ...profileOf(engine.caps.renderer), version: '0.0.1' } })))
        .toBe(`engine.tune({ worker }): the worker runs glcompact 0.0.1, this page ${ENGINE_VERSION}: build the worker's script with the same glcompact`);
      expect(await ask((w, id) => w.reply({ glcompact: 'tune-failed', id, message: 'no WebGL2 here' })))
        .toBe('engine.tune({ worker }): the worker\'s tune failed: no WebGL2 here');
      // An ErrorEvent's message (Node has no ErrorEvent: an Event with one), and a messageerror without.
      expect(await ask((w) => w.dispatchEvent(Object.assign(new Event('error'), { message: 'Uncaught SyntaxError in tune.worker.js' }))))
        .toBe('engine.tune({ worker }): Uncaught SyntaxError in tune.worker.js');
      expect(await ask((w) => w.dispatchEvent(new Event('messageerror'))))
        .toMatch(/engine\.tune\(\{ worker \}\): a 'messageerror' event \(the worker's script failed to load or run, or a message could not be read\)/);
      TUNE_WORKER.answerMs = 30;
      expect(await ask(() => {})).toMatch(/the worker did not take the request within 30 ms; its script must call serveTuning\(\)/);
      // Taken (tune-started), a long tune is waited for past answerMs.
      const slow = new StandInWorker();
      const slowTuning = engine.tune({ sizes: [1024], worker: slow });
      await flush();
      slow.reply({ glcompact: 'tune-started', id: slow.requests[0]!.id });
      await new Promise((resolve) => setTimeout(resolve, 60));
      slow.reply({ glcompact: 'tune-failed', id: slow.requests[0]!.id, message: 'late' });
      await expect(slowTuning).rejects.toThrow(/tune failed: late/);
      expect(engine.profile, 'the profile in use before the failed tunes').toEqual(before);
      // Progress relayed to onProgress; a callback that throws ends the tune with its error.
      const told: unknown[] = [];
      const relaying = new StandInWorker();
      const relayed = engine.tune({ sizes: [1024], worker: relaying, onProgress: (p) => {
        told.push(p);
        if (p.done === 2) throw new Error('progress bar broke');
      } });
      await flush();
      expect(relaying.requests[0]).toMatchObject({ progress: true });
      relaying.reply({ glcompact: 'tune-progress', id: relaying.requests[0]!.id, progress: { done: 1, total: 4, size: 1024, density: 0.1 } });
      relaying.reply({ glcompact: 'tune-progress', id: relaying.requests[0]!.id, progress: { done: 2, total: 4, size: 1024, density: 0.5 } });
      await expect(relayed).rejects.toThrow(/^progress bar broke$/);
      expect(relaying.requests[1], 'the worker asked to stop').toEqual({ glcompact: 'tune-cancel', id: relaying.requests[0]!.id });
      expect(told).toEqual([{ done: 1, total: 4, size: 1024, density: 0.1 }, { done: 2, total: 4, size: 1024, density: 0.5 }]);
      expect(relaying.listeners).toBe(0);
      // Bad input, before anything is posted.
      const idle = new StandInWorker();
      await expect(engine.tune({ worker: {} as TuneWorker })).rejects.toThrow(/worker must be a Web Worker whose script calls serveTuning\(\); got/);
      await expect(engine.tune({ sizes: [0], worker: idle })).rejects.toThrow(/sizes must be a non-empty array/);
      await expect(engine.tune({ size: [1024] } as never)).rejects.toThrow(/engine\.tune\(options\): unknown option\(s\) size; allowed: sizes, densities, repeats, worker/);
      expect(idle.requests).toHaveLength(0);
      // Not a profile: said as the worker's tune's.
      expect(await ask((w, id) => w.reply({ glcompact: 'tune-done', id, profile: { format: 'something else' } })))
        .toMatch(/^engine\.tune\(\{ worker \}\): profile must be what engine\.tune\(\) returns/);
      // The engine disposed while the worker tunes (it never answers): tune() rejects at once, the
      // listeners come off and the worker is asked to stop.
      const late = new StandInWorker();
      const lateTuning = engine.tune({ sizes: [1024], worker: late });
      await flush();
      late.reply({ glcompact: 'tune-started', id: late.requests[0]!.id });
      engine.dispose();
      await expect(lateTuning).rejects.toThrow(/engine\.tune\(\): this engine was disposed/);
      expect(late.listeners).toBe(0);
      expect(late.requests[1]).toEqual({ glcompact: 'tune-cancel', id: late.requests[0]!.id });
    } finally {
      engine.dispose();
    }
  });

  it('serveTuning refuses to serve outside a worker, or on something that is not a worker\'s scope', () => {
    expect(() => serveTuning()).toThrow(/^serveTuning\(\): call it in a Web Worker's script \(this is not a worker\)/);
    expect(() => serveTuning({} as never)).toThrow(/^serveTuning\(scope\): scope must be a worker's global scope \(postMessage and addEventListener\); got object/);
    expect(() => serveTuning(null as never)).toThrow(/got null/);
  });

  it('serveTuning answers a request it cannot serve with the reason (here: no OffscreenCanvas, or one)', async (context) => {
    context.skip(typeof OffscreenCanvas !== 'undefined', 'this page has an OffscreenCanvas: the real worker test above covers the served tune');
    const channel = new MessageChannel();
    const answers: unknown[] = [];
    channel.port1.addEventListener('message', (event) => answers.push((event as MessageEvent).data));
    channel.port1.start();
    channel.port2.start();
    serveTuning(channel.port2 as unknown as Parameters<typeof serveTuning>[0]);
    channel.port1.postMessage({ glcompact: 'something else' });
    channel.port1.postMessage({ glcompact: 'tune', id: 7, options: { sizes: [1024], densities: [0.5], repeats: 1 }, engineOptions: {}, progress: true, powerPreference: undefined });
    await expect.poll(() => answers.length).toBe(2);
    expect(answers).toEqual([
      { glcompact: 'tune-started', id: 7 },
      { glcompact: 'tune-failed', id: 7, message: 'this worker has no OffscreenCanvas; tune on the page instead (engine.tune() without a worker)' },
    ]);
    channel.port1.close();
  });
});
