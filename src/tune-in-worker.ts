// engine.tune({ worker }): the tune's samples on a WebGL2 context of a Web Worker's own (an
// OffscreenCanvas), so the app's main thread only posts the request and takes the profile back.
//
// Why: tune() issues every path at every size and waits for each sample; on the page's thread that
// is 10-16 ms without yielding in Chromium (SwiftShader) and Firefox (llvmpipe), where a frame has
// 16 (docs/performance.md "Tuning in a worker"). In a worker none of it is the page's. The worker's
// context is another context on the same renderer, so its timings stand for the app's: the profile
// is refused unless both report the same renderer (engine.useProfile's rule).
//
// Two sides, one protocol (this file):
//   tuneInWorker(worker, …)  on the page (engine.tune): posts a request, waits for the answer
//   serveTuning()            in the worker's script (src/tune-worker.ts): answers each request with a
//                            profile or an error
import type { EngineOptions } from './options.js';
import type { TuneProgress, TuningProfile } from './tuning.js';

/** What engine.tune({ worker }) needs of a worker: a Web Worker whose script calls serveTuning(). */
export interface TuneWorker {
  /** Sends the worker the tune's request. */
  postMessage(message: unknown): void;
  /** Where the worker's answers ('message') and failures ('error', 'messageerror') arrive. */
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: Event) => void): void;
  /** The tune's listeners come off once it settles. */
  removeEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: Event) => void): void;
}

/** The messages, tagged so a worker that also does other work can tell them from its own. */
export interface TuneRequest {
  glcompact: 'tune';
  id: number;
  options: { sizes: readonly number[]; densities: readonly number[]; repeats: number };
  /** The page's engine's (texture pool, state saving, texture limit): the worker's calls cost what its calls do. */
  engineOptions: EngineOptions;
  /** Whether the page wants `tune-progress` messages (its onProgress cannot travel). */
  progress: boolean;
  /** The app's context's, so a two-GPU machine gives the worker the same GPU. */
  powerPreference: WebGLPowerPreference | undefined;
}
export type TuneReply =
  | { glcompact: 'tune-started'; id: number }
  | { glcompact: 'tune-progress'; id: number; progress: TuneProgress }
  | { glcompact: 'tune-done'; id: number; profile: TuningProfile }
  | { glcompact: 'tune-failed'; id: number; message: string };
/** From the page: stop that tune (its engine was disposed, or its onProgress threw). */
export interface TuneCancel {
  glcompact: 'tune-cancel';
  id: number;
}

/**
 * How long engine.tune({ worker }) waits for the worker to take the request (`tune-started`): a
 * worker whose script never calls serveTuning() would otherwise leave the promise pending forever.
 * Generous, for a module worker loading over a slow network. Tests shorten it.
 */
export const TUNE_WORKER = { answerMs: 30_000 };

let nextId = 1;

/** A tune running in a worker: its profile, and a way to give up on it. */
export interface WorkerTune {
  profile: Promise<TuningProfile>;
  /** Rejects `profile` with `error` now, takes the listeners off the worker and asks it to stop. */
  cancel(error: Error): void;
}

/**
 * Page side of engine.tune({ worker }): posts the request; `profile` resolves with the worker's.
 * `profile` rejects where the worker fails to load, does not answer within TUNE_WORKER.answerMs, its
 * tune fails (the worker's own message, e.g. no WebGL2 context for an OffscreenCanvas there),
 * onProgress throws, or `cancel` is called; the last two also ask the worker to stop.
 */
export function tuneInWorker(worker: TuneWorker, options: TuneRequest['options'], engineOptions: EngineOptions, powerPreference: WebGLPowerPreference | undefined, onProgress?: (progress: TuneProgress) => void): WorkerTune {
  const what = 'engine.tune({ worker })';
  const id = nextId++;
  let cancel!: (error: Error) => void;
  const profile = new Promise<TuningProfile>((resolve, reject) => {
    let settled = false;
    const done = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(unanswered);
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      worker.removeEventListener('messageerror', onError);
      settle();
    };
    cancel = (error) => {
      if (settled) return;
      done(() => reject(error));
      worker.postMessage({ glcompact: 'tune-cancel', id } satisfies TuneCancel);
    };
    const onMessage = (event: Event) => {
      const reply = (event as MessageEvent).data as TuneReply | undefined;
      if (typeof reply !== 'object' || reply === null || reply.id !== id) return; // not ours
      if (reply.glcompact === 'tune-started') clearTimeout(unanswered);
      else if (reply.glcompact === 'tune-progress') {
        try {
          onProgress?.(reply.progress);
        } catch (error) {
          cancel(error as Error); // as a tune on the page would: the callback's error ends the tune
        }
      } else if (reply.glcompact === 'tune-done') done(() => resolve(reply.profile));
      else if (reply.glcompact === 'tune-failed') done(() => reject(new Error(`${what}: the worker's tune failed: ${reply.message}`)));
    };
    const onError = (event: Event) => {
      const message = (event as ErrorEvent).message || `a '${event.type}' event (the worker's script failed to load or run, or a message could not be read)`;
      done(() => reject(new Error(`${what}: ${message}`)));
    };
    const unanswered = setTimeout(() => {
      done(() => reject(new Error(`${what}: the worker did not take the request within ${TUNE_WORKER.answerMs} ms; its script must call serveTuning() (import { serveTuning } from 'glcompact')`)));
    }, TUNE_WORKER.answerMs);
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    worker.addEventListener('messageerror', onError);
    const request: TuneRequest = { glcompact: 'tune', id, options: { sizes: [...options.sizes], densities: [...options.densities], repeats: options.repeats }, engineOptions: { ...engineOptions }, progress: onProgress !== undefined, powerPreference };
    worker.postMessage(request);
  });
  return { profile, cancel };
}
