// The benchmarks' seeded orders: each round runs its series in a fresh order drawn from one seed, so
// no series always follows the same one (what ran before can leave the pool, the caches or the
// driver in a state that favours or burdens the next) and a run can be repeated exactly.
// Shared by bench/tuned-sweep.ts (Node) and bench/tuned-sweep-page (the browsers); the tests' seeded
// data (test/support/reference.ts) draws from the same generator.

/** mulberry32: a generator of numbers in [0, 1) from a 32-bit seed. */
export function random(seedValue: number): () => number {
  let a = seedValue >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A function that returns its list in a fresh order drawn from `next` at every call. */
export function shuffler(next: () => number): <T>(list: readonly T[]) => T[] {
  return (list) => list.map((item) => [next(), item] as const).sort((a, b) => a[0] - b[0]).map(([, item]) => item);
}
