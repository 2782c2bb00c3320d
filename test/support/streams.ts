// Test inputs for compaction: which elements are kept, laid out in the ways that break algorithms.
import { random } from './reference.js';

export type KeptPattern = (i: number) => boolean;

/** Keeps each element with probability `density`, deterministic per seed. */
export function randomKept(n: number, density: number, seed: number): boolean[] {
  const next = random(seed);
  return Array.from({ length: n }, () => next() < density);
}

/** Keeps one element in the middle of every block: Jumping Jack's worst case (b - 1 jumps). */
export function loneKeptPerBlock(n: number, blockSize: number): boolean[] {
  return Array.from({ length: n }, (_, i) => i % blockSize === blockSize >> 1);
}

/** Keeps only the first and last element of every block. */
export function blockBoundariesKept(n: number, blockSize: number): boolean[] {
  return Array.from({ length: n }, (_, i) => i % blockSize === 0 || i % blockSize === blockSize - 1);
}

/** Uint32 data where kept elements are non-zero and unique (i + 1), the rest 0: keep 'nonzero'. */
export function nonzeroWhereKept(kept: boolean[]): Uint32Array {
  return Uint32Array.from(kept, (k, i) => (k ? i + 1 : 0));
}

export function keptIndices(kept: boolean[]): Uint32Array {
  const out: number[] = [];
  kept.forEach((k, i) => k && out.push(i));
  return Uint32Array.from(out);
}
