// The public options and their validation. Each check throws an Error naming the argument, what
// was given and what is allowed, before any GL object is made (validate.ts has the helpers).
import { compactionAlgorithmInfo, compactionPath, requestedAlgorithmNames, type CompactionAlgorithm, type RequestedAlgorithm } from './compact/algorithm-names.js';
import { concatModes, type ConcatMode } from './compact/concatenate.js';
import { parseKeepOption, type KeepOption } from './compact/keep-function.js';
import { isPowerOfTwo, MAX_BLOCK_SIZE, maxStreamLength, streamLimitText } from './layout.js';
import { DEFAULT_RADIX, defaultScan, radices, scanAlgorithmNames, type ScanAlgorithm } from './scan/algorithms.js';
import { formatForComponents, streamComponents, type TexelFormat } from './texel-format.js';
import { describe, oneOf, optionsObject } from './validate.js';
import { Stream, type ElementType, type StreamData } from './stream.js';

/** Options of {@link createEngine}; every one may be left out or `undefined` (its default). */
export interface EngineOptions {
  /**
   * Idle texture memory the engine keeps for reuse, in bytes (default 64 MiB). Allocating a
   * texture costs a full clear, so reuse makes repeated calls several times faster (an H200 compacted
   * 2^24 elements in 3.7 ms a call with a 1 GiB pool, in 54-80 ms with 64 MiB); 0 disables it.
   * Texture heights are rounded up to size classes (at most 25 % more), so streams whose length
   * changes every frame reuse the same few textures. Raise it for streams of 2^22 elements and more
   * (a 2^24-element R32UI target alone is 64 MiB; a compaction of one uses several): with `debug`,
   * the engine warns once when a call allocates again a texture the pool had to free.
   * `engine.trim()` frees the idle textures at any time.
   */
  texturePoolBytes?: number | undefined;
  /**
   * Check every draw: GL errors, framebuffer completeness, and that every uniform the engine sets
   * exists in the pass's shaders; and warn once (console.warn) when calls outgrow the texture pool
   * (texturePoolBytes). Slow (getError stalls the pipeline); for development. Default false.
   */
  debug?: boolean | undefined;
  /**
   * Share the context politely (default true): every public call sets the GL state it depends on
   * and then puts back every piece of state it changed (README "Using glcompact in a graphics app").
   * false: the state it depends on is still set, but the app's is not saved or restored — for apps
   * that reset their own state after calling the engine (three.js `renderer.resetState()`).
   */
  preserveState?: boolean | undefined;
  /**
   * The largest texture side the engine may use, in texels (default: 4096, or the context's
   * MAX_TEXTURE_SIZE where that is smaller). A stream holds at most its square of elements (4096² =
   * 16,777,216 by default; a limit that is not a power of two gives rows of the power of two below
   * it); a longer one is refused with an error that names this option. Phones crash on larger
   * textures even where the context reports a larger limit (iOS reports 16384 and crashes above
   * 4096), so the default stays at 4096 everywhere: raise it, up to the context's
   * MAX_TEXTURE_SIZE (`engine.caps.contextMaxTextureSize`), for longer streams on devices you know
   * handle them. An integer from 2048 (WebGL2's guaranteed minimum) to the context's
   * MAX_TEXTURE_SIZE; README "Device limits".
   */
  maxTextureSize?: number | undefined;
}

/**
 * One kind of call `engine.warmUp()` prepares: the operation with the options you will pass, and the
 * streams you will pass it (the programs a path needs depend on the element type, the components,
 * the texture's size and whether the length is still on the GPU).
 */
export interface WarmUpCall {
  /** A scan with these options (give `scan` or `compact`). */
  scan?: ScanOptions | undefined;
  /** A compaction with these options (give `scan` or `compact`); `keep` as you will pass it (uniform values may differ). */
  compact?: CompactOptions | undefined;
  /** Element type of the streams (default 'float32'). */
  type?: ElementType | undefined;
  /** Components per element, 1 or 4 (default 1). */
  components?: 1 | 4 | undefined;
  /** Stream lengths to prepare for (default [4096]); lengths within a factor of two mostly share programs. */
  lengths?: readonly number[] | undefined;
  /** Also prepare for streams whose length is still on the GPU (a compaction's output), default false. */
  lengthOnGpu?: boolean | undefined;
}

/** Options of `engine.stream(data, options)`. */
export interface StreamOptions {
  /** Components per element: 1 (scalars) or 4 (e.g. particles as vec4). Default 1. */
  components?: 1 | 4 | undefined;
}

/** Options of `engine.scan(stream, options)`; every one may be left out or `undefined` (its default). */
export interface ScanOptions {
  /**
   * Default: over the whole stream, 'reduce-then-scan' (after `engine.tune()`, for one-component
   * streams, the scan it measured fastest for the size); segmented scans 'blelloch', except
   * 'recursive-doubling' for blockSize 16 (the fastest measured on an H100/H200; README "Performance").
   */
  algorithm?: ScanAlgorithm | undefined;
  /** Exclusive scan (element i gets the sum of the elements before it) instead of inclusive. Default false. */
  exclusive?: boolean | undefined;
  /** Segmented scan: restart the sum every `blockSize` elements (power of two, 16..2048). Default: one scan over the whole stream. */
  blockSize?: number | undefined;
  /** Recursive doubling: elements added per pass, 2 (the paper's), 4, 8 or 16. Default 4. */
  radix?: number | undefined;
  /**
   * A scan with segments: it restarts at every element i where the first component of
   * `segments[i]` is not zero (as a value for a float32 stream, so -0.0 is zero; as bits otherwise),
   * at any positions; element 0 always starts one. A stream of the same engine and length (elements
   * past a GPU-resident segments length start no segment). Its own passes (a reduce-then-scan over
   * groups of 8 that carries segment starts, 3·⌈log8 n⌉ − 2 draws): `algorithm`, `blockSize` and
   * `radix` do not apply.
   */
  segments?: Stream | undefined;
}

/**
 * Options of `engine.compact(stream, options)`: `keep` is required, every other one may be left
 * out or `undefined` (its default).
 */
export interface CompactOptions {
  /** Which elements to keep (see {@link KeepOption}). Required. */
  keep: KeepOption;
  /**
   * 'jumping-jack': any order (paper Sec. 4); 'horn': input order kept; 'histopyramid': input order
   * kept, a 1D HistoPyramid over the whole stream; 'bitmask': input order kept, keep flags packed 32
   * to a word (the HistoPyramid and the bitmask have no blocks: `blockSize`, `concat` and `scan` do
   * not apply); 'auto' (the default): the path `engine.tune()` measured fastest on this device for
   * the stream's size among those `order` allows, else the bitmask; with any of `blockSize`, `scan`,
   * `concat` given, the paper's block pipeline: Horn per block, or with `order: 'any'` Jumping Jack or
   * Horn per block ('hybrid'). README "Choosing an algorithm".
   */
  algorithm?: RequestedAlgorithm | undefined;
  /**
   * For 'auto': 'keep' (the default) chooses among the order-keeping paths only, so no device
   * reorders your results; 'any' may also choose Jumping Jack and the per-block hybrid. An algorithm
   * named outright runs as it is: 'jumping-jack' (which does not keep order) runs when `order` is left
   * out (its `stats.order` is 'any') and is refused with `order: 'keep'` given.
   */
  order?: 'keep' | 'any' | undefined;
  /** Elements per block of the block algorithms: power of two, 16..2048. Default 256. Given with 'auto', selects the block pipeline. */
  blockSize?: number | undefined;
  /** Horn only: search the whole stream's prefix sum (Horn 2005: no blocks, no concatenation). */
  global?: boolean | undefined;
  /** How the compacted blocks are joined (see {@link ConcatMode}). Default 'auto', which takes 'vertex-fetch' (measured faster); 'transform-feedback' needs `engine.caps.transformFeedback`. Given with 'auto', selects the block pipeline: Horn per block, or the block hybrid with `order: 'any'`. */
  concat?: ConcatMode | 'auto' | undefined;
  /** 'values' (default): the kept elements; 'indices': their positions in the input, as a `Uint32Array` stream. */
  output?: 'values' | 'indices' | undefined;
  /** Scan used inside the blocks. Default: 'recursive-doubling' for block size 16, else 'blelloch'. Given with 'auto', selects the block pipeline: Horn per block, or the block hybrid with `order: 'any'`. */
  scan?: ScanAlgorithm | undefined;
  /** Radix of the recursive-doubling scans (see ScanOptions.radix). */
  radix?: number | undefined;
}

/**
 * Options of `engine.partition(stream, options)`: which elements go first, and whether the output
 * holds values or input positions.
 */
export interface PartitionOptions {
  /** Which elements go first (see {@link KeepOption}); the others follow. Required. */
  keep: KeepOption;
  /** 'values' (default): the elements; 'indices': their positions in the input, as a `Uint32Array` stream. */
  output?: 'values' | 'indices' | undefined;
}

/** Options of `engine.reduce(stream, options)`. */
export interface ReduceOptions {
  /** 'sum' (integers wrap mod 2^32), 'min' or 'max' (in the stream's own type). Required. */
  op: 'sum' | 'min' | 'max';
}

/** Options of `engine.argsort(keys, options)`, and of `engine.sort()` with `values`: {@link SortOptions}. */
export interface ArgsortOptions {
  /** Largest keys first (still stable; a float NaN still last). Default false. */
  descending?: boolean | undefined;
  /**
   * uint32 keys only: compare the low `bits` bits (1 to 32; every key must be below 2^bits), one
   * digit's passes per 4 bits: e.g. 16 for 16-bit depth keys halves the work. Default 32.
   */
  bits?: number | undefined;
}

/** Options of `engine.sort(keys, options)`. */
export interface SortOptions extends ArgsortOptions {
  /** A stream of the same engine and length (any type and components) moved with the keys. */
  values?: Stream | undefined;
}

/** partition()'s options, checked. */
export interface PartitionPlan {
  keep: KeepOption;
  outputIndices: boolean;
}

export function parsePartitionOptions(options: unknown, type: ElementType): PartitionPlan {
  const what = 'engine.partition(stream, options)';
  const opts = optionsObject(what, options, ['keep', 'output']);
  if (options === undefined) throw new Error(`${what}: options.keep is required, e.g. { keep: 'nonzero' }; got no options`);
  const keep = parseKeepOption(opts.keep, type, 'engine.partition()');
  const output = oneOf('engine.partition(): options.output', opts.output, ['values', 'indices'] as const, 'values');
  return { keep, outputIndices: output === 'indices' };
}

/**
 * 64 MiB: fits a phone's browser tab (iOS ends tabs far below a gigabyte). With the pool's size
 * classes, a stream whose length changes every frame (300 frames of 0 to 600k elements,
 * bench/pool-probe.ts) hits 97.9 % with it, as with 512 MiB. Streams of 2^22 elements and more want
 * a larger pool (one 2^24-element R32UI target is 64 MiB): see EngineOptions.texturePoolBytes.
 */
export const DEFAULT_TEXTURE_POOL_BYTES = 64 * 2 ** 20;
export const DEFAULT_BLOCK_SIZE = 256;

/**
 * The default texture limit (EngineOptions.maxTextureSize), whatever larger limit the context
 * reports: iOS reports MAX_TEXTURE_SIZE 16384 and crashes above 4096 (three.js#27330,
 * cosmosgl/graph#203), and 4096 is the limit of many phones (KhronosGroup/WebGL#3700).
 */
export const DEFAULT_MAX_TEXTURE_SIZE = 4096;
/**
 * The smallest limit an app may ask for: WebGL2 guarantees MAX_TEXTURE_SIZE ≥ 2048 (so this costs no
 * device anything), and streams are at least MAX_BLOCK_SIZE wide so that any block fits in a row.
 */
export const MIN_MAX_TEXTURE_SIZE = MAX_BLOCK_SIZE;

/** createEngine's options, checked (the texture limit is resolved against the context in the engine). */
export interface EnginePlan {
  texturePoolBytes: number;
  debug: boolean;
  preserveState: boolean;
  /** The app's texture limit, not yet checked against the context's; undefined: the default. */
  maxTextureSize: number | undefined;
}

export function parseEngineOptions(options: unknown): EnginePlan {
  const what = 'createEngine(gl, options)';
  const opts = optionsObject(what, options, ['texturePoolBytes', 'debug', 'preserveState', 'maxTextureSize']);
  const poolBytes = opts.texturePoolBytes === undefined ? DEFAULT_TEXTURE_POOL_BYTES : opts.texturePoolBytes;
  if (typeof poolBytes !== 'number' || !(poolBytes >= 0) || !Number.isFinite(poolBytes)) {
    throw new Error(`${what}: options.texturePoolBytes must be a number of bytes >= 0; got ${describe(poolBytes)}`);
  }
  const maxTextureSize = opts.maxTextureSize;
  if (maxTextureSize !== undefined && !(typeof maxTextureSize === 'number' && Number.isInteger(maxTextureSize) && maxTextureSize >= MIN_MAX_TEXTURE_SIZE)) {
    throw new Error(`${what}: options.maxTextureSize must be an integer number of texels from ${MIN_MAX_TEXTURE_SIZE} to the context's MAX_TEXTURE_SIZE; got ${describe(maxTextureSize)}`);
  }
  return {
    texturePoolBytes: poolBytes,
    debug: booleanOption(`${what}: options.debug`, opts.debug, false),
    preserveState: booleanOption(`${what}: options.preserveState`, opts.preserveState, true),
    maxTextureSize,
  };
}

/** The engine's texture limit and the context's own, as `engine.caps` reports them. */
export interface TextureLimits {
  maxTextureSize: number;
  contextMaxTextureSize: number;
}

/**
 * The engine's texture limit: the app's choice, which may not pass the context's MAX_TEXTURE_SIZE,
 * or the default capped by the context's. Called once, at createEngine, before any GL object is made.
 */
export function resolveMaxTextureSize(requested: number | undefined, contextMaxTextureSize: number): number {
  if (requested === undefined) return Math.min(DEFAULT_MAX_TEXTURE_SIZE, contextMaxTextureSize);
  if (requested > contextMaxTextureSize) {
    const allowed = contextMaxTextureSize >= MIN_MAX_TEXTURE_SIZE ? `; allowed: ${MIN_MAX_TEXTURE_SIZE} to ${contextMaxTextureSize}` : '';
    throw new Error(`createEngine(gl, options): options.maxTextureSize ${requested} is above this context's MAX_TEXTURE_SIZE ${contextMaxTextureSize}${allowed}`);
  }
  return requested;
}

/**
 * The limit in an error's words: the engine's limit, and how to raise it where the context allows
 * (README "Device limits").
 */
export function textureLimitText({ maxTextureSize, contextMaxTextureSize }: TextureLimits): string {
  const elements = `at most ${streamLimitText(maxTextureSize)} elements fit (maxTextureSize ${maxTextureSize}`;
  if (maxTextureSize < contextMaxTextureSize) {
    return `${elements}; createEngine(gl, { maxTextureSize }) can raise it up to the context's MAX_TEXTURE_SIZE ${contextMaxTextureSize})`;
  }
  return `${elements}, the context's MAX_TEXTURE_SIZE: no longer stream fits on this device)`;
}

export interface StreamPlan {
  type: ElementType;
  format: TexelFormat;
  length: number;
}

export function parseStreamArguments(data: unknown, options: unknown, limits: TextureLimits): StreamPlan {
  const type = elementTypeOf(data);
  const opts = optionsObject('engine.stream(data, options)', options, ['components']);
  const format = formatForComponents(opts.components === undefined ? 1 : opts.components);
  if (!format) {
    throw new Error(`engine.stream(): options.components must be ${streamComponents.join(' or ')}; got ${describe(opts.components)}`);
  }
  const values = (data as StreamData).length;
  if (values % format.components !== 0) {
    throw new Error(`engine.stream(): data.length must be a multiple of options.components (${format.components}); got ${values}`);
  }
  const length = values / format.components;
  if (length > maxStreamLength(limits.maxTextureSize)) {
    throw new Error(`engine.stream(data): data is too long for this engine's textures; got ${length} elements, ${textureLimitText(limits)}`);
  }
  return { type, format, length };
}

function elementTypeOf(data: unknown): ElementType {
  if (data instanceof Float32Array) return 'float32';
  if (data instanceof Uint32Array) return 'uint32';
  if (data instanceof Int32Array) return 'int32';
  throw new Error(`engine.stream(data): data must be a Float32Array, Uint32Array or Int32Array; got ${describe(data)}`);
}

export interface ScanPlan {
  algorithm: ScanAlgorithm;
  exclusive: boolean;
  blockSize: number | undefined;
  radix: number;
  segments: Stream | undefined;
}

/** `tuned`: the whole-stream scan engine.tune() measured fastest for this size, if any. */
export function parseScanOptions(options: unknown, rowWidth: number, tuned?: ScanAlgorithm): ScanPlan {
  const opts = optionsObject('engine.scan(stream, options)', options, ['algorithm', 'exclusive', 'blockSize', 'radix', 'segments']);
  const blockSize = opts.blockSize === undefined ? undefined : blockSizeOption('engine.scan(): options.blockSize', opts.blockSize, rowWidth);
  let segments: Stream | undefined;
  if (opts.segments !== undefined) {
    if (!(opts.segments instanceof Stream)) throw new Error(`engine.scan(): options.segments must be a Stream of this engine (segments[i] != 0 starts a segment at i); got ${describe(opts.segments)}`);
    const given = ['algorithm', 'blockSize', 'radix'].filter((name) => opts[name] !== undefined);
    if (given.length > 0) throw new Error(`engine.scan(): options.${given[0]} does not apply with options.segments (a scan with segments has its own passes); leave it out`);
    segments = opts.segments;
  }
  const algorithm = oneOf('engine.scan(): options.algorithm', opts.algorithm, scanAlgorithmNames, blockSize === undefined && tuned ? tuned : defaultScan(blockSize));
  const radix = radixOption('engine.scan(): options.radix', opts.radix);
  // Checked against the algorithm asked for (or the built-in default), not a tuned choice: whether a
  // call is accepted must not depend on the profile in use.
  const asked = opts.algorithm === undefined ? defaultScan(blockSize) : algorithm;
  if (opts.radix !== undefined && asked !== 'recursive-doubling' && segments === undefined) {
    throw new Error(`engine.scan(): options.radix applies to algorithm 'recursive-doubling' only; this scan is '${asked}'${opts.algorithm === undefined ? " (the default here): add algorithm: 'recursive-doubling'" : ''}`);
  }
  return {
    segments,
    algorithm,
    exclusive: booleanOption('engine.scan(): options.exclusive', opts.exclusive, false),
    blockSize,
    radix,
  };
}

export interface CompactPlanOptions {
  keep: KeepOption;
  requested: RequestedAlgorithm;
  order: 'keep' | 'any';
  algorithm: CompactionAlgorithm;
  blockSize: number;
  concat: ConcatMode | 'auto';
  outputIndices: boolean;
  scan: ScanAlgorithm;
  radix: number;
}

/**
 * `tuned(order)`: the path engine.tune() measured fastest for this stream's size among those `order`
 * allows, if any (used by 'auto' without block options).
 */
export function parseCompactOptions(options: unknown, type: ElementType, rowWidth: number, transformFeedback: boolean, tuned?: (order: 'keep' | 'any') => CompactionAlgorithm | undefined): CompactPlanOptions {
  const opts = optionsObject('engine.compact(stream, options)', options, ['keep', 'algorithm', 'order', 'blockSize', 'global', 'concat', 'output', 'scan', 'radix']);
  if (options === undefined) throw new Error("engine.compact(stream, options): options.keep is required, e.g. { keep: 'nonzero' }; got no options");
  const keep = parseKeepOption(opts.keep, type);
  const requested = oneOf('engine.compact(): options.algorithm', opts.algorithm, requestedAlgorithmNames, 'auto');
  const blockSize = blockSizeOption('engine.compact(): options.blockSize', opts.blockSize === undefined ? DEFAULT_BLOCK_SIZE : opts.blockSize, rowWidth);
  const concat = oneOf('engine.compact(): options.concat', opts.concat, [...concatModes, 'auto'] as const, 'auto');
  const output = oneOf('engine.compact(): options.output', opts.output, ['values', 'indices'] as const, 'values');
  const scan = oneOf('engine.compact(): options.scan', opts.scan, scanAlgorithmNames, defaultScan(blockSize));
  const radix = radixOption('engine.compact(): options.radix', opts.radix);
  const global = booleanOption('engine.compact(): options.global', opts.global, false);
  if (global && requested !== 'horn') {
    throw new Error(`engine.compact(): options.global applies to algorithm 'horn' only; got algorithm ${opts.algorithm === undefined ? "'auto' (the default): add algorithm: 'horn'" : describe(opts.algorithm)}`);
  }
  if (concat === 'transform-feedback' && !transformFeedback) {
    throw new Error("engine.compact(): options.concat 'transform-feedback' is not available: this context's transform feedback failed the start-up probe (engine.caps.transformFeedback is false); use 'vertex-fetch' or 'auto'");
  }
  const order = oneOf('engine.compact(): options.order', opts.order, ['keep', 'any'] as const, 'keep');
  if (opts.order === 'keep' && requested !== 'auto' && !compactionAlgorithmInfo[requested].keepsOrder) {
    throw new Error(`engine.compact(): algorithm '${requested}' does not keep the input's order, but options.order is 'keep'; use order: 'any', or an order-keeping algorithm ('bitmask', 'horn', 'histopyramid')`);
  }
  const blockOptions = opts.blockSize !== undefined || opts.scan !== undefined || opts.concat !== undefined;
  const algorithm = compactionPath(requested, global, blockOptions, order, blockOptions ? undefined : tuned?.(order));
  // Options the path does not use are refused (a typo or a misunderstanding never passes silently).
  const path = global ? "algorithm 'horn' with global: true" : `algorithm '${algorithm}'`;
  if (!compactionAlgorithmInfo[algorithm].blocks) {
    for (const name of ['blockSize', 'concat'] as const) {
      if (opts[name] !== undefined) throw new Error(`engine.compact(): options.${name} does not apply to ${path}, which has no blocks; leave it out (or choose a block algorithm: 'horn', 'jumping-jack')`);
    }
  }
  const scans = algorithm !== 'bitmask' && algorithm !== 'histopyramid';
  if (!scans && opts.scan !== undefined) throw new Error(`engine.compact(): options.scan does not apply to ${path}, which runs its own passes; leave it out`);
  if (opts.radix !== undefined && (!scans || scan !== 'recursive-doubling')) {
    throw new Error(`engine.compact(): options.radix applies to recursive-doubling scans only; ${scans ? `this compaction scans with '${scan}' (add scan: 'recursive-doubling')` : `${path} runs no scan of that kind`}`);
  }
  return { keep, requested, order, algorithm, blockSize, concat, outputIndices: output === 'indices', scan, radix };
}

function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new Error(`${name} must be a boolean; got ${describe(value)}`);
  return value;
}

function blockSizeOption(name: string, value: unknown, rowWidth: number): number {
  if (typeof value !== 'number' || !isPowerOfTwo(value) || value < 16 || value > MAX_BLOCK_SIZE) {
    throw new Error(`${name} must be a power of two from 16 to ${MAX_BLOCK_SIZE}; got ${describe(value)}`);
  }
  if (value > rowWidth) {
    throw new Error(`${name} ${value} is larger than the stream's row width ${rowWidth}; blocks must fit in a row`);
  }
  return value;
}

function radixOption(name: string, value: unknown): number {
  if (value === undefined) return DEFAULT_RADIX;
  if (typeof value !== 'number' || !(radices as readonly number[]).includes(value)) {
    throw new Error(`${name} must be one of ${radices.join(', ')}; got ${describe(value)}`);
  }
  return value;
}

/** The checked form of one warmUp() call description. */
export interface WarmUpPlan {
  operation: { scan: ScanOptions } | { compact: CompactOptions };
  type: ElementType;
  components: 1 | 4;
  lengths: number[];
  lengthOnGpu: boolean;
}

export function parseWarmUpCalls(calls: unknown, limits: TextureLimits): WarmUpPlan[] {
  const what = 'engine.warmUp(calls)';
  if (!Array.isArray(calls)) throw new Error(`${what}: calls must be an array of { scan: options } or { compact: options } (with type, components, lengths, lengthOnGpu); got ${describe(calls)}`);
  return calls.map((call: unknown, i) => {
    const where = `${what}: calls[${i}]`;
    if (call === undefined) throw new Error(`${where} must be an object like { compact: { keep: 'nonzero' } }; got undefined`);
    const fields = optionsObject(where, call, ['scan', 'compact', 'type', 'components', 'lengths', 'lengthOnGpu']) as WarmUpCall;
    if ((fields.scan === undefined) === (fields.compact === undefined)) throw new Error(`${where} must give exactly one of scan (its options, {} for the defaults) or compact (its options); got ${describe(call)}`);
    const type = fields.type === undefined ? 'float32' : fields.type;
    if (!['float32', 'uint32', 'int32'].includes(type)) throw new Error(`${where}.type must be 'float32', 'uint32' or 'int32'; got ${describe(fields.type)}`);
    const components = fields.components === undefined ? 1 : fields.components;
    if (components !== 1 && components !== 4) throw new Error(`${where}.components must be 1 or 4; got ${describe(fields.components)}`);
    const lengths = fields.lengths === undefined ? [4096] : fields.lengths;
    if (!Array.isArray(lengths) || lengths.length === 0 || !lengths.every((n) => Number.isInteger(n) && n >= 1)) {
      throw new Error(`${where}.lengths must be a non-empty array of positive integers; got ${describe(fields.lengths)}`);
    }
    // Checked here, not by engine.stream() halfway through the warm-up (each call's options are checked
    // before any runs too: engine.ts#warmUp).
    const tooLong = lengths.findIndex((n) => n > maxStreamLength(limits.maxTextureSize));
    if (tooLong >= 0) throw new Error(`${where}.lengths[${tooLong}] is too long for this engine's textures; got ${lengths[tooLong]}, ${textureLimitText(limits)}`);
    const lengthOnGpu = fields.lengthOnGpu === undefined ? false : fields.lengthOnGpu;
    if (typeof lengthOnGpu !== 'boolean') throw new Error(`${where}.lengthOnGpu must be a boolean; got ${describe(fields.lengthOnGpu)}`);
    return { operation: fields.scan !== undefined ? { scan: fields.scan } : { compact: fields.compact! }, type, components, lengths: [...lengths], lengthOnGpu };
  });
}
