// The float32 scan in the engine's own order of additions, on the CPU: Blelloch's balanced tree or
// recursive doubling inside blocks (src/scan/blelloch.ts, hillis-steele.ts), and for a scan of the
// whole stream the block totals scanned one level up and added back (src/scan/global-scan.ts).
// Every addition is rounded to float32 (Math.fround), as the GPU does, so the result is the GPU's
// bit for bit. Alongside each value it tracks its depth: the most roundings on any path from an
// input to it, which bounds the error (Higham, "Accuracy and Stability of Numerical Algorithms",
// 4.2): |computed - exact| <= gamma(depth) * sum |x_j|, gamma(d) = d u / (1 - d u), u = 2^-24.
import { compactLayoutFor, layoutFor, log2Exact, MAX_BLOCK_SIZE } from '../../src/layout.js';

export interface Tracked {
  values: Float32Array;
  depths: Int32Array;
}

export interface FloatScanOrder {
  algorithm: 'blelloch' | 'recursive-doubling';
  /** Recursive doubling's radix (the engine's default is 4). */
  radix?: number;
  exclusive?: boolean;
}

const tracked = (n: number): Tracked => ({ values: new Float32Array(n), depths: new Int32Array(n) });

/** out[o] = a[i] + b[j], rounded; depth one more than the deeper input. */
function addInto(out: Tracked, o: number, a: Tracked, i: number, b: Tracked, j: number): void {
  out.values[o] = Math.fround(a.values[i] + b.values[j]);
  out.depths[o] = Math.max(a.depths[i], b.depths[j]) + 1;
}

function copyInto(out: Tracked, o: number, a: Tracked, i: number): void {
  out.values[o] = a.values[i];
  out.depths[o] = a.depths[i];
}

/** Blelloch per block of 2^L (glsl/blelloch-up-sweep.frag, blelloch-down-sweep.frag). */
function blellochBlocks(input: Tracked, L: number, exclusive: boolean): Tracked {
  const n = input.values.length;
  const sums = [input];
  for (let level = 1; level < L; level++) {
    const below = sums[level - 1];
    const next = tracked(n >> level);
    for (let j = 0; j < next.values.length; j++) addInto(next, j, below, 2 * j, below, 2 * j + 1);
    sums.push(next);
  }
  let parent: Tracked | undefined;
  for (let level = L - 1; level >= 0; level--) {
    const prefix = tracked(n >> level);
    for (let j = 0; j < prefix.values.length; j++) {
      if (parent) copyInto(prefix, j, parent, j >> 1); // else the root's prefix: +0, depth 0
      if (j & 1) addInto(prefix, j, prefix, j, sums[level], j - 1);
      if (level === 0 && !exclusive) addInto(prefix, j, prefix, j, sums[0], j);
    }
    parent = prefix;
  }
  return parent!;
}

/** Recursive doubling per block of 2^L (glsl/hillis-steele-step.frag): ceil(L / log2 r) passes. */
function recursiveDoublingBlocks(input: Tracked, L: number, radix: number, exclusive: boolean): Tracked {
  const n = input.values.length;
  const mask = 2 ** L - 1;
  const steps = Math.max(1, Math.ceil(L / Math.log2(radix)));
  let source = input;
  for (let step = 0; step < steps; step++) {
    const offset = radix ** step;
    const shift = step === steps - 1 && exclusive;
    const out = tracked(n);
    for (let i = 0; i < n; i++) {
      let local = i & mask;
      let at = i;
      if (shift) {
        if (local === 0) continue; // +0, depth 0
        at -= 1;
        local -= 1;
      }
      copyInto(out, i, source, at);
      for (let k = 1; k < radix && local >= k * offset; k++) addInto(out, i, out, i, source, at - k * offset);
    }
    source = out;
  }
  return source;
}

function blockScan(input: Tracked, L: number, order: FloatScanOrder, exclusive: boolean): Tracked {
  if (order.algorithm === 'blelloch' && L > 0) return blellochBlocks(input, L, exclusive);
  return recursiveDoublingBlocks(input, L, order.algorithm === 'blelloch' ? 2 : (order.radix ?? 4), exclusive);
}

/** globalScan (src/scan/global-scan.ts) over width × height texels, row-major. */
function globalScan(input: Tracked, width: number, height: number, order: FloatScanOrder, exclusive: boolean, maxTextureSize: number): Tracked {
  const widthLog2 = log2Exact(width);
  const L = Math.min(widthLog2, log2Exact(MAX_BLOCK_SIZE));
  if (height === 1 && L === widthLog2) return blockScan(input, L, order, exclusive);
  const blocks = blockScan(input, L, order, false);
  const blockCount = (width * height) >> L;
  const totalsLayout = compactLayoutFor(blockCount, maxTextureSize);
  const totals = tracked(totalsLayout.capacity); // zeros past the last block
  for (let b = 0; b < blockCount; b++) copyInto(totals, b, blocks, (b << L) + 2 ** L - 1);
  const prefix = globalScan(totals, totalsLayout.width, totalsLayout.height, order, true, maxTextureSize);
  const out = tracked(width * height);
  for (let i = exclusive ? 1 : 0; i < out.values.length; i++) {
    const at = exclusive ? i - 1 : i;
    addInto(out, i, blocks, at, prefix, at >> L);
  }
  return out;
}

/**
 * engine.scan(stream of `data`, { algorithm, radix, exclusive, blockSize }) as the engine computes
 * it on a context whose MAX_TEXTURE_SIZE is `maxTextureSize`, per component.
 */
export function floatScanInEngineOrder(data: Float32Array, order: FloatScanOrder & { blockSize?: number; components?: number; maxTextureSize: number }): Tracked {
  const components = order.components ?? 1;
  const n = data.length / components;
  const layout = layoutFor(n, order.maxTextureSize);
  const out = tracked(data.length);
  for (let c = 0; c < components; c++) {
    const input = tracked(layout.capacity);
    for (let i = 0; i < n; i++) input.values[i] = data[i * components + c];
    const result = order.blockSize === undefined
      ? globalScan(input, layout.width, layout.height, order, order.exclusive ?? false, order.maxTextureSize)
      : blockScan(input, log2Exact(order.blockSize), order, order.exclusive ?? false);
    for (let i = 0; i < n; i++) copyInto(out, i * components + c, result, i);
  }
  return out;
}

/** gamma(d) = d u / (1 - d u) with u = 2^-24, the relative error bound of d float32 roundings in a row. */
export function gamma(depth: number): number {
  const du = depth * 2 ** -24;
  return du / (1 - du);
}
