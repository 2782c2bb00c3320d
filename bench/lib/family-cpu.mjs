// The family sweep's inputs and its host baselines: seeded data, a stable LSD counting sort (the
// baseline and the CPU reference of engine.sort), and plain loops doing what unique,
// runLengthEncode, reduce, scan with segments and partition do. Everything works on preallocated
// typed arrays, so a timed run is the algorithm alone.
import { uniformBytes, uniformFloats } from './data.mjs';

/** n uint32 values, uniform over all 2^32 (mulberry32, the generator of data.mjs, unscaled). */
export function uniformUint32(n, seed) {
  let a = seed >>> 0;
  const data = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    data[i] = (t ^ (t >>> 14)) >>> 0;
  }
  return data;
}

/** 16-bit depth keys: uniform in 0..65535 (about n / 65536 copies of each key, so stability shows). */
export function depth16(n, seed) {
  const data = uniformUint32(n, seed);
  for (let i = 0; i < n; i++) data[i] >>>= 16;
  return data;
}

/**
 * float32 keys of both signs: uniform in [-1024, 1024) rounded to float32 (duplicates at the larger
 * sizes), with +0 and -0 at every 4096th element alternately (their order is part of the contract).
 */
export function signedFloats(n, seed) {
  const bits = uniformUint32(n, seed);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = (bits[i] / 4294967296 - 0.5) * 2048;
  for (let i = 0; i < n; i += 4096) data[i] = (i / 4096) % 2 === 0 ? 0 : -0;
  return data;
}

/** 0, 1, 2, ... n - 1: the payload that says where each key came from. */
export function indices(n) {
  const data = new Uint32Array(n);
  for (let i = 0; i < n; i++) data[i] = i;
  return data;
}

/** Runs of 1..16 equal uint32 values (random run lengths and values): input of unique and runLengthEncode. */
export function runs(n, seed) {
  const random = uniformUint32(n, seed);
  const data = new Uint32Array(n);
  let i = 0;
  let r = 0;
  while (i < n) {
    const length = 1 + (random[r] & 15);
    const value = random[r + 1 < n ? r + 1 : 0];
    r += 2;
    if (r >= n) r = 0;
    for (let j = 0; j < length && i < n; j++) data[i++] = value;
  }
  return data;
}

/** Segment heads for engine.scan(stream, { segments }): 1 with probability 1/256, else 0 (element 0 starts one anyway). */
export function segmentHeads(n, seed) {
  const random = uniformUint32(n, seed);
  const heads = new Uint32Array(n);
  for (let i = 0; i < n; i++) heads[i] = (random[i] & 255) === 0 ? 1 : 0;
  return heads;
}

export { uniformBytes, uniformFloats };

/** Scratch for lsdSort: ping-pong buffers, allocated once per size (not in the timed run). */
export function lsdBuffers(n, withValues) {
  return {
    keys: new Uint32Array(n),
    values: withValues ? new Uint32Array(n) : undefined,
    tmpKeys: new Uint32Array(n),
    tmpValues: withValues ? new Uint32Array(n) : undefined,
    counts: new Uint32Array(256 * 4),
  };
}

/**
 * Stable LSD counting sort of uint32 `keys` (ascending), `passes` digits of 8 bits from the lowest
 * (4 for 32-bit keys, 2 for keys < 2^16), `values` moved with their keys. One read pass builds every
 * digit's histogram; then one scatter pass per digit. The input is not modified; the result is in
 * `buffers.keys` / `buffers.values`.
 */
export function lsdSort(keys, values, passes, buffers) {
  const n = keys.length;
  const { counts } = buffers;
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    counts[k & 255]++;
    if (passes > 1) counts[256 + ((k >>> 8) & 255)]++;
    if (passes > 2) counts[512 + ((k >>> 16) & 255)]++;
    if (passes > 3) counts[768 + (k >>> 24)]++;
  }
  for (let p = 0; p < passes; p++) {
    let sum = 0;
    for (let d = p * 256; d < p * 256 + 256; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
  }
  let srcK = keys;
  let srcV = values;
  for (let p = 0; p < passes; p++) {
    // The last pass writes into buffers.keys, whatever the parity of `passes`.
    const toOut = (passes - p) % 2 === 1;
    const dstK = toOut ? buffers.keys : buffers.tmpKeys;
    const dstV = toOut ? buffers.values : buffers.tmpValues;
    const shift = p * 8;
    const base = p * 256;
    if (srcV) {
      for (let i = 0; i < n; i++) {
        const k = srcK[i];
        const j = counts[base + ((k >>> shift) & 255)]++;
        dstK[j] = k;
        dstV[j] = srcV[i];
      }
    } else {
      for (let i = 0; i < n; i++) {
        const k = srcK[i];
        dstK[counts[base + ((k >>> shift) & 255)]++] = k;
      }
    }
    srcK = dstK;
    srcV = dstV;
  }
}

/**
 * Stable ascending sort of float32 keys (as bits: a Uint32Array view) in Float32Array.prototype.sort's
 * order (-0 before +0; no NaNs in this sweep's data): map each key to an unsigned order key, lsdSort
 * with 4 passes, map back. `mapped` is scratch of n uint32; the sorted float bits end in buffers.keys.
 */
export function lsdSortFloat32(keyBits, values, buffers, mapped) {
  const n = keyBits.length;
  for (let i = 0; i < n; i++) {
    const b = keyBits[i];
    mapped[i] = b & 0x80000000 ? ~b : b | 0x80000000; // stored mod 2^32
  }
  lsdSort(mapped, values, 4, buffers);
  const out = buffers.keys;
  for (let i = 0; i < n; i++) {
    const m = out[i];
    out[i] = m & 0x80000000 ? m ^ 0x80000000 : ~m;
  }
}

/** Host loop of engine.unique: the first element of every run of equal elements. Returns the count. */
export function cpuUnique(data, out) {
  const n = data.length;
  let k = 0;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const v = data[i];
    if (i === 0 || v !== previous) out[k++] = v;
    previous = v;
  }
  return k;
}

/** Host loop of engine.runLengthEncode: each run's value and length. Returns the number of runs. */
export function cpuRunLengthEncode(data, values, counts) {
  const n = data.length;
  let runsSeen = 0;
  for (let i = 0; i < n; i++) {
    const v = data[i];
    if (i === 0 || v !== data[i - 1]) {
      values[runsSeen] = v;
      counts[runsSeen++] = 1;
    } else {
      counts[runsSeen - 1]++;
    }
  }
  return runsSeen;
}

/** Host loops of engine.reduce on uint32 data (the sum wraps mod 2^32, as on the GPU). */
export function cpuReduce(data, op) {
  const n = data.length;
  if (op === 'sum') {
    let s = 0;
    for (let i = 0; i < n; i++) s = (s + data[i]) >>> 0;
    return s;
  }
  if (op === 'min') {
    let m = 0xffffffff;
    for (let i = 0; i < n; i++) if (data[i] < m) m = data[i];
    return n === 0 ? 0 : m;
  }
  let m = 0;
  for (let i = 0; i < n; i++) if (data[i] > m) m = data[i];
  return m;
}

/** Host loop of engine.scan(stream, { segments }): inclusive uint32 sums restarting where heads[i] != 0. */
export function cpuSegmentedScan(data, heads, out) {
  const n = data.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (heads[i] !== 0) sum = 0;
    sum = (sum + data[i]) >>> 0;
    out[i] = sum;
  }
}

/** Host loops of engine.partition(stream, { keep: { lessEqual } }): the kept ones, then the rest, both in input order. Returns the kept count. */
export function cpuPartition(data, threshold, out) {
  const n = data.length;
  let k = 0;
  for (let i = 0; i < n; i++) if (data[i] <= threshold) out[k++] = data[i];
  let r = k;
  for (let i = 0; i < n; i++) if (!(data[i] <= threshold)) out[r++] = data[i];
  return k;
}
