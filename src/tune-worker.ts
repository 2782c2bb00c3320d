// serveTuning(): the worker's side of engine.tune({ worker }); src/tune-in-worker.ts says why and
// holds the page's side and the messages.
import { createEngine } from './engine.js';
import type { TuneReply, TuneRequest } from './tune-in-worker.js';
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
 * both (the engine disposed, the context lost on purpose). Requests run one after another.
 * @param scope The worker's global scope (default: `globalThis`).
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
export function serveTuning(scope: TuningScope = globalThis as unknown as TuningScope): void {
  let queue = Promise.resolve();
  scope.addEventListener('message', (event) => {
    const request = event.data as TuneRequest | undefined;
    if (typeof request !== 'object' || request === null || request.glcompact !== 'tune') return; // not ours
    scope.postMessage({ glcompact: 'tune-started', id: request.id } satisfies TuneReply);
    queue = queue.then(async () => {
      try {
        const onProgress = request.progress ? (progress: TuneProgress) => scope.postMessage({ glcompact: 'tune-progress', id: request.id, progress } satisfies TuneReply) : undefined;
        const profile = await tuneHere(request, onProgress);
        scope.postMessage({ glcompact: 'tune-done', id: request.id, profile } satisfies TuneReply);
      } catch (error) {
        scope.postMessage({ glcompact: 'tune-failed', id: request.id, message: error instanceof Error ? error.message : String(error) } satisfies TuneReply);
      }
    });
  });
}

async function tuneHere(request: TuneRequest, onProgress: ((progress: TuneProgress) => void) | undefined): Promise<TuningProfile> {
  if (typeof OffscreenCanvas === 'undefined') throw new Error('this worker has no OffscreenCanvas; tune on the page instead (engine.tune() without a worker)');
  // The passes draw into the engine's own textures: the canvas's own buffers are never drawn to.
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2', { antialias: false, depth: false, stencil: false, powerPreference: request.powerPreference });
  if (!gl) throw new Error('this browser gives a worker\'s OffscreenCanvas no WebGL2 context (WebKitGTK 2.50 does not); tune on the page instead (engine.tune() without a worker)');
  const engine = createEngine(gl, request.engineOptions);
  try {
    return await engine.tune({ ...request.options, onProgress });
  } finally {
    engine.dispose();
    gl.getExtension('WEBGL_lose_context')?.loseContext(); // the context now, not whenever the collector runs
  }
}
