// The splat-sort page's CPU sort (?sort=cpu), in a Web Worker, as splat viewers sort: the worker
// holds the points' positions (sent once); per request the page posts the camera (eye, integer view
// direction, key range), the worker computes every point's depth key (shared/splat-scene.ts, the
// same exact arithmetic as the GPU's key pass) and sorts the indices back to front (a counting sort
// on 16-bit keys, two 16-bit passes on float depths), and posts them back (transferred). The page
// uploads the latest order it has and draws with it: the main thread never waits for a sort.
import { depthKeys, sortDescending, type KeyKind, type SplatView } from './shared/splat-scene.js';

export type WorkerRequest =
  | { type: 'points'; points: Uint32Array; n: number; capacity: number; kind: KeyKind }
  | { type: 'sort'; frame: number; view: Pick<SplatView, 'eye' | 'dir' | 'lo' | 'scale'>; withKeys: boolean; recycle?: Uint32Array };

export interface WorkerReply {
  frame: number;
  /** Point indices, farthest first (capacity long: the index texture's size; the rest is 0). */
  order: Uint32Array;
  /** The keys sorted by (capture mode only, for the page's test). */
  keys?: Uint32Array;
  /** ms the worker spent: keys, sort. */
  keyMs: number;
  sortMs: number;
}

let points: Uint32Array | undefined;
let n = 0;
let capacity = 0;
let kind: KeyKind = 'u16';
let keys: Uint32Array | undefined;

const scope = self as unknown as { onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null; postMessage(message: unknown, transfer: Transferable[]): void };

scope.onmessage = (event) => {
  const request = event.data;
  if (request.type === 'points') {
    ({ points, n, capacity, kind } = request);
    keys = new Uint32Array(n);
    return;
  }
  const started = performance.now();
  depthKeys(points!, n, request.view, kind, keys!);
  const keyed = performance.now();
  const order = request.recycle && request.recycle.length === capacity ? request.recycle : new Uint32Array(capacity);
  sortDescending(keys!, n, kind, order);
  const reply: WorkerReply = { frame: request.frame, order, keyMs: keyed - started, sortMs: performance.now() - keyed };
  const transfer: Transferable[] = [order.buffer];
  if (request.withKeys) {
    reply.keys = keys!.slice();
    transfer.push(reply.keys.buffer);
  }
  scope.postMessage(reply, transfer);
};
