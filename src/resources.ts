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
export type ResourceCounts = Record<ResourceKind, number>;

export class ResourceTracker {
  private readonly live: ResourceCounts = Object.fromEntries(resourceKinds.map((k) => [k, 0])) as ResourceCounts;

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
