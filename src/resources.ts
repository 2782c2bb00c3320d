// Live GL object counts per kind. Whatever creates an object registers it here and whatever frees
// it unregisters it, so `engine.resources` shows leaks and tests can demand a return to baseline.

export const resourceKinds = [
  'textures',
  'framebuffers',
  'buffers',
  'programs',
  'vertexArrays',
  'transformFeedbacks',
  'queries',
  'syncs',
] as const;

export type ResourceKind = (typeof resourceKinds)[number];
/** Live GL objects per kind (`engine.resources`), for leak checks. */
export interface ResourceCounts {
  /** WebGLTexture objects. */
  textures: number;
  /** WebGLFramebuffer objects. */
  framebuffers: number;
  /** WebGLBuffer objects. */
  buffers: number;
  /** WebGLProgram objects (compiled passes, cached). */
  programs: number;
  /** WebGLVertexArrayObject objects. */
  vertexArrays: number;
  /** WebGLTransformFeedback objects. */
  transformFeedbacks: number;
  /** WebGLQuery objects (GPU timers). */
  queries: number;
  /** WebGLSync objects (fenced reads). */
  syncs: number;
}
// Spelt out for the API reference; it must match the list.
const countsMatchKinds: [keyof ResourceCounts] extends [ResourceKind] ? ([ResourceKind] extends [keyof ResourceCounts] ? true : false) : false = true;
void countsMatchKinds;

export class ResourceTracker {
  private readonly live: ResourceCounts = Object.fromEntries(resourceKinds.map((k) => [k, 0])) as Record<ResourceKind, number>;

  created(kind: ResourceKind): void {
    this.live[kind] += 1;
  }

  deleted(kind: ResourceKind): void {
    if (this.live[kind] === 0) throw new Error(`internal: more ${kind} deleted than created`);
    this.live[kind] -= 1;
  }

  snapshot(): ResourceCounts {
    return { ...this.live };
  }
}

/**
 * Most programs an engine keeps compiled (`engine.resources.programs` stays at or below it). Past
 * it the least recently used program is deleted, so a stream of distinct `{ glsl }` snippets cannot
 * grow GPU and driver memory without bound (llvmpipe: ~0.3 MiB of RSS per program, so ~77 MiB at
 * most at this size, where 128 kept ~38).
 * An app's working set must fit, or the app relinks every frame: a compile, and a link status asked
 * (a blocking call) inside its frame. One compaction fetches about 15 programs; every path once at one
 * stream type (test/no-blocking-calls.test.ts) 65, so 64 relinked every frame. The family's
 * operations each frame (test/program-working-set.test.ts: sorts of every key type both ways,
 * argsort, unique, runLengthEncode, reduce, scans, compactions, at small and large-stream forms) took
 * 141 in the browsers (127 in Node, one attachment per pass), so 128 relinked 66 of them every frame
 * in Chromium; with a partition, a gather and compactions as indices, 150 (136 in Node). Not every
 * option: explicit algorithms and other value types add their own, and sweeping every option
 * (test/property.test.ts) touches more, recompiled as needed.
 * A program is evicted only after PROGRAM_CACHE_SIZE - 1 others were fetched after it, and every pass
 * is drawn within two fetches of its program, so none is deleted between its fetch and its draw.
 */
export const PROGRAM_CACHE_SIZE = 256;
