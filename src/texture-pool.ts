// Reuses render targets across passes and calls. Allocating a texture is far from free: WebGL must
// hand out zeroed memory, so a new 2^24-texel target costs a full clear, and measured on an H200 the
// allocations of one compaction cost more than all of its passes together. Every pass writes all
// texels of its target, so a recycled target's old contents never show.
import type { ResourceTracker } from './resources.js';
import { RenderTarget, type TargetRecycler } from './render-target.js';
import type { TargetFormat } from './texel-format.js';

export class TexturePool implements TargetRecycler {
  private readonly idle = new Map<string, RenderTarget[]>();
  /** Idle targets, oldest first, for eviction. */
  private readonly order: RenderTarget[] = [];
  private idleBytes = 0;
  /** Targets handed out again from the idle ones, and targets made new (bench/pool-probe.ts). */
  hits = 0;
  misses = 0;
  /**
   * Targets of a kind the pool had freed to keep within its budget, made again: each such target
   * costs a clear of its memory that a larger pool would have saved (an H200 compacted 2^24 elements
   * in 54-80 ms a call with the default 64 MiB pool, 3.7 ms with 1 GiB: docs/performance.md).
   */
  reallocations = 0;
  /** Told of each reallocation (the engine warns once in debug mode: gpu.ts). */
  onReallocate: ((bytes: number, budgetBytes: number) => void) | undefined;
  /**
   * Per kind (pool key), targets freed to keep within the budget and not yet made again: each such
   * free accounts for at most one later reallocation (a working set that grows for the first time
   * is no reallocation). Emptied by trim(), the app's choice; a pool of 0 bytes (disabled on
   * purpose) counts nothing.
   */
  private readonly freedForBudget = new Map<string, number>();

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly tracker: ResourceTracker,
    /** Idle texture memory kept for reuse; beyond it the oldest idle targets are deleted. */
    private readonly budgetBytes: number,
    /** The engine's texture limit (EngineOptions.maxTextureSize): no side of a texture exceeds it. */
    private readonly maxTextureSize: number,
  ) {}

  /**
   * A target of `width` × `height` texels in use; its texture's height is `heightClass(height)`, or
   * the texture limit where the class would pass it (a limit that is not a power of two).
   */
  take(width: number, height: number, format: TargetFormat, layers = 1, companion?: TargetFormat): RenderTarget {
    if (width > this.maxTextureSize || height > this.maxTextureSize) {
      // Layouts keep every side within the limit (layout.ts); this only catches a driver that did not.
      throw new Error(`internal: a ${width}×${height} texture exceeds the engine's texture limit ${this.maxTextureSize}`);
    }
    const allocated = Math.min(heightClass(height), this.maxTextureSize);
    const k = key(width, allocated, format, layers, companion);
    const list = this.idle.get(k);
    const target = list?.pop();
    if (target) {
      this.hits++;
      this.order.splice(this.order.indexOf(target), 1);
      this.idleBytes -= target.bytes;
      return target.reuse(height);
    }
    this.misses++;
    const made = new RenderTarget(this.gl, this.tracker, width, allocated, format, layers, this, companion).reuse(height);
    const freed = this.freedForBudget.get(k);
    if (freed !== undefined) {
      if (freed > 1) this.freedForBudget.set(k, freed - 1);
      else this.freedForBudget.delete(k);
      this.reallocations++;
      this.onReallocate?.(made.bytes, this.budgetBytes);
    }
    return made;
  }

  recycle(target: RenderTarget): void {
    const k = key(target.width, target.allocatedHeight, target.format, target.layers, target.companionFormat);
    if (target.bytes > this.budgetBytes) {
      this.freeForBudget(k);
      return target.destroy();
    }
    let list = this.idle.get(k);
    if (!list) this.idle.set(k, (list = []));
    list.push(target);
    this.order.push(target);
    this.idleBytes += target.bytes;
    while (this.idleBytes > this.budgetBytes) this.evict(this.order[0]!, true);
  }

  /** Deletes every idle target (the app's choice: what is made again after it is no reallocation). */
  trim(): void {
    while (this.order.length > 0) this.evict(this.order[0]!, false);
    this.freedForBudget.clear();
  }

  get idleTextureBytes(): number {
    return this.idleBytes;
  }

  private freeForBudget(k: string): void {
    if (this.budgetBytes > 0) this.freedForBudget.set(k, (this.freedForBudget.get(k) ?? 0) + 1);
  }

  private evict(target: RenderTarget, forBudget: boolean): void {
    this.order.shift();
    const k = key(target.width, target.allocatedHeight, target.format, target.layers, target.companionFormat);
    if (forBudget) this.freeForBudget(k);
    const list = this.idle.get(k)!;
    list.splice(list.indexOf(target), 1);
    this.idleBytes -= target.bytes;
    target.destroy();
  }
}

function key(width: number, height: number, format: TargetFormat, layers: number, companion: TargetFormat | undefined): string {
  return `${width}x${height}x${layers}:${format.name}${companion ? `+${companion.name}` : ''}`;
}

/**
 * The texture height a target of `rows` rows gets: up to 4 exact, then rounded up to a quarter of
 * its power of two (5, 6, 7, 8, 10, 12, 14, 16, 20, ... 320 for 293): at most 25 % more memory, and a
 * stream whose length changes every frame meets a handful of sizes instead of a new one per frame
 * (bench/pool-probe.ts: 300 frames of 0 to 600k elements).
 */
export function heightClass(rows: number): number {
  if (rows <= 4) return rows;
  const step = 2 ** (31 - Math.clz32(rows)) / 4;
  return Math.ceil(rows / step) * step;
}
