// serveTuning(): the worker's side of engine.tune({ worker }); src/tune-in-worker.ts says why and
// holds the page's side and the messages.
import { createEngine, type Engine } from './engine.js';
import type { TuneCancel, TuneReply, TuneRequest } from './tune-in-worker.js';
import type { TuneProgress, TuningProfile } from './tuning.js';

/** The part of a worker's global scope serveTuning() uses (DedicatedWorkerGlobalScope is not in the DOM typings). */
export interface TuningScope {
  /** Answers the page (started, the profile, or the reason it failed). */
  postMessage(message: unknown): void;
  /** Where the page's requests arrive. */
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/**
 * Call it in a Web Worker's script to let `engine.tune({ worker })` run there: each request makes a
 * WebGL2 context on an OffscreenCanvas, tunes an engine on it, answers with the profile, and frees
 * both (the engine disposed, the context lost on purpose). Requests run one after another; one the
 * page cancels (its engine disposed, its onProgress threw) stops at its next task.
 * @param scope The worker's global scope (default: `globalThis`, which must be a worker's).
 * @throws Error where called outside a worker without a scope, or given something that is not one.
 * @example
 * ```ts
 * // tune.worker.js
 * import { serveTuning } from 'glcompact';
 * serveTuning();
 *
 * // the page
 * const worker = new Worker(new URL('./tune.worker.js', import.meta.url), { type: 'module' });
 * await engine.tune({ worker });
 * worker.terminate();
 * ```
 */
export function serveTuning(scope?: TuningScope): void {
  // On a page (no WorkerGlobalScope) it would answer the window's own messages: a misplaced call.
  if (scope === undefined && typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'undefined') {
    throw new Error('serveTuning(): call it in a Web Worker\'s script (this is not a worker); the page passes that worker to engine.tune({ worker })');
  }
  const here = scope === undefined ? (globalThis as unknown as TuningScope) : scope;
  if (typeof here !== 'object' || here === null || typeof here.postMessage !== 'function' || typeof here.addEventListener !== 'function') {
    throw new Error(`serveTuning(scope): scope must be a worker's global scope (postMessage and addEventListener); got ${here === null ? 'null' : typeof here}`);
  }
  // Twice on one scope would answer every request twice.
  if (served.has(here)) return;
  served.add(here);
  let queue = Promise.resolve();
  /** Requests waiting for their turn, those of them the page cancelled, and the engine of the one being tuned (disposed on a cancel). */
  const queued = new Set<number>();
  const cancelled = new Set<number>();
  const running = new Map<number, Engine>();
  here.addEventListener('message', (event) => {
    const message = event.data as TuneRequest | TuneCancel | undefined;
    if (typeof message !== 'object' || message === null) return;
    if (message.glcompact === 'tune-cancel') {
      // The page gave up (its engine disposed, its onProgress threw): the tune stops at its next task.
      const engine = running.get(message.id);
      if (engine) engine.dispose();
      else if (queued.has(message.id)) cancelled.add(message.id); // a cancel after the answer is dropped
      return;
    }
    if (message.glcompact !== 'tune') return; // not ours
    const request = message;
    queued.add(request.id);
    here.postMessage({ glcompact: 'tune-started', id: request.id } satisfies TuneReply);
    queue = queue.then(async () => {
      queued.delete(request.id);
      try {
        if (cancelled.delete(request.id)) throw new Error('cancelled by the page before it started');
        const onProgress = request.progress ? (progress: TuneProgress) => here.postMessage({ glcompact: 'tune-progress', id: request.id, progress } satisfies TuneReply) : undefined;
        const profile = await tuneHere(request, onProgress, (engine) => running.set(request.id, engine));
        here.postMessage({ glcompact: 'tune-done', id: request.id, profile } satisfies TuneReply);
      } catch (error) {
        here.postMessage({ glcompact: 'tune-failed', id: request.id, message: error instanceof Error ? error.message : String(error) } satisfies TuneReply);
      } finally {
        running.delete(request.id);
      }
    });
  });
}

const served = new WeakSet<object>();

async function tuneHere(request: TuneRequest, onProgress: ((progress: TuneProgress) => void) | undefined, made: (engine: Engine) => void): Promise<TuningProfile> {
  if (typeof OffscreenCanvas === 'undefined') throw new Error('this worker has no OffscreenCanvas; tune on the page instead (engine.tune() without a worker)');
  // The passes draw into the engine's own textures: the canvas's own buffers are never drawn to.
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2', { antialias: false, depth: false, stencil: false, powerPreference: request.powerPreference });
  if (!gl) throw new Error('this browser gives a worker\'s OffscreenCanvas no WebGL2 context (WebKitGTK 2.50 does not); tune on the page instead (engine.tune() without a worker)');
  let engine: Engine | undefined;
  try {
    engine = createEngine(gl, request.engineOptions);
    made(engine);
    return await engine.tune({ ...request.options, onProgress });
  } finally {
    engine?.dispose();
    gl.getExtension('WEBGL_lose_context')?.loseContext(); // the context now, not whenever the collector runs (also where createEngine threw)
  }
}
