// Where a stream's elements sit in a texture. Element i is at texel (i mod width, i div width);
// the width is a power of two so shaders convert with masks and shifts (glsl/texel-index.glsl).
// Texels past `length` are padding: every pass treats them as zero / not kept.

/**
 * Where a stream's elements sit in its texture (`stream.layout`): element i at texel
 * (i mod width, i div width); texels past `length` are padding (zero).
 */
export interface Layout {
  /** Elements in the stream. */
  readonly length: number;
  /** Texture width in texels, a power of two (at least 2048 where the engine's texture limit allows). */
  readonly width: number;
  /** Texture height in texels. */
  readonly height: number;
  /** log2(width), for shaders that turn an index into a texel with shifts and masks. */
  readonly widthLog2: number;
  /** width × height texels, ≥ length. */
  readonly capacity: number;
}

/** Largest block size the compaction accepts; streams are at least this wide so any block fits a row. */
export const MAX_BLOCK_SIZE = 2048;

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
}

export function log2Exact(n: number): number {
  if (!isPowerOfTwo(n)) throw new Error(`internal: ${n} is not a power of two`);
  return 31 - Math.clz32(n);
}

export function nextPowerOfTwo(n: number): number {
  return n <= 1 ? 1 : 2 ** Math.ceil(Math.log2(n));
}

/**
 * The widest texture row under `maxTextureSize`: rows are a power of two wide (shaders turn an index
 * into a texel with shifts and masks), so a limit that is not one (an app's choice, or a context's)
 * caps the width at the power of two below it; the height may still use the whole limit.
 */
export function maxRowWidth(maxTextureSize: number): number {
  return 2 ** (31 - Math.clz32(maxTextureSize)); // limits are far below 2^31
}

/**
 * The tallest stream under `maxTextureSize`. The texture limit caps it, and so do the helper
 * textures a stream's passes make: the largest laid out in rows of MAX_BLOCK_SIZE holds one entry
 * per 8 of its texels (the sort's digit masks; row-aligned ones, groupsLayout, are never taller than
 * the stream), so a stream may have at most 8 × MAX_BLOCK_SIZE × maxTextureSize texels. That binds
 * only above 16384.
 */
export function maxStreamRows(maxTextureSize: number): number {
  return Math.min(maxTextureSize, Math.floor((8 * MAX_BLOCK_SIZE * maxTextureSize) / maxRowWidth(maxTextureSize)));
}

/** The most elements a stream holds under `maxTextureSize` (4096² with the default limit). */
export function maxStreamLength(maxTextureSize: number): number {
  return maxRowWidth(maxTextureSize) * maxStreamRows(maxTextureSize);
}

/** "4096² = 16777216", or "2048 × 3000 = 6144000" for a limit that is not a power of two. */
export function streamLimitText(maxTextureSize: number): string {
  const width = maxRowWidth(maxTextureSize);
  const rows = maxStreamRows(maxTextureSize);
  const shape = width === rows ? `${width}²` : `${width} × ${rows}`;
  return `${shape} = ${maxStreamLength(maxTextureSize)}`;
}

/**
 * Layout for `length` elements: about square (fewer, longer rows keep draws cheap and stay under
 * the texture limit), but never narrower than `minWidth` so a block of that size fits in a row.
 * `maxTextureSize` is the engine's limit (EngineOptions.maxTextureSize), not necessarily the context's.
 */
export function layoutFor(length: number, maxTextureSize: number, minWidth = MAX_BLOCK_SIZE): Layout {
  const widest = maxRowWidth(maxTextureSize);
  const square = nextPowerOfTwo(Math.ceil(Math.sqrt(Math.max(length, 1))));
  const width = Math.min(widest, Math.max(square, Math.min(minWidth, widest)));
  const height = Math.max(1, Math.ceil(length / width));
  if (height > maxStreamRows(maxTextureSize)) {
    throw new Error(
      `stream length ${length} exceeds the texture limit: at most ${streamLimitText(maxTextureSize)} ` +
        `elements fit (maxTextureSize ${maxTextureSize})`,
    );
  }
  return { length, width, height, widthLog2: log2Exact(width), capacity: width * height };
}

/**
 * Layout for a helper stream (e.g. one total per block): rows of up to MAX_BLOCK_SIZE, so that a
 * global scan of it needs one block per row and as few recursion levels as possible.
 */
export function compactLayoutFor(length: number, maxTextureSize: number): Layout {
  const width = Math.min(nextPowerOfTwo(Math.max(length, 1)), MAX_BLOCK_SIZE, maxRowWidth(maxTextureSize));
  const height = Math.max(1, Math.ceil(length / width));
  if (height > maxTextureSize) throw new Error(`internal: helper stream of ${length} elements exceeds the texture limit ${maxTextureSize}`);
  return { length, width, height, widthLog2: log2Exact(width), capacity: width * height };
}

/**
 * Where a scan's groups of 2^groupLog2 consecutive entries lie (one texel each: their sums, or
 * their lanes), for a level whose entries sit in rows of 2^levelWidthLog2: the groups of one row
 * of entries in one row of texels, rows 2^groupLog2 times narrower (at least one texel wide), so
 * that neighbouring fragments read neighbouring rows of entries. With rows as wide as the texture
 * allows, fragments side by side read groups that lie rows apart: on the H200 the level-0 up pass
 * of reduce-then-scan over 2^24 elements took 2.9-3.0 ms that way against 1.20 ms (what writing its
 * lanes costs), and its way down 2.31 against 1.63 (bench/scan-floor-probe.ts; docs/performance.md
 * "Row-aligned groups"). The height never exceeds the level's. `minWidth` (a power of two): rows at
 * least that wide, or one row holding them all, where a shader needs a group of the next level in
 * one row.
 */
export function groupsLayout(count: number, levelWidthLog2: number, groupLog2: number, minWidth = 1): Layout {
  const length = Math.ceil(count / 2 ** groupLog2);
  const widthLog2 = Math.max(levelWidthLog2 - groupLog2, log2Exact(Math.min(nextPowerOfTwo(length), minWidth)));
  const width = 2 ** widthLog2;
  const height = Math.max(1, Math.ceil(length / width));
  return { length, width, height, widthLog2, capacity: width * height };
}
