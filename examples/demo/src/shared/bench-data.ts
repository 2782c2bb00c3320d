// The benchmark page's data, shared with its Playwright test so the test can recompute the
// expected counts: uniform float32 values in [0, 1) from a seed; "invalid density d" keeps the
// values > d (engine keep { greaterThan: d }, compared in float32).
import { seededRandom } from './random.js';

export const BENCH_SEED = 20090205;

export function uniformValues(length: number, seed = BENCH_SEED): Float32Array {
  const random = seededRandom(seed);
  const values = new Float32Array(length);
  for (let i = 0; i < length; i++) values[i] = random();
  return values;
}

/** Invalid densities of the sweep: 0, 0.1, ..., 1. */
export const densities = Array.from({ length: 11 }, (_, k) => k / 10);

export function keptCount(values: Float32Array, invalidDensity: number): number {
  const threshold = Math.fround(invalidDensity);
  let count = 0;
  for (let i = 0; i < values.length; i++) if (values[i] > threshold) count++;
  return count;
}
