// The tuning page's check, shared with its test (test/demo-pages.node.test.ts): the same data and the
// same fold of what was read, computed in the browser and in Node.
import { hash32 } from './random.js';

/** Densities the page's check runs `auto` at (kept fractions). */
export const CHECK_DENSITIES = [0.1, 0.5, 0.9];

/** The stream compacted at 2^log2n elements: uint32 values below 1,000,000. */
export function checkData(log2n: number): Uint32Array {
  return Uint32Array.from({ length: 2 ** log2n }, (_, i) => hash32(i + 977 * log2n) % 1_000_000);
}

/** The keep threshold (lessEqual) that keeps about `density` of checkData's values. */
export const checkThreshold = (density: number): number => Math.round(density * 1_000_000) - 1;

/** An order-sensitive fold of uint32 values (FNV-1a over whole words). */
export function elementsHash(values: ArrayLike<number>): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < values.length; i++) h = Math.imul(h ^ values[i], 0x01000193) >>> 0;
  return h;
}
