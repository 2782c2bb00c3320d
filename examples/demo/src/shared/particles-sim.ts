// The particle page's simulation rules, in JS. The page runs them on the GPU (the GLSL in
// particles.ts uses the same hash) and the Playwright test runs them here to check the page's live
// counts. Everything counts whole frames, so GPU float32 and the CPU agree exactly.
import { hash32 } from './random.js';

export interface ParticleParams {
  /** Pool size: the stream the engine compacts every frame. */
  capacity: number;
  /** New particles per frame (fewer when the pool is full). */
  emitPerFrame: number;
}

export const defaultParticleParams: ParticleParams = { capacity: 50_000, emitPerFrame: 450 };

export const MIN_LIFE = 40;
export const LIFE_RANGE = 120;

/** Frames particle `id` lives when it is emitted: MIN_LIFE .. MIN_LIFE + LIFE_RANGE - 1. */
export function lifetime(id: number): number {
  return MIN_LIFE + (hash32(id) % LIFE_RANGE);
}

/** Frames left for the particles alive at frame 0 (ids 0..capacity-1): spread so they do not all die at once. */
export function initialLife(id: number): number {
  return 1 + (hash32(id ^ 0x5bd1e995) % lifetime(id));
}

export interface SimulationResult {
  /** counts[k]: live particles after frame k's compaction (frame 0: the initial pool). */
  counts: number[];
  /** Ids of the particles alive after the last frame, sorted. */
  liveIds: Uint32Array;
}

/**
 * Id of the j-th particle emitted at frame k >= 1. It does not depend on how many were emitted before
 * (a full pool emits fewer), so the page's GPU pass can name new particles without the live count ever
 * reaching the CPU; ids stay unique.
 */
export function emittedId(params: ParticleParams, frame: number, j: number): number {
  return params.capacity + (frame - 1) * params.emitPerFrame + j;
}

/**
 * Frame 0: particles 0..capacity-1, with initialLife(id) frames left, all alive.
 * Frame k >= 1: every live particle loses one frame of life; then min(emitPerFrame, capacity -
 * live) new particles are appended (ids emittedId(params, k, j)) with lifetime(id) frames;
 * then the ones with life <= 0 are dropped (that is the compaction).
 */
export function simulateParticles(params: ParticleParams, frames: number): SimulationResult {
  let ids: number[] = [];
  let lives: number[] = [];
  for (let id = 0; id < params.capacity; id++) {
    ids.push(id);
    lives.push(initialLife(id));
  }
  const counts = [ids.length];
  for (let frame = 1; frame <= frames; frame++) {
    const nextIds: number[] = [];
    const nextLives: number[] = [];
    for (let k = 0; k < ids.length; k++) {
      if (lives[k] - 1 > 0) {
        nextIds.push(ids[k]);
        nextLives.push(lives[k] - 1);
      }
    }
    const emitted = Math.min(params.emitPerFrame, params.capacity - ids.length);
    for (let j = 0; j < emitted; j++) {
      const id = emittedId(params, frame, j);
      nextIds.push(id);
      nextLives.push(lifetime(id));
    }
    ids = nextIds;
    lives = nextLives;
    counts.push(ids.length);
  }
  return { counts, liveIds: Uint32Array.from(ids).sort() };
}
