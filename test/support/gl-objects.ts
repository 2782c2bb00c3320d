// Counts GL objects on the context itself, independently of the engine's own counters: wraps the
// context's create-X / delete-X methods (fenceSync / deleteSync for syncs) and tracks live objects
// per kind until restore().

export const glObjectKinds = {
  Texture: 'textures',
  Framebuffer: 'framebuffers',
  Buffer: 'buffers',
  Program: 'programs',
  Shader: 'shaders',
  VertexArray: 'vertexArrays',
  TransformFeedback: 'transformFeedbacks',
  Query: 'queries',
  Renderbuffer: 'renderbuffers',
  Sampler: 'samplers',
  Sync: 'syncs',
} as const;

/** The method that makes an object of a kind, where it is not create<Kind>. */
const creators: Record<string, string> = { Sync: 'fenceSync' };

export interface GlObjectCounter {
  /** Net objects created (created minus deleted) per kind since the counter started. */
  live: Record<string, number>;
  restore(): void;
}

export function countGlObjects(gl: WebGL2RenderingContext, kinds: readonly string[] = Object.keys(glObjectKinds)): GlObjectCounter {
  const live: Record<string, number> = {};
  const restore: Array<() => void> = [];
  const target = gl as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const kind of kinds) {
    live[kind] = 0;
    for (const [verb, delta] of [['create', 1], ['delete', -1]] as const) {
      const name = verb === 'create' ? creators[kind] ?? `create${kind}` : `delete${kind}`;
      const hadOwn = Object.prototype.hasOwnProperty.call(target, name);
      const original = target[name];
      // A method the context lacks (WebGL1's fenceSync) stays absent: capability checks look for it.
      if (typeof original !== 'function') continue;
      target[name] = function (this: unknown, ...args: unknown[]) {
        const value = original.apply(gl, args);
        if (verb === 'create' ? value : args[0]) live[kind] += delta;
        return value;
      };
      restore.push(() => {
        if (hadOwn) target[name] = original;
        else delete target[name];
      });
    }
  }
  return { live, restore: () => restore.reverse().forEach((r) => r()) };
}

/** Live counts that are not zero, e.g. { Texture: 1 } (an empty object means nothing leaked). */
export function nonZero(live: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(live).filter(([, n]) => n !== 0));
}
