// The public engine: streams, scans and compactions on one WebGL2 context. Options are checked in
// options.ts, the passes live in the drivers (scan/, compact/), reads in readback.ts.
import { betweenPolls, unclampedDelay, uploadBits, uploadRows } from './adapter.js';
import { isWebGL2, probeCapabilities, type Capabilities } from './capabilities.js';
import { compactionAlgorithmInfo } from './compact/algorithm-names.js';
import { compactionDrivers } from './compact/algorithms.js';
import type { CompactionPlan } from './compact/plan.js';
import { AUTO_CONCAT } from './compact/concatenate.js';
import { keepFunction, uniqueKeepFunction, type KeepFunction, type KeepOption } from './compact/keep-function.js';
import { CompactResult, type CompactStats } from './compact/result.js';
import { copyTexel } from './copy-texel.js';
import { Gpu } from './gpu.js';
import { timeOnGpu } from './gpu-timer.js';
import { layoutFor, log2Exact, maxStreamLength } from './layout.js';
import { DEFAULT_BLOCK_SIZE, parseCompactOptions, parseEngineOptions, parsePartitionOptions, parseScanOptions, parseStreamArguments, parseWarmUpCalls, resolveMaxTextureSize, textureLimitText, type CompactOptions, type EnginePlan, type EngineOptions, type PartitionOptions, type ReduceOptions, type ScanOptions, type ArgsortOptions, type SortOptions, type StreamOptions, type WarmUpCall } from './options.js';
import { nextLinkPause, type Program } from './programs.js';
import { Readback } from './readback.js';
import type { RenderTarget } from './render-target.js';
import type { ResourceCounts } from './resources.js';
import { DEFAULT_RADIX, defaultScan, scanAlgorithms, type ScanAlgorithm, type ScanAlgorithmEntry } from './scan/algorithms.js';
import { globalScan } from './scan/global-scan.js';
import { gather } from './gather.js';
import { segmentedScan } from './scan/segmented-scan.js';
import { reduce } from './reduce.js';
import { ReduceResult } from './reduce-result.js';
import { runLengths } from './run-length.js';
import { RunLengthResult } from './run-length-result.js';
import { radixOrder, radixSort, type SortPlan } from './sort.js';
import { SortResult } from './sort-result.js';
import type { PassStats } from './stats.js';
import { assertStreamAlive, disposeStream, ownerOf, Stream, viewOf, type ElementType, type StreamData, type StreamDataOf, type StreamOwner } from './stream.js';
import { COUNT_FORMAT, formatForComponents, type TexelFormat } from './texel-format.js';
import { batchCalls, BLOCKING_SECOND_OPINION_TASKS, leastSample, QUERY_SCAN_SAMPLE_MS, QUERY_SECOND_OPINION_CALLS, blockingSampleMs, callsBlock, wallSampleMs, choiceOverDensities, compactCandidates, densityAskMargin, densitySwitches, densitySwitchMargin, dropAfterFirst, ENGINE_VERSION, choiceAtDensity, bitmaskPaddingForm, nearest, optionsForPath, parseProfile, pathsToResample, pooledSecondOpinionTime, scanCandidates, scanChoice, scanSecondOpinion, secondOpinion, secondOpinionContinues, secondOpinionSamples, secondOpinionTime, SINGLE_CALL_CLAMP_MS, sizeClass, TUNE_DATA, TUNE_DEFAULT_DENSITIES, TUNE_DEFAULT_SIZES, type BitmaskPadding, type TuneBatch, type TuneOptions, type TuningProfile } from './tuning.js';
import { tuneInWorker, type TuneWorker, type WorkerTune } from './tune-in-worker.js';
import { describe, oneOf, optionsObject } from './validate.js';

/**
 * tune() keeps the built-in default (the bitmask; the default scan for the size) unless another path
 * is faster by more than this factor in the same tune: two H200 tunes picked the HistoPyramid or the
 * bitmask at 2^11 by turns, 1.2× apart in an independent sweep (bench/results/issue-20/). Not a scan's
 * where the scans are timed by the clock (tune(): keepDefaultScanWithin).
 */
const KEEP_DEFAULT_WITHIN = 1.1;
/** Where the bitmask can write its padding (TuningProfile.bitmaskPadding), the built-in default first. */
const BITMASK_PADDINGS: readonly BitmaskPadding[] = ['output-pass', 'own-pass'];
/** tune(): the most clock readings one spin takes to see the clock move (see tune's clockTick). */
const CLOCK_SPIN_READS = 20_000;

/** warmUp() without KHR_parallel_shader_compile: the longest pause (ms) before asking a link's status. */
const WARM_UP_MAX_PAUSE_MS = 50;
/** warmUp() without KHR_parallel_shader_compile: the most pausing (ms) in one call. */
const WARM_UP_PAUSE_BUDGET_MS = 1000;
/** warmUp() without KHR_parallel_shader_compile: the first pause (ms) after the fence, before any link was timed. */
const WARM_UP_FIRST_PAUSE_MS = 0;

/** auto's paths at a counted density (undefined: the size class's choice). */
interface DensityChoice { keep: CompactStats['algorithm'] | undefined; any: CompactStats['algorithm'] | undefined }

/** What a scan cost and which path it took (`engine.lastScanStats`). */
export interface ScanStats extends PassStats {
  /** The scan algorithm that ran. */
  algorithm: ScanAlgorithm;
  /** Recursive doubling's radix; undefined for Blelloch and reduce-then-scan. */
  radix: number | undefined;
  /** The segment size of a segmented scan; undefined for a scan over the whole stream. */
  blockSize: number | undefined;
  /** Whether the scan was exclusive. */
  exclusive: boolean;
  /** Whether it was a scan with `segments` (a reduce-then-scan of its own: src/scan/segmented-scan.ts). */
  segments: boolean;
}

/**
 * algorithm 'auto' runs the per-block hybrid: Jumping Jack in blocks keeping between these
 * fractions of their elements, Horn in the others (a block keeping all needs no search). Measured
 * on an H200 at 2^24, block 256 (bench/results/probes): Horn wins below 30 % kept (the paper saw
 * its crossover at 22 % kept, Fig. 11) and, with the search drawn as lines, from about 87.5 % up.
 */
export const HYBRID_JUMPING_JACK_KEPT_FRACTIONS = { from: 0.3, to: 0.875 } as const;

/**
 * Streams, scans and compactions on one WebGL2 context; made by {@link createEngine}. Every GL
 * object it makes (streams' textures included) is freed by {@link Engine.dispose}. Methods throw an
 * Error naming the argument, what was given and what is allowed, before any GL work, and throw
 * once the engine is disposed or its context lost.
 *
 * @example
 * ```ts
 * const engine = createEngine(canvas.getContext('webgl2')!);
 * const kept = engine.compact(engine.stream(new Float32Array([0, 1.5, 0, 2])), { keep: 'nonzero' });
 * const values: Float32Array = await kept.read(); // [1.5, 2]
 * ```
 */
export class Engine {
  /** What this context can do, found by running tiny GL tests at creation. */
  readonly caps: Capabilities;
  /** Stats of the last scan (compactions report theirs on the result); undefined before the first. */
  lastScanStats: ScanStats | undefined;
  readonly #gpu: Gpu;
  readonly #reads: Readback;
  readonly #streams = new Set<Stream>();
  /** The streams' link back to the engine (kept off the public type). */
  readonly #owner: StreamOwner;
  #disposed = false;
  #contextLost = false;
  /** What engine.tune() measured (or engine.useProfile() gave); undefined: the built-in defaults. */
  #profile: TuningProfile | undefined;
  /** True while a gpuTime() call runs its `run` (between its query's begin and end). */
  #timingRun = false;
  /** Tunes running in workers (tune({ worker })): dispose() and a lost context cancel them. */
  readonly #workerTunes = new Set<WorkerTune>();
  /** The options a tune worker's engine is made with (tune({ worker })), so its calls cost what this engine's do. */
  readonly #workerEngineOptions: EngineOptions;
  /** warmUp() without KHR_parallel_shader_compile: the pause (ms) before asking a link's status, learnt. */
  #linkPause = WARM_UP_FIRST_PAUSE_MS;
  /** The profile's answer per table and stream capacity, looked up once (calls come every frame). */
  readonly #tunedFor = new Map<string, unknown>();
  /**
   * With a profile, auto's paths at the kept fraction last counted (a result's count() or read()
   * resolved), per input stream and per size class (tuning.ts choiceAtDensity): worked out when the
   * count arrives, so a call only looks them up. Only what the app reads anyway: no read is added.
   * Reset with the profile.
   */
  #atDensity = new WeakMap<Stream, DensityChoice>();
  readonly #atDensityBySize = new Map<number, DensityChoice>();
  /**
   * tune()'s own streams (and its warm-up's): where the bitmask writes their padding while it samples
   * (tuning.ts#bitmaskPaddingForm), whatever the profile in use says; an app's calls meanwhile keep it.
   */
  readonly #tunePadding = new WeakMap<Stream, BitmaskPadding>();
  readonly #canvas: EventTarget | undefined;
  readonly #onContextLost = () => {
    this.#contextLost = true;
    for (const tune of this.#workerTunes) tune.cancel(contextLostError('tune()'));
  };

  /** @internal Use createEngine(gl, options). */
  constructor(gl: WebGL2RenderingContext, options: EnginePlan) {
    if (gl.isContextLost()) throw new Error('createEngine(gl): the WebGL context is lost; create the engine after it is restored');
    // The context's limit is read once, here (a query is allowed at createEngine), and the app's
    // limit checked against it before any GL object exists.
    const contextMaxTextureSize = Number(gl.getParameter(gl.MAX_TEXTURE_SIZE));
    const maxTextureSize = resolveMaxTextureSize(options.maxTextureSize, contextMaxTextureSize);
    this.#gpu = new Gpu(gl, { poolBytes: options.texturePoolBytes, preserveState: options.preserveState, debug: false, maxTextureSize });
    this.#workerEngineOptions = { texturePoolBytes: options.texturePoolBytes, preserveState: options.preserveState, maxTextureSize };
    try {
      this.caps = this.#gpu.guard.run(() => probeCapabilities(this.#gpu, { maxTextureSize, contextMaxTextureSize }));
    } catch (error) {
      this.#gpu.dispose();
      throw error;
    }
    this.#gpu.debug = options.debug;
    gpus.set(this, this.#gpu);
    this.#reads = new Readback(this.#gpu, this.caps, (what) => this.#assertAlive(what));
    this.#owner = {
      readStream: (view, into) => this.#reads.stream(view, into),
      readLength: (view) => this.#reads.length(view),
      lengthTarget: (length, what) => this.#lengthTarget(length, what),
      releaseStream: (stream) => this.#streams.delete(stream),
    };
    const canvas = (gl as { canvas?: unknown }).canvas;
    if (canvas && typeof (canvas as EventTarget).addEventListener === 'function') {
      this.#canvas = canvas as EventTarget;
      this.#canvas.addEventListener('webglcontextlost', this.#onContextLost);
    }
  }

  /** Live GL objects made by this engine, per kind (for leak checks). */
  get resources(): ResourceCounts {
    return this.#gpu.tracker.snapshot();
  }

  /** Whether {@link Engine.dispose} was called. */
  get isDisposed(): boolean {
    return this.#disposed;
  }

  /**
   * Uploads `data` into a new stream on the GPU (bit-exact, NaN payloads and -0 included). The
   * stream reads back as the same typed array: `Stream<Float32Array>` for a `Float32Array`, and so on.
   * @param data - The elements, `options.components` numbers each (default 1; 4 for vec4s).
   * @throws Error if `data` is not a Float32Array, Uint32Array or Int32Array, its length is not a
   * multiple of `components`, or it has more elements than the engine's textures hold
   * (`caps.maxTextureSize`², 4096² by default: see {@link EngineOptions.maxTextureSize}).
   * @example
   * ```ts
   * const positions = engine.stream(new Float32Array(4 * 1000), { components: 4 }); // Stream<Float32Array>
   * ```
   */
  stream<T extends StreamData>(data: T, options?: StreamOptions): Stream<StreamDataOf<T>> {
    this.#assertAlive('stream()');
    const { type, format, length } = parseStreamArguments(data, options, this.caps);
    const layout = layoutFor(length, this.caps.maxTextureSize);
    const bits = new Uint32Array(layout.capacity * format.components); // zero padding
    bits.set(new Uint32Array(data.buffer, data.byteOffset, data.length));
    return this.#newStream<StreamDataOf<T>>(type, format, length, (target) => uploadBits(this.#gpu, this.caps.uploadPath, target, bits));
  }

  /** A stream of `length` elements in a new target, filled by `fill` (none: its texels are whatever the target held). */
  #newStream<T extends StreamData>(type: ElementType, format: TexelFormat, length: number, fill?: (target: RenderTarget) => void): Stream<T> {
    const layout = layoutFor(length, this.caps.maxTextureSize);
    const target = this.#gpu.guard.run(() => this.#gpu.scope((scope) => {
      const target = scope.target(layout.width, layout.height, format);
      fill?.(target);
      return scope.keep(target);
    }));
    return this.#adopt(new Stream<T>({ owner: this.#owner, target, format, length, lengthTarget: undefined }, layout, type));
  }

  /**
   * All-prefix-sums of `stream` (inclusive by default; `exclusive: true` for exclusive), as a new
   * stream of the same type and layout; sums wrap around in the stream's own type (float32 sums
   * round as the GPU adds them). `blockSize` makes it a segmented scan. A 4-component stream scans
   * each component on its own (four prefix sums side by side: `[a0, b0, c0, d0, a1, …]` gives
   * `[a0, b0, c0, d0, a0 + a1, …]`).
   * @throws Error for options outside those allowed (see {@link ScanOptions}), or a stream that is
   * disposed or belongs to another engine.
   * @example
   * ```ts
   * const offsets = engine.scan(engine.stream(new Uint32Array([3, 1, 4])), { exclusive: true });
   * await offsets.read(); // Uint32Array [0, 3, 4]
   * ```
   */
  scan<T extends StreamData>(stream: Stream<T>, options?: ScanOptions): Stream<T> {
    this.#assertAlive('scan()');
    this.#assertOwnStream('engine.scan(stream)', stream);
    // The tune times scans of one-component streams: its choice is for those (four-component ones,
    // whose forms differ on one attachment, take the default).
    const tunedScan = this.#profile && stream.components === 1 ? this.#tuned('scan', stream.layout.capacity) : undefined;
    const plan = parseScanOptions(options, stream.layout.width, tunedScan);
    if (plan.segments) return this.#segmentedScan(stream, plan.segments, plan.exclusive);
    const view = viewOf(stream);
    const { layout } = stream;
    const input = { texture: view.target.texture, width: layout.width, height: layout.height, format: view.format };
    const { blockScan, wholeStream } = scanAlgorithms[plan.algorithm] as ScanAlgorithmEntry;
    const common = { floatValues: stream.type === 'float32', exclusive: plan.exclusive, radix: plan.radix };
    return this.#gpu.guard.run(() => this.#gpu.scope((scope) => {
      // A scan of a stream whose length is still on the GPU keeps its own copy of that length.
      const lengthTarget = view.length === undefined ? scope.own(copyTexel(this.#gpu, view.lengthTarget!, 0, 0)) : undefined;
      const { value: result, stats } = this.#gpu.measure(() =>
        plan.blockSize === undefined
          ? wholeStream ? wholeStream(this.#gpu, input, common) : globalScan(this.#gpu, input, { ...common, blockScan, maxTextureSize: this.caps.maxTextureSize })
          : blockScan(this.#gpu, input, { ...common, blockLog2: log2Exact(plan.blockSize) }),
      );
      const usesRadix = scanAlgorithms[plan.algorithm].usesRadix;
      this.lastScanStats = { ...stats, algorithm: plan.algorithm, radix: usesRadix ? plan.radix : undefined, blockSize: plan.blockSize, exclusive: plan.exclusive, segments: false };
      if (lengthTarget) scope.keep(lengthTarget);
      return this.#adopt(new Stream<T>({ owner: this.#owner, target: result, format: view.format, length: view.length, lengthTarget }, layout, stream.type));
    }));
  }

  /**
   * Keeps the elements `options.keep` accepts; the result stays on the GPU (count included), so
   * nothing waits until you read it. The result reads back in the input's type, or as a
   * `Uint32Array` of input positions with `output: 'indices'`.
   * @throws Error if `options.keep` is missing or invalid, another option is outside those allowed
   * (see {@link CompactOptions}), a `keep.glsl` snippet does not compile (the error quotes its
   * lines), or the stream is disposed or belongs to another engine.
   * @example
   * ```ts
   * const result = engine.compact(engine.stream(new Float32Array([0.2, 0.9, 0.7])), { keep: { greaterThan: 0.5 } });
   * await result.count(); // 2
   * const where: Uint32Array = await engine.compact(stream, { keep: 'nonzero', output: 'indices' }).read();
   * ```
   */
  compact<T extends StreamData>(stream: Stream<T>, options: CompactOptions & { output: 'indices' }): CompactResult<Uint32Array>;
  /** Keeps the elements `options.keep` accepts, as values of the input's type (see the first overload). */
  compact<T extends StreamData>(stream: Stream<T>, options: CompactOptions & { output?: 'values' | undefined }): CompactResult<T>;
  /** Keeps the elements `options.keep` accepts, as values or as indices (`options.output` not known statically). */
  compact<T extends StreamData>(stream: Stream<T>, options: CompactOptions): CompactResult<T | Uint32Array>;
  compact(stream: Stream, options: CompactOptions): CompactResult {
    this.#assertAlive('compact()');
    this.#assertOwnStream('engine.compact(stream)', stream);
    const tuned = this.#profile ? (order: 'keep' | 'any') => this.#tunedCompaction(order, stream) : undefined;
    const plan = parseCompactOptions(options, stream.type, stream.layout.width, this.caps.transformFeedback, tuned);
    this.#assertKeepInputs('engine.compact()', plan.keep, stream);
    const keep = keepFunction(plan.keep, stream.type);
    const entry = compactionAlgorithmInfo[plan.algorithm];
    const concat = plan.concat === 'auto' ? AUTO_CONCAT : plan.concat;
    const { blockSize } = plan;
    const { value, stats } = this.#gpu.guard.run(() => this.#gpu.measure(() =>
      compactionDrivers[plan.algorithm](this.#gpu, viewOf(stream), {
        keep,
        outputIndices: plan.outputIndices,
        maxTextureSize: this.caps.maxTextureSize,
        radix: plan.radix,
        blockLog2: log2Exact(blockSize),
        blockScan: scanAlgorithms[plan.scan].blockScan,
        concat,
        jumpingJackKept: {
          from: Math.ceil(HYBRID_JUMPING_JACK_KEPT_FRACTIONS.from * blockSize),
          to: Math.floor(HYBRID_JUMPING_JACK_KEPT_FRACTIONS.to * blockSize),
        },
        paddingInOutput: plan.algorithm === 'bitmask' ? this.#paddingInOutput(stream) : undefined,
      }),
    ));
    const format = plan.outputIndices ? COUNT_FORMAT : viewOf(stream).format;
    const output = this.#adopt(new Stream(
      { owner: this.#owner, target: value.output, format, length: undefined, lengthTarget: value.count },
      { ...stream.layout, length: stream.layout.capacity },
      plan.outputIndices ? 'uint32' : stream.type,
    ));
    const scans = entry.blocks || plan.algorithm === 'horn-global';
    const compactStats: CompactStats = {
      ...stats,
      algorithm: plan.algorithm,
      requestedAlgorithm: plan.requested,
      order: entry.keepsOrder ? 'keep' : 'any',
      concat: entry.blocks ? concat : 'none',
      blockSize: entry.blocks ? blockSize : undefined,
      scan: scans ? plan.scan : undefined,
      radix: scans && plan.scan === 'recursive-doubling' ? plan.radix : undefined,
      output: plan.outputIndices ? 'indices' : 'values',
    };
    // When the app reads the count, the density of this stream (and size class) is known for the next auto.
    const sourceLength = viewOf(stream).length;
    const onCount = sourceLength ? (count: number) => {
      const profile = this.#profile;
      if (!profile) return;
      const { capacity } = stream.layout;
      const at = (order: 'keep' | 'any') => choiceAtDensity(profile, order, capacity, count / sourceLength, densitySwitchMargin(profile.sampling));
      const choice = { keep: at('keep'), any: at('any') };
      this.#atDensity.set(stream, choice);
      this.#atDensityBySize.set(sizeClass(capacity), choice);
    } : undefined;
    return new CompactResult(output, compactStats, undefined, onCount);
  }

  /**
   * Splits `stream` in two, stably: the elements `options.keep` accepts first, in input order, then
   * the others, in input order (unlike CUB's DevicePartition, whose rejected part is reversed). The
   * result's stream holds all of the input's elements (its length is the input's); `await
   * result.count()` is the number kept, i.e. where the rejected part starts. Particle systems keep
   * their dead slots this way: the slots past the count are free for reuse. One keep pass, one scan
   * and one search pass (Horn's search over the whole stream, `stats.algorithm` 'horn-global').
   * @throws Error for the same `keep` problems as {@link Engine.compact}, an option other than
   * `keep` and `output`, or a stream that is disposed or belongs to another engine.
   * @example
   * ```ts
   * const split = engine.partition(engine.stream(new Uint32Array([5, 0, 7, 0, 9])), { keep: 'nonzero' });
   * await split.read();  // Uint32Array [5, 7, 9, 0, 0]
   * await split.count(); // 3
   * ```
   */
  partition<T extends StreamData>(stream: Stream<T>, options: PartitionOptions & { output: 'indices' }): CompactResult<Uint32Array>;
  /** Partitions the elements as values of the input's type (see the first overload). */
  partition<T extends StreamData>(stream: Stream<T>, options: PartitionOptions & { output?: 'values' | undefined }): CompactResult<T>;
  /** Partitions the elements, as values or as indices (`options.output` not known statically). */
  partition<T extends StreamData>(stream: Stream<T>, options: PartitionOptions): CompactResult<T | Uint32Array>;
  partition(stream: Stream, options: PartitionOptions): CompactResult {
    this.#assertAlive('partition()');
    this.#assertOwnStream('engine.partition(stream)', stream);
    const plan = parsePartitionOptions(options, stream.type);
    this.#assertKeepInputs('engine.partition()', plan.keep, stream);
    const keep = keepFunction(plan.keep, stream.type);
    const view = viewOf(stream);
    const format = plan.outputIndices ? COUNT_FORMAT : view.format;
    const { output, count, lengthTarget, stats } = this.#gpu.guard.run(() => this.#gpu.scope((scope) => {
      // An input whose length is still on the GPU: the output keeps its own copy of that length.
      const lengthTarget = view.length === undefined ? scope.own(copyTexel(this.#gpu, view.lengthTarget!, 0, 0)) : undefined;
      const { value, stats } = this.#gpu.measure(() => compactionDrivers['horn-global'](this.#gpu, view, { ...this.#defaultPlan(keep, plan.outputIndices), partition: true }));
      if (lengthTarget) scope.keep(lengthTarget);
      return { output: value.output, count: value.count, lengthTarget, stats };
    }));
    // The kept count lives and dies with the stream (disposing either the result or its stream frees it).
    const elements = this.#adopt(new Stream({ owner: this.#owner, target: output, format, length: view.length, lengthTarget, companions: [count] }, stream.layout, plan.outputIndices ? 'uint32' : stream.type));
    const keptCount = { read: () => this.#owner.readLength({ ...viewOf(elements), length: undefined, lengthTarget: count }), texture: count.texture };
    return new CompactResult(elements, {
      ...stats,
      algorithm: 'horn-global',
      requestedAlgorithm: 'horn',
      order: 'keep',
      concat: 'none',
      blockSize: undefined,
      scan: 'blelloch',
      radix: undefined,
      output: plan.outputIndices ? 'indices' : 'values',
    }, keptCount);
  }

  /**
   * A new stream whose element j is `source`'s element `indices[j]` (all components, bit for bit),
   * for every j below the indices' length; an index at or past the source's length reads as zeros.
   * It has the source's type and components and the indices' length, also while that length is on
   * the GPU (a compaction's output): nothing is read back. With `compact(..., { output: 'indices' })`
   * one predicate selects any number of attribute streams (positions, colours, matrices as 4 vec4
   * streams, ...). One pass. Dispose the returned stream when done.
   * @throws Error if `indices` is not a 1-component uint32 stream, or either stream is disposed or
   * belongs to another engine.
   * @example
   * ```ts
   * const visible = engine.compact(spheres, { keep: { glsl: 'return value.w > 0.0;' }, output: 'indices' });
   * const colors = engine.gather(allColors, visible.stream); // the colours of the kept spheres
   * ```
   */
  gather<T extends StreamData>(source: Stream<T>, indices: Stream<Uint32Array>): Stream<T> {
    this.#assertAlive('gather()');
    this.#assertOwnStream('engine.gather(source)', source);
    this.#assertOwnStream('engine.gather(source, indices)', indices);
    if (indices.type !== 'uint32' || indices.components !== 1) {
      throw new Error(`engine.gather(source, indices): indices must be a stream of uint32 scalars (e.g. a compaction's output with output: 'indices'); got a ${indices.type} stream of ${indices.components} components`);
    }
    const sourceView = viewOf(source);
    const indicesView = viewOf(indices);
    return this.#gpu.guard.run(() => this.#gpu.scope((scope) => {
      const lengthTarget = indicesView.length === undefined ? scope.own(copyTexel(this.#gpu, indicesView.lengthTarget!, 0, 0)) : undefined;
      const output = gather(this.#gpu, sourceView, indicesView);
      if (lengthTarget) scope.keep(lengthTarget);
      return this.#adopt(new Stream<T>({ owner: this.#owner, target: output, format: sourceView.format, length: indicesView.length, lengthTarget }, indices.layout, source.type));
    }));
  }

  /**
   * Keeps the first element of every run of consecutive elements that are equal bit for bit (all
   * components), in input order, as a compaction does (Thrust's `unique`): `[1, 1, 2, 2, 2, 1]` →
   * `[1, 2, 1]`. Sorting first (`engine.sort()`) makes the elements distinct. NaNs with the same bits
   * are equal here; -0 and +0 are not.
   * @throws Error if the stream is disposed or belongs to another engine.
   * @example
   * ```ts
   * const distinct = engine.unique(engine.stream(new Uint32Array([1, 1, 2, 2, 2, 1])));
   * await distinct.read(); // Uint32Array [1, 2, 1]
   * ```
   */
  unique<T extends StreamData>(stream: Stream<T>): CompactResult<T> {
    this.#assertAlive('unique()');
    this.#assertOwnStream('engine.unique(stream)', stream);
    return this.#runStarts(stream, false) as CompactResult<T>;
  }

  /**
   * Run-length encoding: for every run of consecutive elements equal bit for bit (all components),
   * its value and its length (CUB's `DeviceRunLengthEncode::Encode`): `[5, 5, 7, 5]` → values
   * `[5, 7, 5]`, counts `[2, 1, 1]`. Both stay on the GPU with the number of runs as their length;
   * `await result.count()` reads it. Three passes after the runs' starts are found (a compaction).
   * @throws Error if the stream is disposed or belongs to another engine.
   * @example
   * ```ts
   * const runs = engine.runLengthEncode(engine.stream(new Uint32Array([5, 5, 7, 5])));
   * await runs.count(); await runs.values.read(); await runs.counts.read(); // 3, [5, 7, 5], [2, 1, 1]
   * ```
   */
  runLengthEncode<T extends StreamData>(stream: Stream<T>): RunLengthResult<T> {
    this.#assertAlive('runLengthEncode()');
    this.#assertOwnStream('engine.runLengthEncode(stream)', stream);
    const starts = this.#runStarts(stream, true);
    try {
      const values = this.gather(stream, starts.stream as Stream<Uint32Array>);
      const startsView = viewOf(starts.stream);
      try {
        const counts = this.#gpu.guard.run(() => this.#gpu.scope((scope) => {
          const lengthTarget = scope.own(copyTexel(this.#gpu, startsView.lengthTarget!, 0, 0));
          const target = runLengths(this.#gpu, viewOf(stream), startsView);
          scope.keep(lengthTarget);
          return this.#adopt(new Stream<Uint32Array>({ owner: this.#owner, target, format: COUNT_FORMAT, length: undefined, lengthTarget }, starts.stream.layout, 'uint32'));
        }));
        return new RunLengthResult(values, counts);
      } catch (error) {
        values.dispose();
        throw error;
      }
    } finally {
      starts.dispose();
    }
  }

  /** The compaction of `stream` to the first element of each run (its values, or their positions). */
  #runStarts(stream: Stream, indices: boolean): CompactResult {
    const keep = uniqueKeepFunction();
    const view = viewOf(stream);
    const { value, stats } = this.#gpu.guard.run(() => this.#gpu.measure(() =>
      compactionDrivers.bitmask(this.#gpu, view, { ...this.#defaultPlan(keep, indices), paddingInOutput: this.#paddingInOutput(stream) }),
    ));
    const format = indices ? COUNT_FORMAT : view.format;
    const output = this.#adopt(new Stream({ owner: this.#owner, target: value.output, format, length: undefined, lengthTarget: value.count }, { ...stream.layout, length: stream.layout.capacity }, indices ? 'uint32' : stream.type));
    return new CompactResult(output, {
      ...stats,
      algorithm: 'bitmask',
      requestedAlgorithm: 'bitmask',
      order: 'keep',
      concat: 'none',
      blockSize: undefined,
      scan: undefined,
      radix: undefined,
      output: indices ? 'indices' : 'values',
    });
  }

  /**
   * The sum, minimum or maximum of the stream's elements, each component on its own, as a stream of
   * one element on the GPU (`result.stream`; `await result.read()`). Integer sums wrap mod 2^32 as
   * scans do; float sums add in a fixed tree (4×4 texels per step), so they are reproducible but not
   * a left-to-right sum. Min and max compare in the stream's own type; for floats in the order of
   * `Float32Array.prototype.sort` (-0 before +0, NaN after +Infinity: max is NaN when any element is,
   * min only when all are). An empty stream reduces to 0 (and -0 for a float sum). ceil(log4(side))
   * passes: 6 for a 4096×4096 stream.
   * @throws Error if `options.op` is not 'sum', 'min' or 'max', or the stream is disposed or belongs
   * to another engine.
   * @example
   * ```ts
   * const total = engine.reduce(engine.stream(new Uint32Array([3, 1, 4])), { op: 'sum' });
   * await total.read(); // Uint32Array [8]
   * ```
   */
  reduce<T extends StreamData>(stream: Stream<T>, options: ReduceOptions): ReduceResult<T> {
    this.#assertAlive('reduce()');
    this.#assertOwnStream('engine.reduce(stream)', stream);
    const opts = optionsObject('engine.reduce(stream, options)', options, ['op']);
    if (opts.op === undefined) throw new Error("engine.reduce(stream, options): options.op is required: 'sum', 'min' or 'max'");
    const op = oneOf('engine.reduce(): options.op', opts.op, ['sum', 'min', 'max'] as const, 'sum');
    const view = viewOf(stream);
    return this.#gpu.guard.run(() => {
      const target = reduce(this.#gpu, view, op, this.caps.maxTextureSize);
      const result = this.#adopt(new Stream<T>({ owner: this.#owner, target, format: view.format, length: 1, lengthTarget: undefined }, layoutFor(1, this.caps.maxTextureSize), stream.type));
      return new ReduceResult(result, op);
    });
  }

  /**
   * Sorts `keys` (a stream of uint32, int32 or float32 scalars) on the GPU, stably: equal keys keep
   * their input order, also when `descending`. Floats sort as `Float32Array.prototype.sort` does
   * (-0 before +0, NaN last). `values` (any stream of the same length) move with their keys. An LSD
   * radix sort over 4-bit digits on exact integer textures: per digit a packing pass (the first digit
   * only where passes write 5+ attachments: the select writes the next digit's planes), a bit-mask
   * pass, a counts pass, one scan of the counts, and a select pass that gathers each output's (key,
   * position) pair (where passes write 4+ attachments; elsewhere a directory pass for large streams
   * and a move pass); then a gather of the keys and one of the values (or, for integer keys with
   * values of one component or none, where the select runs, the pairs carry the values and a copy
   * per output splits them off). 8 digits for
   * 32-bit keys, `bits / 4` rounded up with `bits`. Lengths on the GPU work too.
   * @throws Error if `keys` has 4 components, `values` is another length, `bits` is given for keys
   * that are not uint32, or a stream is disposed or belongs to another engine.
   * @example
   * ```ts
   * const depth = engine.stream(new Float32Array([0.5, -1, 0.25]));
   * const ids = engine.stream(new Uint32Array([0, 1, 2]));
   * const sorted = engine.sort(depth, { values: ids, descending: true });
   * await sorted.keys.read(); await sorted.values!.read(); // [0.5, 0.25, -1], [0, 2, 1]
   * ```
   */
  sort<K extends StreamData, V extends StreamData = StreamData>(keys: Stream<K>, options?: SortOptions & { values?: Stream<V> | undefined }): SortResult<K, V> {
    this.#assertAlive('sort()');
    this.#assertOwnStream('engine.sort(keys)', keys);
    const opts = optionsObject('engine.sort(keys, options)', options, ['values', 'descending', 'bits']);
    const plan = this.#sortPlan('sort', keys, opts);
    const values = opts.values;
    if (values !== undefined) {
      this.#assertOwnStream('engine.sort(): options.values', values);
      const [k, v] = [viewOf(keys).length, viewOf(values as Stream).length];
      if (k !== undefined && v !== undefined && k !== v) throw new Error(`engine.sort(): options.values has ${v} elements but the keys have ${k}; each value moves with its key, so the lengths must match`);
      if (values.layout.widthLog2 !== keys.layout.widthLog2 || values.layout.capacity < keys.layout.capacity) {
        throw new Error(`engine.sort(): options.values is laid out for another length (a ${values.layout.width}×${values.layout.height} texture, the keys' is ${keys.layout.width}×${keys.layout.height}); pass values of the keys' length`);
      }
    }
    const keysView = viewOf(keys);
    const valuesView = values === undefined ? undefined : viewOf(values as Stream);
    return this.#gpu.guard.run(() => this.#gpu.scope((scope) => {
      const sorted = radixSort(this.#gpu, keysView, valuesView, plan, this.caps.maxTextureSize);
      scope.own(sorted.keys);
      if (sorted.values) scope.own(sorted.values);
      // Each result keeps its own copy of a GPU-resident length.
      const lengthCopy = () => (keysView.length === undefined ? scope.own(copyTexel(this.#gpu, keysView.lengthTarget!, 0, 0)) : undefined);
      const keyLength = lengthCopy();
      const valueLength = sorted.values ? lengthCopy() : undefined;
      for (const target of [sorted.keys, sorted.values, keyLength, valueLength]) if (target) scope.keep(target);
      const sortedKeys = this.#adopt(new Stream<K>({ owner: this.#owner, target: sorted.keys, format: keysView.format, length: keysView.length, lengthTarget: keyLength }, keys.layout, keys.type));
      const sortedValues = sorted.values && valuesView
        ? this.#adopt(new Stream<V>({ owner: this.#owner, target: sorted.values, format: valuesView.format, length: keysView.length, lengthTarget: valueLength }, keys.layout, valuesView.type))
        : undefined;
      return new SortResult<K, V>(sortedKeys, sortedValues);
    }));
  }

  /**
   * The order that sorts `keys` (uint32, int32 or float32 scalars), stably: element j of the result is
   * the input position of the key that `engine.sort(keys, options)` places at j (equal keys keep their
   * input order, also when `descending`; floats in the order of `Float32Array.prototype.sort`). What
   * a splat viewer or a sorted instance list draws through, without an index stream to move: the same
   * digit passes as `engine.sort()`, then one copy pass (where passes write 4+ attachments) or none,
   * instead of a gather of the keys and one of the values. Lengths on the GPU work too.
   * @throws Error if `keys` has several components, `bits` is given for keys that are not uint32,
   * `descending` is not a boolean, an option is unknown (`values` included: use `engine.sort()`), or
   * `keys` is disposed or belongs to another engine.
   * @example
   * ```ts
   * const depth = engine.stream(new Float32Array([0.5, -1, 0.25]));
   * const order = engine.argsort(depth, { descending: true });
   * await order.read(); // Uint32Array [0, 2, 1]
   * ```
   */
  argsort(keys: Stream, options?: ArgsortOptions): Stream<Uint32Array> {
    this.#assertAlive('argsort()');
    this.#assertOwnStream('engine.argsort(keys)', keys);
    const opts = optionsObject('engine.argsort(keys, options)', options, ['descending', 'bits']);
    const plan = this.#sortPlan('argsort', keys, opts);
    const keysView = viewOf(keys);
    return this.#gpu.guard.run(() => this.#gpu.scope((scope) => {
      const order = scope.own(radixOrder(this.#gpu, keysView, plan, this.caps.maxTextureSize));
      // The result keeps its own copy of a GPU-resident length.
      const lengthTarget = keysView.length === undefined ? scope.own(copyTexel(this.#gpu, keysView.lengthTarget!, 0, 0)) : undefined;
      scope.keep(order);
      if (lengthTarget) scope.keep(lengthTarget);
      return this.#adopt(new Stream<Uint32Array>({ owner: this.#owner, target: order, format: COUNT_FORMAT, length: keysView.length, lengthTarget }, keys.layout, 'uint32'));
    }));
  }

  /** sort() and argsort(): the keys' shape and the options they share, checked. */
  #sortPlan(method: 'sort' | 'argsort', keys: Stream, opts: { descending?: unknown; bits?: unknown }): SortPlan {
    if (keys.components !== 1) throw new Error(`engine.${method}(keys): keys must be a stream of scalars (1 component); got ${keys.components} components. Sort by one of them${method === 'sort' ? ' and move the elements as values' : ''}`);
    if (opts.descending !== undefined && typeof opts.descending !== 'boolean') throw new Error(`engine.${method}(): options.descending must be a boolean; got ${describe(opts.descending)}`);
    let bits = 32;
    if (opts.bits !== undefined) {
      if (keys.type !== 'uint32') throw new Error(`engine.${method}(): options.bits applies to uint32 keys only (the keys are ${keys.type}, whose order needs every bit)`);
      if (typeof opts.bits !== 'number' || !Number.isInteger(opts.bits) || opts.bits < 1 || opts.bits > 32) throw new Error(`engine.${method}(): options.bits must be an integer from 1 to 32; got ${describe(opts.bits)}`);
      bits = opts.bits;
    }
    return { descending: opts.descending === true, bits };
  }

  /**
   * Resolves once the GPU has finished all work submitted so far: gl.finish() (which blocks in
   * headless-gl), then a one-texel readback through the context's read path (which in a browser
   * waits on a fence). For timing; results need no sync, reading them waits by itself. Note that
   * `result.count()` alone waits only for the passes the count depends on.
   */
  async finish(): Promise<void> {
    this.#assertAlive('finish()');
    this.#gpu.gl.finish();
    const probe = this.#gpu.guard.run(() => this.#gpu.target(1, 1));
    try {
      await this.#reads.texels(probe, 1);
    } finally {
      probe.free();
    }
  }

  /**
   * GPU time of the work `run` submits, in milliseconds, from a TIME_ELAPSED timer query
   * (EXT_disjoint_timer_query_webgl2), polled between tasks; undefined where the context has no
   * timer (engine.caps.timerQuery false, e.g. headless-gl) or the measurement was disjoint.
   * @throws Error (the promise rejects) if `run` is not a function, returns a promise (only what it
   * submits before returning would be timed), or calls gpuTime() itself (timer queries do not nest).
   */
  async gpuTime(run: () => void): Promise<number | undefined> {
    this.#assertAlive('gpuTime()');
    if (typeof run !== 'function') throw new Error(`engine.gpuTime(run): run must be a function that submits the GPU work to time; got ${describe(run)}`);
    // Timer queries do not nest: a call inside run would begin a query while run's is active (a GL
    // error) and end run's. Calls while another's result is awaited are fine (its query has ended).
    if (this.#timingRun) throw new Error('engine.gpuTime(): already timing: called inside another gpuTime call\'s run, whose query it would end (timer queries do not nest); time the outer work only');
    const timed = () => {
      this.#timingRun = true;
      try {
        const value: unknown = (run as () => unknown)();
        if (typeof (value as { then?: unknown } | null)?.then === 'function') {
          throw new Error('engine.gpuTime(run): run returned a promise; only what it submits before it returns is timed, so run must be synchronous (await your data first, then time the calls)');
        }
      } finally {
        this.#timingRun = false;
      }
    };
    return timeOnGpu(this.#gpu, this.caps.timerQuery, timed, () => this.#assertAlive('gpuTime()'));
  }

  /**
   * Compiles the programs of the calls you will make, off your frames: each call is run once, with
   * its draws skipped and nothing uploaded, to learn which programs it needs; their compile and
   * link are issued together and (with KHR_parallel_shader_compile; not on SwiftShader or headless-gl) done by
   * the driver in the background, while this waits between tasks. A path's first real call then
   * compiles nothing. Without it, a path's first call compiles synchronously (Chromium: ~100 ms), and
   * in a browser this waits (between tasks) for a fence issued after the links, then asks each link's
   * status in its own task, after a pause as long as the last questions still waited (Firefox had
   * linked by the fence; Chromium + SwiftShader links on other threads, and its questions still
   * waited up to 11 ms); headless-gl links inside linkProgram and is asked at once.
   * Calls it does not cover still work: they compile on first use.
   * @throws Error (the promise rejects) for a malformed description, options a call would refuse, or a
   * `keep.glsl` snippet that does not compile (the same message the call would give).
   * @example
   * ```ts
   * await engine.warmUp([
   *   { compact: { keep: { glsl: 'return value.w > 0.0;' } }, components: 4, lengths: [100_000] },
   *   { scan: { exclusive: true }, type: 'uint32' },
   * ]);
   * ```
   */
  async warmUp(calls: readonly WarmUpCall[]): Promise<void> {
    return this.#warmUp(calls, 'warmUp()');
  }

  /** warmUp() for `caller` (tune() warms up each size before timing it), named in its errors. */
  async #warmUp(calls: readonly WarmUpCall[], caller: 'warmUp()' | 'tune()', padding?: BitmaskPadding): Promise<void> {
    this.#assertAlive(caller);
    const plans = parseWarmUpCalls(calls, this.caps);
    // Every call's options are checked before the first one runs: a bad one found halfway had left
    // the calls before it compiled and a texture taken. (What only a stream can tell, e.g. keep.flags
    // of another length, still throws when its call runs.)
    plans.forEach((plan, i) => {
      for (const length of plan.lengths) {
        const { width } = layoutFor(length, this.caps.maxTextureSize);
        try {
          if ('scan' in plan.operation) parseScanOptions(plan.operation.scan, width);
          else parseCompactOptions(plan.operation.compact, plan.type, width, this.caps.transformFeedback);
        } catch (error) {
          throw new Error(`engine.warmUp(calls): calls[${i}] (length ${length}): ${(error as Error).message}`);
        }
      }
    });
    const gpu = this.#gpu;
    const linking = new Set<Program>();
    for (const plan of plans) {
      for (const length of plan.lengths) {
        // One described call per task, warming only inside it: the app's own calls between two
        // tasks draw as usual. The compiles and links are issued here; their status is asked below.
        gpu.warming = linking;
        try {
          // Its texels are never read (a warming call draws nothing), so nothing is uploaded (where
          // uploads of 2^18 elements took tasks of 4.5-8.1 ms of CPU in Chromium; docs/performance.md).
          const input = this.#newStream(plan.type, formatForComponents(plan.components)!, length);
          if (padding !== undefined) this.#tunePadding.set(input, padding);
          const owned: Array<{ dispose(): void }> = [input];
          try {
            let stream: Stream = input;
            if (plan.lengthOnGpu) {
              const ones = this.compact(input, { keep: { glsl: 'return true;' }, algorithm: 'bitmask' });
              owned.push(ones);
              stream = ones.stream;
            }
            owned.push('scan' in plan.operation ? this.scan(stream, plan.operation.scan) : this.compact(stream, plan.operation.compact));
          } finally {
            for (const object of owned.reverse()) object.dispose();
          }
        } finally {
          gpu.warming = undefined;
        }
        await new Promise((resolve) => setTimeout(resolve, 0));
        this.#assertAlive(caller);
      }
    }
    // Ask each link's status once, each in a task of its own. With KHR_parallel_shader_compile, after
    // the driver says the link is done (no wait left by then). Without it nothing tells when a link is
    // done, and the question waits for it: in a browser the GL runs in another process, which links in
    // order behind all that was issued before, so first a fence issued after the links is waited for
    // between tasks (Firefox ESR + llvmpipe: then no question was among the tune's longest stretches,
    // where before questions had waited 13-18 ms). Chromium + SwiftShader: with the fence the longest
    // question waited 11.2 / 8.3 ms (before, the first: 63.7 / 87.6; a pinned core:
    // bench/tuned-sweep-browser.mjs --pin --chrome-trace), but ANGLE links on threads of its own, which
    // the fence does not wait for, and the others still waited 1.8-8.0 ms; so there a pause between tasks as long as the last
    // questions still waited lets the links finish before they are asked (programs.ts
    // nextLinkPause), learnt across calls (a tune warms up once per size), at most
    // WARM_UP_PAUSE_BUDGET_MS per call (an app's frames in the queue make every question wait, and
    // no pause helps then). headless-gl (no asynchronous fence: caps.asyncReadback) links inside
    // linkProgram: nothing to wait for.
    const paced = !gpu.programs.parallel && this.caps.asyncReadback;
    let paused = 0;
    if (paced && linking.size > 0) await this.#gpuDone(caller);
    for (const program of linking) {
      // Not for a program ready already or evicted (a warm-up of more programs than the cache holds:
      // a deleted program's completion status never comes).
      for (let attempt = 0; gpu.programs.waiting(program) && !gpu.programs.linked(program); attempt++) {
        await betweenPolls(attempt);
        this.#assertAlive(caller);
      }
      if (!gpu.programs.waiting(program)) continue;
      // Past the budget no pause, and nothing learnt from questions asked without one.
      const budgeted = paced && paused < WARM_UP_PAUSE_BUDGET_MS;
      const pause = budgeted ? Math.min(this.#linkPause, WARM_UP_PAUSE_BUDGET_MS - paused) : 0;
      if (pause >= 1) {
        // A wait for links on other threads: unclamped (a nested timer would sleep 4 ms at least),
        // and counted as slept.
        const start = performance.now();
        await unclampedDelay(pause);
        paused += performance.now() - start;
        this.#assertAlive(caller);
        if (!gpu.programs.waiting(program)) continue;
      }
      const waited = gpu.guard.run(() => gpu.programs.finish(program));
      if (budgeted) this.#linkPause = nextLinkPause(this.#linkPause, waited, WARM_UP_MAX_PAUSE_MS);
      await new Promise((resolve) => setTimeout(resolve, 0));
      this.#assertAlive(caller);
    }
  }

  /**
   * Reads the context's state again (blocking queries). The engine knows the state without asking
   * (its interceptors see every state change made through the context's methods); call this after GL
   * calls it could not see: through method references taken before createEngine, or through
   * `WebGL2RenderingContext.prototype` directly.
   */
  syncState(): void {
    this.#assertAlive('syncState()');
    this.#gpu.state.sync();
  }

  /**
   * Measures every compaction path and scan on this context, at `options.sizes` and (compactions)
   * `options.densities`, and from then on 'auto' and the default whole-stream scan (of one-component
   * streams, the kind it times) take the fastest for the nearest measured size (so tune the sizes the
   * app uses: on an H100 a choice made on small, host-bound calls was 1.1-1.5× off 4-16× larger and
   * 2-3× off 64× larger): among the
   * order-keeping paths by default, among all with
   * `order: 'any'`. A compaction's density is unknown before it runs, so 'auto' takes the path with the
   * smallest worst ratio over the tuned densities until the app reads a count (`result.count()` or
   * `read()`) of the same stream or size class; from then on, where that path was more than 1.15×
   * slower than another at the tuned density nearest the last one counted (1.05× where the browser's
   * calls block, WebKitGTK: tuning.ts#densitySwitchMargin),
   * it takes the faster one
   * (no read is added for this). A size leaves the built-in default only on a second opinion: the
   * default and the paths chosen over it are sampled again; so does a tuned density where a call would
   * leave the size's choice (the choice and the faster path, at that density; by timer query wherever
   * the fastest other path reads less than 1.11× the choice's time, where calls block from a 1.05× lead:
   * tuning.ts#densityAskMargin).
   * Through gl.finish() a
   * second opinion's samples are calls back to back for 6 ms (at most 64, within 2^20 elements; as many
   * for every path at a point; two per path, the lower counting), not the
   * one or two calls of a first opinion, mostly a round trip at small sizes on a fast GPU (tuning.ts#TUNE_SAMPLING);
   * by timer query 4 queued calls a sample for compactions, not a lone call's latency (tuning.ts#QUERY_SECOND_OPINION_CALLS);
   * where calls block, four tasks a sample (tuning.ts#BLOCKING_SECOND_OPINION_TASKS). By timer query a scan's
   * samples, first and second opinions alike, are calls back to back for up to 16 ms (at most 16) timed by
   * the clock, by fence (tuning.ts#QUERY_SCAN_SAMPLE_MS); there a scan's second opinion is asked also where the
   * default is the choice, and then of every scan whose first opinion read within 1.15x of the choice's
   * (tuning.ts#scanSecondOpinion), each asked scan's time becomes the middle of all its samples
   * (tuning.ts#pooledSecondOpinionTime), and the fastest scan is taken, the default kept by no margin. Per size it also
   * times where the bitmask writes its output's padding (by its output pass, or by a pass of its own:
   * on CPU renderers 1.2-2.3x faster at 5 % kept from 2^16), at the lowest density, and every bitmask call on a
   * stream of that size then takes the faster (TuningProfile.bitmaskPadding). Before (or without) tuning they
   * take the built-in defaults. It waits for the GPU
   * only through fences polled between tasks (timer queries where the context has them), one sample
   * of calls per task, so an app's frames go on meanwhile; where the context's calls block the thread
   * (WebKitGTK) a sample holds at most 12 ms of calls, each reckoned until its work is done; headless-gl waits
   * with gl.finish(). With `options.worker` (a Web Worker whose script calls serveTuning()) the
   * samples run in the worker on a WebGL2 context of its own, and this thread only takes the profile
   * (src/tune-in-worker.ts). Results never change
   * (every path is exact); order changes only where `order: 'any'` allows it.
   * @returns The profile (JSON): keep it (e.g. localStorage) and give it back with useProfile().
   * @example
   * ```ts
   * const profile = await engine.tune({ sizes: [10_000, 100_000] });
   * localStorage.setItem('glcompact-profile', JSON.stringify(profile));
   * ```
   */
  async tune(options: TuneOptions = {}): Promise<TuningProfile> {
    this.#assertAlive('tune()');
    const what = 'engine.tune(options)';
    optionsObject(what, options, ['sizes', 'densities', 'repeats', 'worker', 'onProgress']);
    const asked = options.sizes ?? TUNE_DEFAULT_SIZES;
    const densities = options.densities ?? TUNE_DEFAULT_DENSITIES;
    const repeats = options.repeats ?? 3;
    const limit = maxStreamLength(this.caps.maxTextureSize);
    if (!Array.isArray(asked) || asked.length === 0 || !asked.every((n) => Number.isInteger(n) && n >= 1 && n <= limit)) {
      throw new Error(`${what}: sizes must be a non-empty array of stream lengths from 1 to ${limit}; got ${describe(asked)}; ${textureLimitText(this.caps)}`);
    }
    // One size per size class (log2 of a stream's texel capacity, rounded: auto keeps one choice per class), the
    // largest asked: two sizes of one class were both tuned and the later's timings replaced the
    // earlier's, its tune time spent for nothing.
    const largestOfClass = new Map<number, number>();
    for (const n of asked) {
      const key = sizeClass(layoutFor(n, this.caps.maxTextureSize).capacity);
      largestOfClass.set(key, Math.max(n, largestOfClass.get(key) ?? 0));
    }
    const sizes = [...largestOfClass.values()]; // in the order asked
    if (!Array.isArray(densities) || densities.length === 0 || !densities.every((d) => typeof d === 'number' && d >= 0 && d <= 1)) {
      throw new Error(`${what}: densities must be a non-empty array of kept fractions from 0 to 1; got ${describe(densities)}`);
    }
    if (!Number.isInteger(repeats) || repeats < 1 || repeats > 50) throw new Error(`${what}: repeats must be an integer from 1 to 50; got ${describe(repeats)}`);
    const onProgress = options.onProgress;
    if (onProgress !== undefined && typeof onProgress !== 'function') throw new Error(`${what}: onProgress must be a function ({ done, total, size, density }) => void; got ${describe(onProgress)}`);
    if (options.worker !== undefined) return this.#tuneInWorker(options.worker, { sizes, densities, repeats }, onProgress);
    let done = 0;
    const total = sizes.length * (densities.length + 1);
    const progress = (size: number, density: number | undefined) => onProgress?.({ done: ++done, total, size, density });
    const profile: TuningProfile = { format: 'glcompact-profile', version: ENGINE_VERSION, renderer: this.caps.renderer, measured: new Date().toISOString(), compact: { keep: {}, any: {} }, scan: {}, timings: {}, work: {}, bitmaskPadding: {} };
    // Every await between tasks ends by checking the engine is still alive, so a dispose meanwhile
    // rejects naming tune(), not the call it would make next.
    const nextTask = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      this.#assertAlive('tune()');
    };
    /**
     * Without a timer query a sample waits for a fence, polled between tasks: in a browser that wait
     * alone takes ~4 ms (Chromium), ~5 (Firefox), 2-3 (WebKitGTK) after a call of almost no work
     * (4-5, 9-10 and 5 ms while the polls were clamped to 4 ms apart: adapter.ts#betweenPolls;
     * bench/tuned-sweep-browser.mjs). Measured here once and taken off every sample; otherwise a
     * batch sized from one call plus that wait is a single call, and every path times as the wait
     * (5-10 ms flat at 2^10-2^14, where the calls take 0.8-3 ms): the tune could not rank them.
     * A context without an asynchronous fence (headless-gl) waits by glFinish instead, which returns
     * as the GPU is done: no poll, no floor. Measured as a floor, it was a small call's host time
     * (H100 egl: 0.59 ms), and taken off samples of a call or two it made them 0 (a path chosen at
     * 3.3x the fastest: bench/results/issue-20/tuned-sweep-h100-egl-2026-11-26-sample-0.5-floor.txt).
     */
    const fenceTimed = !this.caps.timerQuery && this.caps.asyncReadback;
    const finishTimed = !this.caps.timerQuery && !this.caps.asyncReadback;
    // The fence's own wait, wherever there is a fence: the tune is timed by fence, or by timer query
    // with its scans timed by the clock through a fence (scanByWall below). Through glFinish, none.
    let fenceFloor = 0;
    if (this.caps.asyncReadback) {
      // Measured after a call of almost no work, not after none: WebKitGTK signals a fence with nothing
      // before it at the first check (0 ms) but one behind any call only a poll later (5-7 ms), and a
      // floor of 0 had left its samples at one call each, timed as that poll (profile.sampling).
      // Its programs linked first, off the thread where the context can (a first call links them on it).
      await this.#warmUp([{ scan: {}, type: 'uint32', lengths: [1] }], 'tune()');
      const tiny = this.stream(new Uint32Array(1));
      try {
        this.scan(tiny).dispose(); // first use: fills the pool
        await this.#gpuDone('tune()');
        const waits: number[] = [];
        for (let i = 0; i < 3; i++) {
          await nextTask();
          const start = performance.now();
          this.scan(tiny).dispose();
          await this.#gpuDone('tune()');
          waits.push(performance.now() - start);
        }
        fenceFloor = waits.sort((a, b) => a - b)[1]!;
      } finally {
        tiny.dispose();
      }
    }
    // Do the calls block the thread? Asked once, of calls with work enough for a clock that ticks by
    // whole milliseconds (WebKitGTK's and Firefox's here): a single call's issue time could not tell
    // (Firefox's 0-1 ms read as blocking against a submit-to-done of ~0 after the floor). Calls
    // that block take longer to issue with more work (the renderer does it before they return);
    // calls whose issue is merely their own host cost do not: on a fast GPU (H200, headless-gl) four
    // scans of 2^16 elements issue in about the time the GPU takes, as four of 2^12 do, and timing
    // those on the thread had chosen the scan by host cost (recursive doubling at 2^20). Where the
    // wait is glFinish (no floor, no poll) a batch is timed through it whether or not its calls
    // block, so the question is not asked: the H100's calls of 2^16 had read as blocking there, and
    // the tune, timing the HistoPyramid's issue alone, chose it at 2^18-2^20 at up to 2.2x the bitmask
    // (bench/results/issue-20/tuned-sweep-h100-egl-2026-11-26-sample-0.5-blocking.txt).
    let blockingCalls = false;
    if (fenceTimed) {
      const issueOfFour = async (n: number): Promise<{ issued: number; done: number }> => {
        // One algorithm at both sizes (a loaded profile could choose differently per size class).
        await this.#warmUp([{ scan: { algorithm: 'reduce-then-scan' }, type: 'uint32', lengths: [n] }], 'tune()');
        const probe = this.stream(new Uint32Array(n));
        try {
          const scanOnce = () => this.scan(probe, { algorithm: 'reduce-then-scan' }).dispose();
          scanOnce(); // first use: fills the pool
          await this.#gpuDone('tune()');
          await nextTask();
          const start = performance.now();
          for (let k = 0; k < 4; k++) scanOnce();
          const issued = performance.now() - start;
          await this.#gpuDone('tune()');
          return { issued, done: performance.now() - start - fenceFloor };
        } finally {
          probe.dispose();
        }
      };
      const n = Math.min(2 ** 16, Math.max(...sizes));
      const large = await issueOfFour(n);
      const small = await issueOfFour(Math.max(1, n >> 4));
      blockingCalls = callsBlock(large, small);
    }
    // The clock's least step: samples it times read at least one (tuning.ts#wallSampleMs). Three
    // spins until the clock moves, each in a task of its own, the least step taken (a spin interrupted
    // reads longer): 1 ms in Firefox and WebKitGTK, microseconds in Node. A spin gives up after
    // CLOCK_SPIN_READS readings (1 ms of them in Firefox and WebKitGTK here, 3 in Chromium, whose clock
    // moves long before), so a clock coarsened further (Firefox's resistFingerprinting) cannot hold
    // the thread for a tick; then no floor is taken.
    let clockTick = Infinity;
    for (let i = 0; i < 3; i++) {
      await nextTask();
      const from = performance.now();
      let to = from;
      for (let reads = 0; to === from && reads < CLOCK_SPIN_READS; reads++) to = performance.now();
      if (to === from) {
        clockTick = 0;
        break;
      }
      clockTick = Math.min(clockTick, to - from);
    }
    profile.sampling = { timer: this.caps.timerQuery ? 'query' : fenceTimed ? 'fence' : 'finish', fenceFloorMs: fenceFloor, clockTickMs: clockTick, blockingCalls, batches: {} };
    /**
     * Samples of `run` for one point and path: `one` (a single call's submit-to-done less the fence's
     * wait; with its issue time it sizes the samples, or through glFinish, by fence where calls do
     * not block and at a scan point by timer query the point's first path's do),
     * `sample()` (takes one more), `complete()` (one
     * untimed call, then samples up to `repeats`), `confirm()` (the second opinion: fresh samples,
     * tuning.ts#secondOpinionSamples, after which `time()` gives tuning.ts#secondOpinionTime: the lower of the first median and what they read; at a scan point by timer query the middle of all, tuning.ts#pooledSecondOpinionTime; at a compaction point there the least sample, tuning.ts#leastSample) and `time()` (ms per call of those taken, their median or by timer query at a compaction point their least: GPU time
     * by timer query, except a scan's there, else submit-to-done, waited for by fence less the fence's own wait or by
     * glFinish). A sample is a batch of back-to-back calls (as an app makes them) long enough to be
     * timed (TUNE_SAMPLING.sampleMs, and at least twice the fence's wait; by timer query a scan's
     * QUERY_SCAN_SAMPLE_MS; at most 16 calls; through
     * glFinish a second opinion's calls back to back for longer, TUNE_SAMPLING), one batch per task.
     * Where the calls block the thread (WebKitGTK: its GL calls return when most of the work is done,
     * so a sample of 16 calls was one task of 81 ms), a sample holds at most TUNE_TASK_MS (tuning.ts)
     * of calls, by the longer of a call's issue and submit-to-done times: every task stays within a frame.
     */
    /**
     * By timer query a compaction point's second opinions queue QUERY_SECOND_OPINION_CALLS calls
     * (tuning.ts); a scan point's keep the first opinion's batches (of wall-clock time: scanByWall). Queued GPU time left out what a
     * pass costs outside the GPU: Blelloch's 28-32 passes read 4.50 ms queued against
     * reduce-then-scan's 4.64 at 2^16 (1.17x slower in the sweep's wall-clock batches), 0.71 against
     * 1.28 of wall time at 2^10, and at 2^14 it was chosen at 1.45x the fastest scan
     * (bench/results/issue-20/tuned-sweep-chromium-*-twentyfourth-*.json).
     */
    const queuedSecondOpinion = (point: string): boolean => this.caps.timerQuery && !point.endsWith('/scan');
    /**
     * By timer query a scan point's samples are calls back to back for QUERY_SCAN_SAMPLE_MS, timed by
     * wall clock (by fence, less the fence's own wait: `fenceFloor`), the same number for every scan of
     * the point (tuning.ts#QUERY_SCAN_SAMPLE_MS): a small scan's GPU time leaves out most of its cost.
     */
    const scanByWall = (point: string): boolean => this.caps.timerQuery && this.caps.asyncReadback && point.endsWith('/scan');
    /** Through glFinish and by timer query (compactions), the calls of each point's second-opinion samples (set by the point's first one). */
    const secondOpinionBatches = new Map<string, number>();
    // `records`: where the samples go on the record, per point and path; the bitmask's padding forms
    // (tuning.ts#bitmaskPaddingForm) keep theirs apart, as neither paths nor points the timings have.
    const sampler = async (run: () => { dispose(): void; stats?: PassStats }, point: string, path: string, elements: number, pointBatch?: number, records = profile.sampling!.batches) => {
      const first = run(); // first use: fills the pool
      const stats = first.stats ?? this.lastScanStats!;
      if (records === profile.sampling!.batches) (profile.work[point] ??= {})[path] = { passes: stats.passes, fragments: stats.fragments, lineFragments: stats.lineFragmentsAtMost };
      first.dispose();
      await this.#gpuDone('tune()');
      await nextTask();
      const byWall = scanByWall(point);
      // What comes off a call timed by the clock; by timer query a compaction's single call keeps it
      // (its samples are GPU time: with the floor taken off, its batch would be sized to outlast a wait
      // it does not have).
      const floor = this.caps.timerQuery && !byWall ? 0 : fenceFloor;
      const single = performance.now();
      run().dispose();
      const issued = performance.now() - single;
      await this.#gpuDone('tune()');
      const one = Math.max(performance.now() - single - floor, SINGLE_CALL_CLAMP_MS);
      // How many calls a sample holds: tuning.ts#batchCalls (unit-tested in test/batch-calls.node.test.ts).
      // Through glFinish, by fence where calls do not block, and at a scan point by timer query, every
      // path of a point takes the first one's batch (pointBatch, timeAll). Through glFinish a sample of one call is its host time
      // plus its GPU time, a sample of two overlaps them, and paths sampled with different batches
      // were timed in different regimes (H200, 2^10-2^12: the HistoPyramid's two-call samples at 0.28
      // ms per call against one-call samples of 0.47-0.61).
      const batch = pointBatch ?? batchCalls({ oneMs: one, issuedMs: issued }, { blocking: blockingCalls, fenceFloorMs: floor, ...(byWall ? { sampleMs: QUERY_SCAN_SAMPLE_MS } : {}) });
      const record: TuneBatch = { calls: batch, oneCallMs: one, issueMs: issued, samples: 0 };
      (records[point] ??= {})[path] = record;
      const times: number[] = [];
      // By timer query a compaction path's samples are GPU time, which what disturbs a sample only adds
      // to: its least sample counts (tuning.ts#leastSample), first and second opinions alike. Not
      // the bitmask's padding forms (their own records), chosen by their medians.
      const leastCounts = queuedSecondOpinion(point) && records === profile.sampling!.batches;
      // Each sample's reading goes on the record too (TuneBatch.samplesMs), so a tune's choice can be
      // traced to the samples it rested on.
      const sample = async (backToBack = false): Promise<void> => {
        await take(backToBack);
        (record.samplesMs ??= []).push(Math.round(times.at(-1)! * 1000) / 1000);
      };
      const take = async (backToBack: boolean): Promise<void> => {
        await nextTask();
        this.#assertAlive('tune()');
        let start = performance.now();
        // Each result is disposed at once, as an app does after using it: its targets go back to the
        // pool for the next call (GL runs the queued passes in order, so reuse is safe).
        record.samples = (record.samples ?? 0) + 1;
        if (backToBack && finishTimed) {
          // Calls back to back for a while, not a lone call's round trip (tuning.ts#TUNE_SAMPLING).
          // The point's first such sample sets how many; every later one at the point (every path,
          // the class's and the density's second opinions alike) makes as many, so the round trip's
          // share of a call is the same for the paths compared, as the first opinions' pointBatch.
          const equal = secondOpinionBatches.get(point);
          let calls = 0;
          if (equal !== undefined) {
            for (; calls < equal; calls++) run().dispose();
          } else {
            do {
              run().dispose();
              calls++;
            } while (secondOpinionContinues(calls, batch, performance.now() - start, elements));
            secondOpinionBatches.set(point, calls);
          }
          await this.#gpuDone('tune()');
          (record.secondOpinionCalls ??= []).push(calls);
          times.push(wallSampleMs(performance.now() - start, calls, clockTick));
          return;
        }
        if (backToBack && blockingCalls) {
          // A second opinion where calls block: several tasks of the batch, each timed until its work
          // is done, summed (tuning.ts#BLOCKING_SECOND_OPINION_TASKS): the 1 ms clock's error and the
          // fence estimate's average out, and no task holds the thread longer than a first sample's.
          let ms = 0;
          for (let task = 0; task < BLOCKING_SECOND_OPINION_TASKS; task++) {
            if (task > 0) {
              await nextTask();
              this.#assertAlive('tune()');
            }
            const from = performance.now();
            for (let k = 0; k < batch; k++) run().dispose();
            const onThreadMs = performance.now() - from;
            await this.#gpuDone('tune()');
            ms += blockingSampleMs({ onThreadMs, doneMs: performance.now() - from }, fenceFloor, 1, clockTick);
          }
          (record.secondOpinionCalls ??= []).push(BLOCKING_SECOND_OPINION_TASKS * batch);
          times.push(ms / (BLOCKING_SECOND_OPINION_TASKS * batch));
          return;
        }
        if (blockingCalls) {
          // Until the work is done, not until the calls return (tuning.ts#blockingSampleMs).
          for (let k = 0; k < batch; k++) run().dispose();
          const onThreadMs = performance.now() - start;
          await this.#gpuDone('tune()');
          times.push(blockingSampleMs({ onThreadMs, doneMs: performance.now() - start }, fenceFloor, batch, clockTick));
          return;
        }
        // By timer query a second opinion's calls are queued back to back, as an app's are
        // (tuning.ts#QUERY_SECOND_OPINION_CALLS); the same number for every path of the point.
        const queued = backToBack && queuedSecondOpinion(point);
        const calls = queued ? secondOpinionBatches.get(point) ?? Math.max(batch, QUERY_SECOND_OPINION_CALLS) : batch;
        if (queued) {
          secondOpinionBatches.set(point, calls);
          (record.secondOpinionCalls ??= []).push(calls);
        }
        let gpuMs: number | undefined;
        if (byWall) {
          for (let k = 0; k < calls; k++) run().dispose();
        } else {
          gpuMs = await this.gpuTime(() => {
            for (let k = 0; k < calls; k++) run().dispose();
          });
          // Where the least sample counts (leastSample), a sample the query lost (disjoint) is taken
          // again, up to twice, before the clock times it: the clock less the fence's estimated wait
          // can read low, and one low sample would decide the path's time.
          for (let retry = 0; gpuMs === undefined && leastCounts && retry < 2; retry++) {
            await nextTask();
            this.#assertAlive('tune()');
            start = performance.now(); // the clock, if it comes to it, times this attempt alone
            gpuMs = await this.gpuTime(() => {
              for (let k = 0; k < calls; k++) run().dispose();
            });
          }
        }
        if (gpuMs !== undefined) {
          times.push(gpuMs / calls);
        } else {
          // By fence (where a timer query read disjoint too: its wait is the fence's as well).
          await this.#gpuDone('tune()');
          times.push(wallSampleMs(performance.now() - start - fenceFloor, calls, clockTick));
        }
      };
      const middle = (list: readonly number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
      /** Once a second opinion was taken (secondOpinion), tuning.ts#secondOpinionTime (the lower of the first median and what it read), at a scan point by the clock tuning.ts#pooledSecondOpinionTime, by timer query at a compaction point the least sample; else the median, or that least. */
      let confirmed: number | undefined;
      const time = () => confirmed ?? (leastCounts ? leastSample(times) : middle(times));
      // Before later samples: other paths' first samples ran since this one's, and the pool may
      // have let its targets go (an untimed call takes them again, outside any sample).
      const rewarm = async (): Promise<void> => {
        await nextTask();
        this.#assertAlive('tune()');
        run().dispose();
        await this.#gpuDone('tune()');
      };
      /** Samples up to `repeats` (after an untimed call); false if it had them all. */
      const complete = async (): Promise<boolean> => {
        if (times.length >= repeats) return false;
        await rewarm();
        while (times.length < repeats) await sample();
        return true;
      };
      /**
       * A second opinion (tuning.ts#secondOpinion): fresh samples after an untimed call
       * (tuning.ts#secondOpinionSamples), and from then on the lower of the first opinion's median
       * and what they read (what slows a sample only adds time; tuning.ts#secondOpinionTime); by timer
       * query, samples of queued calls and at a compaction point the least of all its samples
       * (tuning.ts#leastSample), at a scan point by the clock their middle (tuning.ts#pooledSecondOpinionTime). Once:
       * false where it had been taken already (no samples added).
       */
      const confirm = async (): Promise<boolean> => {
        if (confirmed !== undefined) return false;
        await complete();
        const first = middle(times);
        const fresh: number[] = [];
        await rewarm();
        // Through glFinish fewer, longer samples, the lower counting (tuning.ts#secondOpinionSamples).
        while (fresh.length < secondOpinionSamples(repeats, finishTimed)) {
          await sample(true);
          fresh.push(times.pop()!);
        }
        // A scan by the clock: the middle of all its samples, which are one measure (tuning.ts#pooledSecondOpinionTime).
        confirmed = byWall ? pooledSecondOpinionTime(times, fresh) : leastCounts ? leastSample([...times, ...fresh]) : secondOpinionTime(first, fresh, profile.sampling!.timer);
        return true;
      };
      return { one, batch, sample, time, complete, confirm };
    };
    type Sampler = Awaited<ReturnType<typeof sampler>>;
    /**
     * Whether every path of a point takes the first one's batch: through glFinish, by fence where calls
     * do not block, and at a scan point by timer query (see timeAll).
     */
    const equalBatches = (point: string): boolean => finishTimed || (fenceTimed && !blockingCalls) || scanByWall(point);
    /**
     * Ms per call of each of `runs` (by path; the sampler's time(): a median, by timer query at a compaction point the least sample): every path sampled once, then only those that
     * could still be chosen (tuning.ts#pathsToResample: not twice as slow as the fastest of its
     * candidate sets by both its first sample and its single call, 1.5 times through glFinish) sampled `repeats - 1` more times;
     * the others keep their first sample. Their repeats were most of a tune's GPU time (H200 egl:
     * the tune's calls 599 ms of GPU time, 189 of them at 2^20, bench/tune-probe.ts --gpu-time).
     */
    const samplersAt = new Map<string, Map<string, Sampler>>();
    const timeAll = async (runs: ReadonlyArray<readonly [string, () => { dispose(): void; stats?: PassStats }]>, point: string, elements: number, sets: ReadonlyArray<readonly string[]>): Promise<Record<string, number>> => {
      const samplers = new Map<string, Sampler>();
      samplersAt.set(point, samplers);
      let pointBatch: number | undefined;
      for (const [path, run] of runs) {
        const s = await sampler(run, point, path, elements, pointBatch);
        // Equal batches per point where a sample's fixed cost is not GPU work of the calls: through
        // glFinish (see sampler), and by fence where calls do not block, whose samples have the
        // fence's own wait taken off: an estimate (Firefox + llvmpipe: 5 ms, give or take
        // milliseconds) whose error comes off every call in 1 / batch shares. With a batch of its own
        // a path of fewer calls took more of it: the HistoPyramid's 9-call samples at 2^10, 90 %
        // kept, read 0.00 ms against the bitmask's 16-call 0.31, and auto ran it at 1.20x the bitmask
        // in the sweep (bench/results/issue-20/tuned-sweep-firefox-*-2026-11-27-tenth-rounds15.json).
        // At a scan point by timer query too: its samples are timed by fence (scanByWall).
        if (equalBatches(point)) pointBatch ??= s.batch;
        await s.sample();
        samplers.set(path, s);
      }
      const entries = [...samplers];
      const again = repeats > 1 ? pathsToResample(Object.fromEntries(entries.map(([path, s]) => [path, s.time()])), Object.fromEntries(entries.map(([path, s]) => [path, s.one])), sets, dropAfterFirst(profile.sampling!.timer)) : new Set<string>();
      for (const [path, s] of entries) if (again.has(path)) await s.complete();
      return Object.fromEntries(entries.map(([path, s]) => [path, s.time()]));
    };
    /**
     * A choice is made over several points (a compaction's densities) and against the built-in
     * default, so a path dropped at one point may still be chosen, or be what the choice is
     * compared with: every path a choice rests on gets all its samples at `points` (their timings
     * updated). True if any had fewer, and the choice must be made again.
     */
    const completeAll = async (points: readonly string[], paths: Iterable<string>): Promise<boolean> => {
      let more = false;
      for (const point of points) {
        for (const path of new Set(paths)) {
          const s = samplersAt.get(point)?.get(path);
          if (s && (await s.complete())) {
            profile.timings[point]![path] = s.time();
            more = true;
          }
        }
      }
      return more;
    };
    const compactionSets = [compactCandidates.map((c) => c.path), compactCandidates.filter((c) => c.keepsOrder).map((c) => c.path)];
    for (const n of sizes) {
      // Every program first, linked in the background where the context can (KHR_parallel_shader_compile):
      // a first use inside the timing loop would compile on the thread.
      await this.#warmUp([
        ...compactCandidates.map(({ path }) => ({ compact: { keep: { lessEqual: 0 }, ...optionsForPath(path) } as CompactOptions, type: 'uint32' as const, lengths: [n] })),
        ...scanCandidates.map((algorithm) => ({ scan: { algorithm }, type: 'uint32' as const, lengths: [n] })),
      ], 'tune()');
      // The bitmask's two forms of writing its padding (tuning.ts#bitmaskPaddingForm), whatever the
      // profile in use gives this size.
      for (const form of BITMASK_PADDINGS) await this.#warmUp([{ compact: { keep: { lessEqual: 0 }, algorithm: 'bitmask' }, type: 'uint32', lengths: [n] }], 'tune()', form);
      const stream = await this.#tuneStream(n, nextTask);
      try {
        const key = String(sizeClass(stream.layout.capacity));
        // Where the bitmask writes its padding at this size: both forms at the lowest density, where
        // the padding is most of the output, their samples taken by turns, of equal batches; the
        // form chosen is the one the bitmask's samples then take (tuning.ts#bitmaskPaddingForm).
        const lowest = Math.min(...densities);
        const keepLowest = { lessEqual: Math.round(lowest * 1_000_000) - 1 };
        const formPoint = `${key}/${lowest}`;
        const forms = new Map<BitmaskPadding, Sampler>();
        for (const form of BITMASK_PADDINGS) {
          const run = () => {
            this.#tunePadding.set(stream, form);
            return this.compact(stream, { keep: keepLowest, algorithm: 'bitmask' });
          };
          const batch = equalBatches(formPoint) ? forms.get(BITMASK_PADDINGS[0])?.batch : undefined;
          forms.set(form, await sampler(run, formPoint, form, n, batch, (profile.sampling!.padding ??= {})));
        }
        for (let r = 0; r < repeats; r++) for (const s of forms.values()) await s.sample();
        const padding = bitmaskPaddingForm({ outputPass: forms.get('output-pass')!.time(), ownPass: forms.get('own-pass')!.time() });
        profile.bitmaskPadding![key] = padding;
        this.#tunePadding.set(stream, padding);
        for (const density of densities) {
          const keep = { lessEqual: Math.round(density * 1_000_000) - 1 };
          const runs = compactCandidates.map(({ path }) => [path, () => this.compact(stream, { keep, ...optionsForPath(path) } as CompactOptions)] as const);
          const times = await timeAll(runs, `${key}/${density}`, n, compactionSets);
          profile.timings[`${key}/${density}`] = times;
          progress(n, density);
        }
        const points = densities.map((density) => `${key}/${density}`);
        // Over the tuned densities, the built-in default kept unless clearly slower (tuning.ts#choiceOverDensities).
        const fastest = (paths: readonly string[]) => choiceOverDensities(profile.timings, points, paths, KEEP_DEFAULT_WITHIN);
        const keepPaths = compactCandidates.filter((c) => c.keepsOrder).map((c) => c.path);
        const anyPaths = compactCandidates.map((c) => c.path);
        let keep = fastest(keepPaths);
        let any = fastest(anyPaths);
        // Each choice on full samples of what it rests on (at most a round per path).
        const settle = async () => {
          for (let round = 0; round < anyPaths.length && (await completeAll(points, [keep.best, keep.choice, any.best, any.choice, 'bitmask'])); round++) {
            keep = fastest(keepPaths);
            any = fastest(anyPaths);
          }
        };
        await settle();
        // A second opinion before leaving the default: its loss and the winner's gain are sampled
        // again, and each path's time is the lower of its two opinions (tuning.ts#secondOpinionTime; by
        // timer query its least sample of both: tuning.ts#leastSample). The
        // new times can make a third path the choice: it is asked again in turn, until every
        // path chosen over the default has had its second opinion (at most once per path).
        // Then a second opinion before a density leaves the class's choice (tuning.ts#densitySwitches):
        // the choice and the path a call there would switch to are sampled again at that point (a path
        // at most once per point). Their lowered times can change the class's choice too (the faster
        // path's lower time raises the others' ratios there), so both are asked again until neither
        // asks anything new: the choices stored are then the ones the timings stored give
        // (bench/switch-replay.ts re-derives them from those).
        const confirmed = new Set<string>();
        const confirmedAt = new Set<string>();
        // Where another path's lead at a density is worth a second opinion (tuning.ts#densityAskMargin:
        // below the switch margin where samples are coarse or a lone call's latency); the switch itself is
        // choiceAtDensity's, on the timings after it.
        const askAbove = densityAskMargin(profile.sampling!);
        // For the record (profile.sampling.secondOpinions): the paths asked again, round by round, per
        // class; per point, the paths a density's second opinion sampled again.
        const rounds: string[][] = [];
        const secondOpinions = (profile.sampling!.secondOpinions ??= {});
        for (let pass = 0; pass <= anyPaths.length; pass++) {
          for (let contested = secondOpinion('bitmask', [keep, any]); contested.some((path) => !confirmed.has(path)); contested = secondOpinion('bitmask', [keep, any])) {
            for (const point of points) {
              for (const path of contested) {
                const s = samplersAt.get(point)!.get(path)!;
                await s.confirm();
                profile.timings[point]![path] = s.time();
              }
            }
            rounds.push(contested.filter((path) => !confirmed.has(path)));
            for (const path of contested) confirmed.add(path);
            keep = fastest(keepPaths);
            any = fastest(anyPaths);
            await settle();
          }
          profile.compact.keep[key] = keep.choice as TuningProfile['compact']['keep'][string];
          profile.compact.any[key] = any.choice as TuningProfile['compact']['any'][string];
          let asked = false;
          for (const [point, paths] of densitySwitches(profile, key, points, askAbove)) {
            const sampledAgain: string[] = [];
            for (const path of paths) {
              if (confirmedAt.has(`${point} ${path}`)) continue;
              confirmedAt.add(`${point} ${path}`);
              // A path already asked for the class (or at this point) has its two opinions: false.
              const s = samplersAt.get(point)!.get(path)!;
              if (!(await s.confirm())) continue;
              profile.timings[point]![path] = s.time();
              sampledAgain.push(path);
            }
            if (sampledAgain.length > 0) {
              (secondOpinions[point] ??= []).push(sampledAgain);
              asked = true;
            }
          }
          if (!asked) break;
          keep = fastest(keepPaths);
          any = fastest(anyPaths);
          await settle();
        }
        if (rounds.length > 0) secondOpinions[key] = rounds;
        // Where the passes ran out (not seen: each asks a path at most once per point), the choices the timings give.
        profile.compact.keep[key] = keep.choice as TuningProfile['compact']['keep'][string];
        profile.compact.any[key] = any.choice as TuningProfile['compact']['any'][string];
        const scanPoint = `${key}/scan`;
        profile.timings[scanPoint] = await timeAll(scanCandidates.map((algorithm) => [algorithm, () => this.scan(stream, { algorithm })] as const), scanPoint, n, [scanCandidates]);
        const defaultScanHere = defaultScan(undefined);
        // By the clock the fastest scan, the default kept by no margin: every scan close to the choice
        // has a second opinion there (tuning.ts#scanSecondOpinion), and the default's margin had kept
        // reduce-then-scan at 2^16 where the tune read it 1.02x and 1.09x Blelloch's time and the
        // sweep 1.20x and 1.23x (docs/performance.md, "A scan's second opinion by the clock").
        const keepDefaultScanWithin = scanByWall(scanPoint) ? 1 : KEEP_DEFAULT_WITHIN;
        const chooseScan = () => scanChoice(profile.timings[scanPoint]!, scanCandidates, defaultScanHere, keepDefaultScanWithin);
        let scan = chooseScan();
        const settleScan = async () => {
          for (let round = 0; round < scanCandidates.length && (await completeAll([scanPoint], [scan.best, defaultScanHere])); round++) scan = chooseScan();
        };
        await settleScan();
        // The second opinion as for the compactions, of the first opinion's batches (by timer query
        // too: queuedSecondOpinion), and by the clock also where the default was chosen, with every
        // scan that read close to the choice (tuning.ts#scanSecondOpinion).
        // Every scan near the choice is asked, so each that could be chosen is judged on as many
        // samples. Elsewhere a second opinion only lowers a time, and a scan not asked read slower than
        // the choice and stays slower; by the clock it is the middle of all the scan's samples
        // (tuning.ts#pooledSecondOpinionTime) and can rise, so the new times can choose a scan not asked
        // yet: it is asked in turn (with its own contenders), until the choice has had its second
        // opinion (each scan at most once).
        const scanRounds: string[][] = [];
        for (let round = 0; round < scanCandidates.length; round++) {
          const asked = scanRounds.flat();
          const more = scanSecondOpinion(defaultScanHere, scan.choice, profile.timings[scanPoint]!, scanCandidates, scanByWall(scanPoint)).filter((algorithm) => !asked.includes(algorithm));
          if (more.length === 0) break;
          for (const algorithm of more) {
            const s = samplersAt.get(scanPoint)!.get(algorithm)!;
            await s.confirm();
            profile.timings[scanPoint]![algorithm] = s.time();
          }
          scanRounds.push(more);
          scan = chooseScan();
          await settleScan();
        }
        if (scanRounds.length > 0) secondOpinions[scanPoint] = scanRounds;
        profile.scan[key] = scan.choice;
        progress(n, undefined);
      } finally {
        stream.dispose();
      }
    }
    this.#takeProfile(profile);
    return structuredClone(profile);
  }

  /**
   * tune()'s test data, `n` uint32 values spread evenly over 0..999,999 (so `lessEqual` picks any
   * density), made and uploaded a slice per task (TUNE_DATA), so an app's frames go on between.
   * headless-gl (the 'float-bits' upload, a pass) uploads them at once: Node has no frames to keep.
   */
  async #tuneStream(n: number, nextTask: () => Promise<unknown>): Promise<Stream<Uint32Array>> {
    const format = formatForComponents(1)!;
    const layout = layoutFor(n, this.caps.maxTextureSize);
    const bits = new Uint32Array(layout.capacity); // zero padding
    for (let from = 0; from < n; ) {
      from = fillTuneData(bits, from, n, performance.now() + TUNE_DATA.sliceMs);
      if (from < n) await nextTask();
      this.#assertAlive('tune()'); // also where the data took one slice: the last await was the warm-up's
    }
    if (this.caps.uploadPath !== 'integer') return this.#newStream('uint32', format, n, (target) => uploadBits(this.#gpu, this.caps.uploadPath, target, bits));
    const stream = this.#newStream<Uint32Array>('uint32', format, n);
    try {
      const { target } = viewOf(stream);
      const rows = Math.max(1, Math.floor(TUNE_DATA.uploadElements / layout.width));
      for (let row = 0; row < layout.height; row += rows) {
        const slice = bits.subarray(row * layout.width, Math.min(layout.height, row + rows) * layout.width);
        this.#gpu.guard.run(() => uploadRows(this.#gpu, target, row, slice));
        if (row + rows < layout.height) {
          await nextTask();
          this.#assertAlive('tune()');
        }
      }
    } catch (error) {
      stream.dispose(); // nothing half-written left behind
      throw error;
    }
    return stream;
  }

  /** tune({ worker }): the samples in the worker (src/tune-in-worker.ts), the profile taken here. */
  async #tuneInWorker(worker: TuneWorker, options: { sizes: readonly number[]; densities: readonly number[]; repeats: number }, onProgress: TuneOptions['onProgress']): Promise<TuningProfile> {
    const what = 'engine.tune({ worker })';
    if (typeof worker !== 'object' || worker === null || typeof worker.postMessage !== 'function' || typeof worker.addEventListener !== 'function' || typeof worker.removeEventListener !== 'function') {
      throw new Error(`${what}: worker must be a Web Worker whose script calls serveTuning(); got ${describe(worker)}`);
    }
    // Asked once per tune, not on a call's path: which GPU the app's context is on, for the worker's.
    const powerPreference = this.#gpu.gl.getContextAttributes()?.powerPreference;
    const tune = tuneInWorker(worker, options, this.#workerEngineOptions, powerPreference, onProgress);
    this.#workerTunes.add(tune);
    let measured: TuningProfile;
    try {
      measured = await tune.profile;
    } finally {
      this.#workerTunes.delete(tune);
    }
    // The profile's arrival (its message read) and taking it are two tasks: in Chromium the one
    // task holding both took 2.0 ms of the page's thread, the tune's only work there.
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.#assertAlive('tune()');
    // The message's copy is this engine's own already: checked and kept as it is (useProfile copies),
    // what tells a worker's profile apart said first.
    const from = measured as Partial<TuningProfile> | null;
    if (typeof from === 'object' && from !== null && from.format === 'glcompact-profile') {
      if (from.version !== ENGINE_VERSION) throw new Error(`${what}: the worker runs glcompact ${from.version}, this page ${ENGINE_VERSION}: build the worker's script with the same glcompact`);
      if (from.renderer !== this.caps.renderer) throw new Error(`${what}: the worker's context reports the renderer '${from.renderer}', this engine's '${this.caps.renderer}': its timings are not this context's; tune without a worker`);
    }
    this.#takeProfile(parseProfile(measured, this.caps.renderer, what));
    return structuredClone(this.#profile!);
  }

  /** The profile in use (a copy), from engine.tune() or engine.useProfile(); undefined: the built-in defaults. */
  get profile(): TuningProfile | undefined {
    return this.#profile && structuredClone(this.#profile);
  }

  /**
   * Takes a profile measured earlier by engine.tune() on the same renderer and engine version (e.g.
   * kept in localStorage, or shipped per device class); `null` goes back to the built-in defaults.
   * @throws Error if it is not a profile, or was measured on another renderer or engine version.
   */
  useProfile(profile: TuningProfile | null): void {
    this.#assertAlive('useProfile()');
    this.#takeProfile(profile === null ? undefined : parseProfile(structuredClone(profile), this.caps.renderer));
  }

  /** The profile auto and the default scan take from now on; what was looked up or learnt from the last one goes. */
  #takeProfile(profile: TuningProfile | undefined): void {
    this.#profile = profile;
    this.#tunedFor.clear();
    this.#atDensity = new WeakMap();
    this.#atDensityBySize.clear();
  }

  /**
   * auto's compaction with a profile: the size class's choice, or where the density last counted for
   * this stream (or its size class) makes that choice clearly slow (by more than tuning.ts#densitySwitchMargin in
   * the profile's timings), the fastest path there (worked out when the count arrived).
   */
  #tunedCompaction(order: 'keep' | 'any', stream: Stream): CompactStats['algorithm'] | undefined {
    const atDensity = (this.#atDensity.get(stream) ?? this.#atDensityBySize.get(sizeClass(stream.layout.capacity)))?.[order];
    return atDensity ?? this.#tuned(order, stream.layout.capacity);
  }

  /**
   * Whether the bitmask's output pass writes the padding of `stream`'s compaction (CompactionPlan):
   * tune()'s form while it samples the stream, else the profile's for the nearest size class
   * (TuningProfile.bitmaskPadding), else undefined (the built-in default, BITMASK_SHAPE).
   */
  #paddingInOutput(stream: Stream): boolean | undefined {
    const form = this.#tunePadding.get(stream) ?? (this.#profile && this.#tuned('padding', stream.layout.capacity));
    return form === undefined ? undefined : form === 'output-pass';
  }

  /** The tuned path (or the bitmask's padding form) for a stream of `capacity` texels: the nearest measured size class of the table. */
  #tuned(table: 'keep' | 'any', capacity: number): CompactStats['algorithm'] | undefined;
  #tuned(table: 'scan', capacity: number): ScanAlgorithm | undefined;
  #tuned(table: 'padding', capacity: number): BitmaskPadding | undefined;
  #tuned(table: 'keep' | 'any' | 'scan' | 'padding', capacity: number): unknown {
    const key = `${table}:${capacity}`;
    if (!this.#tunedFor.has(key)) {
      const profile = this.#profile!;
      this.#tunedFor.set(key, nearest(table === 'scan' ? profile.scan : table === 'padding' ? profile.bitmaskPadding ?? {} : profile.compact[table], capacity));
    }
    return this.#tunedFor.get(key);
  }

  /** Resolves once the GPU has done what was submitted, without blocking where the context can tell by fence. */
  async #gpuDone(caller: 'tune()' | 'warmUp()'): Promise<void> {
    const gl = this.#gpu.gl;
    if (!this.caps.asyncReadback) {
      gl.finish();
      return;
    }
    const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!sync) return this.#assertAlive(caller); // a lost context makes no fence
    try {
      gl.flush();
      for (let attempt = 0; ; attempt++) {
        const status = gl.clientWaitSync(sync, 0, 0);
        if (status === gl.WAIT_FAILED) return this.#assertAlive(caller); // what a lost context answers
        if (status === gl.ALREADY_SIGNALED || status === gl.CONDITION_SATISFIED) return;
        await betweenPolls(attempt);
        this.#assertAlive(caller);
      }
    } finally {
      gl.deleteSync(sync);
    }
  }

  /** Frees the idle textures kept for reuse (see EngineOptions.texturePoolBytes). */
  trim(): void {
    this.#assertAlive('trim()');
    this.#gpu.pool.trim();
  }

  /** Bytes of idle texture memory kept for reuse. */
  get idleTextureBytes(): number {
    return this.#gpu.pool.idleTextureBytes;
  }

  /** Frees every GL object the engine made (streams included). Idempotent; safe after context loss. */
  dispose(): void {
    if (this.#disposed) return;
    // A tune in a worker settles now (rejected), and the worker is asked to stop.
    for (const tune of this.#workerTunes) tune.cancel(disposedError('tune()'));
    for (const stream of [...this.#streams]) disposeStream(stream, 'engine.dispose()');
    this.#gpu.dispose();
    this.#canvas?.removeEventListener('webglcontextlost', this.#onContextLost);
    this.#disposed = true;
  }

  /** A 1×1 R32UI target holding `length`, uploaded the way every stream is (adapter.ts). */
  #lengthTarget(length: number, what: string): RenderTarget {
    this.#assertAlive(what);
    return this.#gpu.guard.run(() => this.#gpu.scope((scope) => {
      const target = scope.target(1, 1, COUNT_FORMAT);
      uploadBits(this.#gpu, this.caps.uploadPath, target, Uint32Array.of(length));
      return scope.keep(target);
    }));
  }

  #segmentedScan<T extends StreamData>(stream: Stream<T>, segments: Stream, exclusive: boolean): Stream<T> {
    this.#assertOwnStream('engine.scan(): options.segments', segments);
    const view = viewOf(stream);
    const segmentsView = viewOf(segments);
    if (view.length !== undefined && segmentsView.length !== undefined && view.length !== segmentsView.length) {
      throw new Error(`engine.scan(): options.segments has ${segmentsView.length} elements but the stream has ${view.length}; segments[i] says whether a segment starts at i, so the lengths must match`);
    }
    return this.#gpu.guard.run(() => this.#gpu.scope((scope) => {
      const lengthTarget = view.length === undefined ? scope.own(copyTexel(this.#gpu, view.lengthTarget!, 0, 0)) : undefined;
      const { value: result, stats } = this.#gpu.measure(() => segmentedScan(this.#gpu, view, segmentsView, exclusive));
      this.lastScanStats = { ...stats, algorithm: 'reduce-then-scan', radix: undefined, blockSize: undefined, exclusive, segments: true };
      if (lengthTarget) scope.keep(lengthTarget);
      return this.#adopt(new Stream<T>({ owner: this.#owner, target: result, format: view.format, length: view.length, lengthTarget }, stream.layout, stream.type));
    }));
  }

  /**
   * The plan of the internal compactions (partition, unique, runLengthEncode), which run one path
   * without blocks: the block fields hold the defaults and go unused.
   */
  #defaultPlan(keep: KeepFunction, outputIndices: boolean): CompactionPlan {
    return {
      keep,
      outputIndices,
      maxTextureSize: this.caps.maxTextureSize,
      radix: DEFAULT_RADIX,
      blockLog2: log2Exact(DEFAULT_BLOCK_SIZE),
      blockScan: scanAlgorithms.blelloch.blockScan,
      concat: AUTO_CONCAT,
      jumpingJackKept: { from: 0, to: 0 },
    };
  }

  #adopt<S extends Stream>(stream: S): S {
    this.#streams.add(stream);
    return stream;
  }

  #assertAlive(what: string): void {
    if (this.#disposed) throw disposedError(what);
    if (this.#contextLost || this.#gpu.gl.isContextLost()) {
      this.#contextLost = true;
      throw contextLostError(what);
    }
  }

  /** The streams a keep option reads: this engine's, alive; flags as long as the stream where both lengths are known. */
  #assertKeepInputs(call: string, keep: KeepOption, stream: Stream): void {
    if (keep === 'nonzero' || !('flags' in keep || 'streams' in keep)) return;
    if ('flags' in keep) {
      this.#assertOwnStream(`${call}: options.keep.flags`, keep.flags);
      const flags = viewOf(keep.flags).length;
      const length = viewOf(stream).length;
      if (flags !== undefined && length !== undefined && flags !== length) {
        throw new Error(`${call}: options.keep.flags has ${flags} elements but the stream has ${length}; flags[i] says whether element i is kept, so the lengths must match`);
      }
      return;
    }
    for (const [name, input] of Object.entries(keep.streams ?? {})) this.#assertOwnStream(`${call}: options.keep.streams.${name}`, input);
  }

  #assertOwnStream(what: string, stream: unknown): asserts stream is Stream {
    if (!(stream instanceof Stream)) {
      const hint = stream instanceof CompactResult ? ' (for a compaction\'s output, pass result.stream)' : '';
      throw new Error(`${what}: stream must be a Stream made by engine.stream(); got ${describe(stream)}${hint}`);
    }
    assertStreamAlive(stream, what);
    if (ownerOf(stream) !== this.#owner) throw new Error(`${what}: this stream belongs to another engine; streams cannot be shared between engines (each owns its GL objects)`);
  }
}

/**
 * Creates an engine on a WebGL2 context, and probes what the context can do by running tiny GL
 * tests (see {@link Engine.caps}). In a browser pass `canvas.getContext('webgl2')`; in Node, a
 * context from `createHeadlessContext()` (`glcompact/node`). The engine shares the context with
 * your own drawing: by default every call puts back the GL state it changed (`preserveState`).
 * Textures stay within 4096 texels a side unless `maxTextureSize` raises the limit (phones crash
 * above it; README "Device limits").
 * @param options - See {@link EngineOptions}; all optional.
 * @throws Error if `gl` is not a WebGL2 context (a WebGL1 context included), the context is lost,
 * an option is invalid (`maxTextureSize` above the context's MAX_TEXTURE_SIZE included), or the
 * context cannot store 32-bit data exactly.
 * @example
 * ```ts
 * import { createEngine } from 'glcompact';
 * const engine = createEngine(canvas.getContext('webgl2')!, { texturePoolBytes: 64 * 2 ** 20 });
 * // streams of more than 4096² elements, where the device allows 8192-texel textures:
 * const large = createEngine(gl, { maxTextureSize: 8192 });
 * ```
 */
export function createEngine(gl: WebGL2RenderingContext, options?: EngineOptions): Engine {
  if (!isWebGL2(gl)) {
    throw new Error(`createEngine(gl): gl must be a WebGL2RenderingContext (canvas.getContext('webgl2')); got ${describe(gl)}`);
  }
  return new Engine(gl, parseEngineOptions(options));
}

const disposedError = (what: string) => new Error(`engine.${what}: this engine was disposed; create a new one with createEngine(gl)`);
const contextLostError = (what: string) => new Error(`engine.${what}: the WebGL context was lost; its textures are gone. Create a new engine once the context is restored (webglcontextrestored)`);

/** @internal The engine's GPU handle, for tests and benchmarks (src/internal.ts). */
export function gpuOf(engine: Engine): Gpu {
  const gpu = gpus.get(engine);
  if (!gpu) throw new Error('internal: not an engine');
  return gpu;
}

const gpus = new WeakMap<Engine, Gpu>();

/**
 * Writes tune()'s test values into `bits` from `from` until `n` or the time `until` (performance.now()),
 * checking the clock every 4,096 values. A function of its own, small enough for the JIT to optimise
 * early (inside tune() the loop ran unoptimised: ~120 ns a value in Chromium).
 * @returns Where the next slice starts.
 */
function fillTuneData(bits: Uint32Array, from: number, n: number, until: number): number {
  let i = from;
  do {
    const end = Math.min(n, i + 4096);
    for (; i < end; i++) bits[i] = (Math.imul(i + 1, 2654435761) >>> 0) % 1_000_000;
  } while (i < n && performance.now() < until);
  return i;
}
