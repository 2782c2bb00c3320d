// Input data and CPU references/baselines. Everything is seeded so a run can be repeated exactly.

/** n float32 values, uniform in [0, 1), from mulberry32 (also the main job's data). */
export function uniformFloats(n, seed) {
  let a = seed >>> 0;
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    data[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  return data;
}

/** n uint32 values in 0..255 (scans are checked bit-exactly, so integers; sums wrap mod 2^32 on both sides). */
export function uniformBytes(n, seed) {
  const floats = uniformFloats(n, seed);
  const data = new Uint32Array(n);
  for (let i = 0; i < n; i++) data[i] = Math.floor(floats[i] * 256);
  return data;
}

/**
 * The CPU compaction baseline: a plain loop writing the kept values into a preallocated
 * Float32Array (not Array.prototype.filter). Keeps x <= threshold, as { lessEqual } does on the GPU.
 * Returns the kept count; out[0..count) holds the kept values in input order.
 */
export function cpuFilter(data, threshold, out) {
  const n = data.length;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const v = data[i];
    if (v <= threshold) out[k++] = v;
  }
  return k;
}

/** The CPU prefix-sum baseline: inclusive uint32 scan (mod 2^32) into a preallocated Uint32Array. */
export function cpuPrefixSum(data, out) {
  const n = data.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum = (sum + data[i]) >>> 0;
    out[i] = sum;
  }
}

/** Reference for a segmented inclusive scan (engine.scan with blockSize): the sum restarts every blockSize elements. */
export function cpuSegmentedPrefixSum(data, blockSize, out) {
  const n = data.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (i % blockSize === 0) sum = 0;
    sum = (sum + data[i]) >>> 0;
    out[i] = sum;
  }
}
