// CPU reference implementations: the oracle every GPU result is compared with.

export type Numeric = Float32Array | Uint32Array | Int32Array;

/** Inclusive or exclusive prefix sums, per component, optionally restarting every `blockSize` elements. */
export function referenceScan<T extends Numeric>(data: T, options: { exclusive?: boolean; blockSize?: number; components?: number } = {}): T {
  const components = options.components ?? 1;
  const out = new (data.constructor as { new (n: number): T })(data.length);
  const n = data.length / components;
  const isFloat = data instanceof Float32Array;
  for (let c = 0; c < components; c++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      if (options.blockSize && i % options.blockSize === 0) sum = 0;
      const value = data[i * components + c];
      if (options.exclusive) out[i * components + c] = sum;
      sum = isFloat ? Math.fround(sum + value) : (sum + value) >>> 0;
      if (!options.exclusive) out[i * components + c] = sum;
    }
  }
  return out;
}

/** Indices of kept elements, in input order. */
export function referenceKeptIndices(n: number, kept: (i: number) => boolean): Uint32Array {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (kept(i)) out.push(i);
  return Uint32Array.from(out);
}

/** Max-allowable-size per element (paper Eq. 1) with bit 31 set for kept elements. */
export function referenceMaxAllowableSize(kept: boolean[], blockSize: number, capacity: number): Uint32Array {
  const out = new Uint32Array(capacity);
  for (let start = 0; start < capacity; start += blockSize) {
    let invalid = 0;
    for (let i = start; i < start + blockSize; i++) {
      const isKept = i < kept.length && kept[i];
      if (!isKept) invalid++;
      out[i] = ((blockSize - invalid) | (isKept ? 0x80000000 : 0)) >>> 0;
    }
  }
  return out;
}

/** Deterministic pseudo-random numbers (mulberry32), so failures reproduce: the benchmarks' generator. */
export { random } from '../../bench/lib/seeded-order.js';

/** First index where two arrays differ (bitwise for floats), or -1. */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  const ab = new Uint32Array(Float32Array.from(a as ArrayLike<number>).buffer);
  const bb = new Uint32Array(Float32Array.from(b as ArrayLike<number>).buffer);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]) && ab[i] === bb[i])) return i;
  }
  return -1;
}

/** Sorted copy (for comparing Jumping Jack's unordered output as a multiset). */
export function sorted<T extends Numeric>(data: T): T {
  return (data.slice() as T).sort() as T;
}

/** Elements (tuples of `components` words) sorted by their words, for comparing unordered outputs as multisets. */
export function sortedTuples(words: Uint32Array, components: number): Uint32Array {
  if (components === 1) return words.slice().sort();
  const order = Array.from({ length: words.length / components }, (_, i) => i);
  order.sort((a, b) => {
    for (let c = 0; c < components; c++) {
      const d = words[a * components + c] - words[b * components + c];
      if (d !== 0) return d;
    }
    return 0;
  });
  const out = new Uint32Array(words.length);
  order.forEach((from, to) => out.set(words.subarray(from * components, from * components + components), to * components));
  return out;
}
