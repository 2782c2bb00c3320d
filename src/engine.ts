// The public engine: streams, scans and compactions on one WebGL2 context.
import { readBits, readBitsAsync, uploadBits } from './adapter.js';
import { probeCapabilities, type Capabilities } from './capabilities.js';
import { compact, type CompactionAlgorithm } from './compact/compact.js';
import type { ConcatMode } from './compact/concatenate.js';
import { keepFunction, parseKeepOption, type KeepOption } from './compact/keep-function.js';
import { CompactResult, type CompactStats } from './compact/result.js';
import { copyTexel } from './copy-texel.js';
import { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import { isPowerOfTwo, layoutFor, log2Exact, MAX_BLOCK_SIZE } from './layout.js';
import type { ResourceCounts } from './resources.js';
import type { BlockScan, ScanAlgorithm } from './scan/block-scan.js';
import { blellochBlockScan } from './scan/blelloch.js';
import { globalScan } from './scan/global-scan.js';
import { hillisSteeleBlockScan } from './scan/hillis-steele.js';
import type { PassStats } from './stats.js';
import { Stream, type ElementType, type StreamData, type StreamOwner } from './stream.js';
import { describe, oneOf, optionsObject } from './validate.js';

export interface StreamOptions {
  /** Components per element: 1 (scalars) or 4 (e.g. particles as vec4). Default 1. */
  components?: 1 | 4;
}

export interface ScanOptions {
  /** Default: 'blelloch', except 'recursive-doubling' for segmented scans with blockSize 16. */
  algorithm?: ScanAlgorithm;
  exclusive?: boolean;
  /** Segmented scan: restart the sum every `blockSize` elements (power of two, 16..2048). Default: one scan over the whole stream. */
  blockSize?: number;
  /** Recursive doubling: elements added per pass, 2 (the paper's), 4, 8 or 16. Default 4. */
  radix?: number;
}

export interface CompactOptions {
  keep: KeepOption;
  /** 'jumping-jack': any order (paper Sec. 4); 'horn': input order kept; 'auto': see README "Choosing an algorithm". */
  algorithm?: 'jumping-jack' | 'horn' | 'auto';
  /** Power of two, 16..2048. Default 256. */
  blockSize?: number;
  /** Horn only: search the whole stream's prefix sum (Horn 2005: no blocks, no concatenation). */
  global?: boolean;
  concat?: ConcatMode | 'auto';
  output?: 'values' | 'indices';
  /** Scan used inside the blocks. Default: 'recursive-doubling' for block size 16, else 'blelloch'. */
  scan?: ScanAlgorithm;
  /** Radix of the recursive-doubling scans (see ScanOptions.radix). */
  radix?: number;
}

/** What a scan cost and which path it took (engine.lastScanStats). */
export interface ScanStats extends PassStats {
  algorithm: ScanAlgorithm;
  /** Recursive doubling's radix; undefined for Blelloch. */
  radix: number | undefined;
  /** The segment size of a segmented scan; undefined for a scan over the whole stream. */
  blockSize: number | undefined;
  exclusive: boolean;
}

export interface EngineOptions {
  /**
   * Idle texture memory the engine keeps for reuse, in bytes (default 512 MiB). Allocating a
   * texture costs a full clear, so reuse makes repeated calls several times faster; 0 disables it.
   * `engine.trim()` frees the idle textures at any time.
   */
  texturePoolBytes?: number;
}

const DEFAULT_TEXTURE_POOL_BYTES = 512 * 2 ** 20;

/**
 * algorithm 'auto' runs the per-block hybrid: Jumping Jack in blocks keeping between these
 * fractions of their elements, Horn in the others (a block keeping all needs no search). Measured
 * on an H200 at 2^24, block 256 (bench/results/probes): Horn wins below 30 % kept (the paper saw
 * its crossover at 22 % kept, Fig. 11) and, with the search drawn as lines, from about 87.5 % up.
 */
export const HYBRID_JUMPING_JACK_KEPT_FRACTIONS = { from: 0.3, to: 0.875 } as const;

/**
 * Default scan for a block size (undefined: a scan over the whole stream). Blelloch's
 * work-efficient tree, except in blocks of 16, where recursive doubling's few passes win, as in the
 * paper's Fig. 9. Measured on an H200 at 2^22 (segmented scan alone: block 16 RD 3.1 ms vs
 * Blelloch 4.1 ms; block 256 3.7 vs 2.9; block 2048 3.6 vs 2.2) and for global scans at 2^24
 * (Blelloch 5.8 ms vs 12-16 ms for radix 2-16; llvmpipe 2^20: 34 ms vs 70 ms). README "Performance".
 */
function defaultScan(blockSize: number | undefined): ScanAlgorithm {
  return blockSize !== undefined && blockSize <= 16 ? 'recursive-doubling' : 'blelloch';
}

/** Recursive doubling's default radix: 4 beat 2, 8 and 16 on llvmpipe and was within 10 % of the best on the H200. */
export const DEFAULT_RADIX = 4;
const radices = [2, 4, 8, 16];

const blockScans: Record<ScanAlgorithm, BlockScan> = {
  'recursive-doubling': hillisSteeleBlockScan,
  blelloch: blellochBlockScan,
};

const scanAlgorithms = ['recursive-doubling', 'blelloch'] as const;

function elementTypeOf(data: unknown): ElementType {
  if (data instanceof Float32Array) return 'float32';
  if (data instanceof Uint32Array) return 'uint32';
  if (data instanceof Int32Array) return 'int32';
  throw new Error(`engine.stream(data): data must be a Float32Array, Uint32Array or Int32Array; got ${describe(data)}`);
}

const MAX_3D_TEXTURE_SIZE = 0x8073;

function isWebGL2(gl: unknown): gl is WebGL2RenderingContext {
  if (
    typeof gl !== 'object' || gl === null ||
    typeof (gl as WebGL2RenderingContext).texStorage2D !== 'function' ||
    typeof (gl as WebGL2RenderingContext).createVertexArray !== 'function' ||
    typeof (gl as WebGL2RenderingContext).beginTransformFeedback !== 'function' ||
    typeof (gl as WebGL2RenderingContext).getParameter !== 'function' ||
    typeof (gl as WebGL2RenderingContext).isContextLost !== 'function'
  ) {
    return false;
  }
  // The methods are not enough: headless-gl's WebGL1 context has every WebGL2 method on its
  // prototype (and its WebGL2 context reports "WebGL 1.0"). A WebGL2-only query tells them apart:
  // a WebGL1 context answers null and raises INVALID_ENUM (cleared here). A lost context answers
  // null too; the Engine constructor reports that case by name.
  const context = gl as WebGL2RenderingContext;
  if (context.isContextLost()) return true;
  if (typeof context.getParameter(MAX_3D_TEXTURE_SIZE) === 'number') return true;
  context.getError();
  return false;
}

export class Engine implements StreamOwner {
  readonly caps: Capabilities;
  private readonly gpu: Gpu;
  private readonly streams = new Set<Stream>();
  private disposed = false;
  /** Stats of the last scan (compactions report theirs on the result). */
  lastScanStats: ScanStats | undefined;

  private readonly canvas: EventTarget | undefined;
  private readonly onContextLost = () => {
    this.contextLost = true;
  };
  private contextLost = false;

  constructor(gl: WebGL2RenderingContext, options: EngineOptions = {}) {
    if (gl.isContextLost()) throw new Error('createEngine(gl): the WebGL context is lost; create the engine after it is restored');
    this.gpu = new Gpu(gl, options.texturePoolBytes ?? DEFAULT_TEXTURE_POOL_BYTES);
    try {
      this.caps = probeCapabilities(this.gpu);
    } catch (error) {
      this.gpu.dispose();
      throw error;
    }
    const canvas = (gl as { canvas?: unknown }).canvas;
    if (canvas && typeof (canvas as EventTarget).addEventListener === 'function') {
      this.canvas = canvas as EventTarget;
      this.canvas.addEventListener('webglcontextlost', this.onContextLost);
    }
  }

  /** Live GL objects made by this engine, per kind. */
  get resources(): ResourceCounts {
    return this.gpu.tracker.snapshot();
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  stream(data: Float32Array | Uint32Array | Int32Array, options?: StreamOptions): Stream {
    this.assertAlive('stream()');
    const type = elementTypeOf(data);
    const opts = optionsObject('engine.stream(data, options)', options, ['components']);
    const components = opts.components === undefined ? 1 : opts.components;
    if (components !== 1 && components !== 4) {
      throw new Error(`engine.stream(): options.components must be 1 or 4; got ${describe(components)}`);
    }
    if (data.length % components !== 0) {
      throw new Error(`engine.stream(): data.length must be a multiple of options.components (${components}); got ${data.length}`);
    }
    const length = data.length / components;
    const max = this.caps.maxTextureSize;
    if (length > max * max) {
      throw new Error(
        `engine.stream(data): data is too long for this context's textures; got ${length} elements, ` +
          `at most ${max}² = ${max * max} elements fit (MAX_TEXTURE_SIZE ${max})`,
      );
    }
    const layout = layoutFor(length, max);
    const bits = new Uint32Array(layout.capacity * components); // zero padding
    bits.set(new Uint32Array(data.buffer, data.byteOffset, data.length));
    const target = this.gpu.target(layout.width, layout.height, components === 1 ? 'r32ui' : 'rgba32ui');
    try {
      uploadBits(this.gpu, this.caps.uploadPath, target, bits);
    } catch (error) {
      target.free();
      throw error;
    }
    return this.adopt(new Stream(this, target, layout, type, components, length));
  }

  scan(stream: Stream, options?: ScanOptions): Stream {
    this.assertAlive('scan()');
    this.assertOwnStream('engine.scan(stream)', stream);
    const opts = optionsObject('engine.scan(stream, options)', options, ['algorithm', 'exclusive', 'blockSize', 'radix']);
    const blockSize = opts.blockSize === undefined ? undefined : this.checkBlockSize('engine.scan(): options.blockSize', opts.blockSize, stream);
    const algorithm = oneOf('engine.scan(): options.algorithm', opts.algorithm, scanAlgorithms, defaultScan(blockSize));
    const exclusive = opts.exclusive === undefined ? false : opts.exclusive;
    if (typeof exclusive !== 'boolean') throw new Error(`engine.scan(): options.exclusive must be a boolean; got ${describe(exclusive)}`);
    const radix = this.checkRadix('engine.scan(): options.radix', opts.radix);

    const { layout, target } = stream;
    const input = { texture: target.texture, width: layout.width, height: layout.height, format: target.format };
    const floatValues = stream.type === 'float32';
    const { value: result, stats } = this.gpu.measure(() =>
      blockSize === undefined
        ? globalScan(this.gpu, input, { blockScan: blockScans[algorithm], floatValues, exclusive, radix, maxTextureSize: this.caps.maxTextureSize })
        : blockScans[algorithm](this.gpu, input, { blockLog2: log2Exact(blockSize), floatValues, exclusive, radix }),
    );
    this.lastScanStats = { ...stats, algorithm, radix: algorithm === 'recursive-doubling' ? radix : undefined, blockSize, exclusive };
    return this.adopt(new Stream(this, result, layout, stream.type, stream.components, stream.lengthIfKnown, this.copyLength(stream)));
  }

  compact(stream: Stream, options: CompactOptions): CompactResult {
    this.assertAlive('compact()');
    this.assertOwnStream('engine.compact(stream)', stream);
    const opts = optionsObject('engine.compact(stream, options)', options, ['keep', 'algorithm', 'blockSize', 'global', 'concat', 'output', 'scan', 'radix']);
    if (options === undefined) throw new Error("engine.compact(stream, options): options.keep is required, e.g. { keep: 'nonzero' }; got no options");
    const keep = parseKeepOption(opts.keep, stream.type);
    const requested = oneOf('engine.compact(): options.algorithm', opts.algorithm, ['jumping-jack', 'horn', 'auto'] as const, 'auto');
    const blockSize = this.checkBlockSize('engine.compact(): options.blockSize', opts.blockSize === undefined ? 256 : opts.blockSize, stream);
    const concatOption = oneOf('engine.compact(): options.concat', opts.concat, ['transform-feedback', 'vertex-fetch', 'auto'] as const, 'auto');
    const output = oneOf('engine.compact(): options.output', opts.output, ['values', 'indices'] as const, 'values');
    const scan = oneOf('engine.compact(): options.scan', opts.scan, scanAlgorithms, defaultScan(blockSize));
    const radix = this.checkRadix('engine.compact(): options.radix', opts.radix);
    const global = opts.global === undefined ? false : opts.global;
    if (typeof global !== 'boolean') throw new Error(`engine.compact(): options.global must be a boolean; got ${describe(global)}`);
    if (global && requested !== 'horn') {
      throw new Error(`engine.compact(): options.global applies to algorithm 'horn' only; got algorithm ${opts.algorithm === undefined ? "'auto' (the default): add algorithm: 'horn'" : describe(opts.algorithm)}`);
    }
    if (concatOption === 'transform-feedback' && !this.caps.transformFeedback) {
      throw new Error("engine.compact(): options.concat 'transform-feedback' is not available: this context's transform feedback failed the start-up probe (engine.caps.transformFeedback is false); use 'vertex-fetch' or 'auto'");
    }
    const keepFn = keepFunction(keep, stream.type);

    const algorithm: CompactionAlgorithm = global ? 'horn-global' : requested === 'auto' ? 'hybrid' : requested;
    const concat = global ? 'none' : concatOption === 'auto' ? (this.caps.transformFeedback ? 'transform-feedback' : 'vertex-fetch') : concatOption;
    const { value, stats } = this.gpu.measure(() =>
      compact(this.gpu, stream, {
        algorithm,
        blockLog2: log2Exact(blockSize),
        blockScan: blockScans[scan],
        concat,
        outputIndices: output === 'indices',
        keep: keepFn,
        maxTextureSize: this.caps.maxTextureSize,
        jumpingJackKept: {
          from: Math.ceil(HYBRID_JUMPING_JACK_KEPT_FRACTIONS.from * blockSize),
          to: Math.floor(HYBRID_JUMPING_JACK_KEPT_FRACTIONS.to * blockSize),
        },
        radix,
      }),
    );
    const { layout } = stream;
    const resultStream = this.adopt(
      new Stream(this, value.output, { ...layout, length: layout.capacity }, output === 'indices' ? 'uint32' : stream.type,
        output === 'indices' ? 1 : stream.components, undefined, value.count),
    );
    const compactStats: CompactStats = { ...stats, algorithm, requestedAlgorithm: requested, concat, blockSize: global ? undefined : blockSize, scan, radix, output };
    return new CompactResult(resultStream, compactStats);
  }

  /**
   * Resolves once the GPU has finished all work submitted so far: gl.finish() (which blocks in
   * headless-gl), then a one-texel readback through the context's read path (which in a browser
   * waits on a fence). For timing; results need no sync, reading them waits by itself. Note that
   * `result.count()` alone waits only for the passes the count depends on.
   */
  async finish(): Promise<void> {
    this.assertAlive('finish()');
    this.gpu.gl.finish();
    const probe = this.gpu.target(1, 1);
    try {
      await this.readTexels(probe, 1);
    } finally {
      probe.free();
    }
  }

  /**
   * GPU time of the work `run` submits, in milliseconds, from a TIME_ELAPSED timer query
   * (EXT_disjoint_timer_query_webgl2), polled between tasks; undefined where the context has no
   * timer (engine.caps.timerQuery false, e.g. headless-gl) or the measurement was disjoint.
   */
  async gpuTime(run: () => void): Promise<number | undefined> {
    this.assertAlive('gpuTime()');
    if (typeof run !== 'function') throw new Error(`engine.gpuTime(run): run must be a function that submits the GPU work to time; got ${describe(run)}`);
    const gl = this.gpu.gl;
    const ext = this.caps.timerQuery ? gl.getExtension('EXT_disjoint_timer_query_webgl2') : null;
    if (!ext) {
      run();
      return undefined;
    }
    const query = gl.createQuery()!;
    this.gpu.tracker.created('queries');
    try {
      gl.beginQuery(ext.TIME_ELAPSED_EXT, query);
      try {
        run();
      } finally {
        gl.endQuery(ext.TIME_ELAPSED_EXT);
      }
      gl.flush();
      while (!gl.getQueryParameter(query, gl.QUERY_RESULT_AVAILABLE)) {
        this.assertAlive('gpuTime()');
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      if (gl.getParameter(ext.GPU_DISJOINT_EXT)) return undefined;
      return (gl.getQueryParameter(query, gl.QUERY_RESULT) as number) / 1e6;
    } finally {
      this.gpu.release('queries', query);
    }
  }

  /** Frees the idle textures kept for reuse (see EngineOptions.texturePoolBytes). */
  trim(): void {
    this.assertAlive('trim()');
    this.gpu.pool.trim();
  }

  /** Bytes of idle texture memory kept for reuse. */
  get idleTextureBytes(): number {
    return this.gpu.pool.idleTextureBytes;
  }

  /** Frees every GL object the engine made (streams included). Idempotent; safe after context loss. */
  dispose(): void {
    if (this.disposed) return;
    for (const stream of [...this.streams]) stream.dispose('engine.dispose()');
    this.gpu.dispose();
    this.canvas?.removeEventListener('webglcontextlost', this.onContextLost);
    this.disposed = true;
  }

  // --- StreamOwner ---

  async readStream(stream: Stream): Promise<StreamData> {
    this.assertAlive('stream.read()');
    const length = await stream.readLength();
    const bits = await this.readTexels(stream.target, length);
    if (stream.type === 'float32') return new Float32Array(bits.buffer);
    if (stream.type === 'int32') return new Int32Array(bits.buffer);
    return bits;
  }

  async readLength(stream: Stream): Promise<number> {
    this.assertAlive('stream.readLength()');
    if (!stream.lengthTarget) throw new Error('internal: stream without a known length or length texture');
    return (await this.readTexels(stream.lengthTarget, 1))[0];
  }

  releaseStream(stream: Stream): void {
    this.streams.delete(stream);
  }

  // --- helpers ---

  private adopt(stream: Stream): Stream {
    this.streams.add(stream);
    return stream;
  }

  /** A scan of a stream whose length is still on the GPU keeps its own copy of that length. */
  private copyLength(stream: Stream): RenderTarget | undefined {
    if (stream.lengthIfKnown !== undefined || !stream.lengthTarget) return undefined;
    return copyTexel(this.gpu, stream.lengthTarget, 0, 0);
  }

  private async readTexels(target: RenderTarget, texels: number): Promise<Uint32Array> {
    const { asyncReadback, readPixelsRaisesError } = this.caps;
    const bits = asyncReadback
      ? await readBitsAsync(this.gpu, target, texels, readPixelsRaisesError)
      : readBits(this.gpu, target, texels, readPixelsRaisesError);
    this.assertAlive('read'); // a context lost during the read leaves garbage, not data
    return bits;
  }

  private assertAlive(what: string): void {
    if (this.disposed) throw new Error(`engine.${what}: this engine was disposed; create a new one with createEngine(gl)`);
    if (this.contextLost || this.gpu.gl.isContextLost()) {
      this.contextLost = true;
      throw new Error(`engine.${what}: the WebGL context was lost; its textures are gone. Create a new engine once the context is restored (webglcontextrestored)`);
    }
  }

  private assertOwnStream(what: string, stream: unknown): asserts stream is Stream {
    if (!(stream instanceof Stream)) {
      const hint = stream instanceof CompactResult ? ' (for a compaction\'s output, pass result.stream)' : '';
      throw new Error(`${what}: stream must be a Stream made by engine.stream(); got ${describe(stream)}${hint}`);
    }
    stream.assertAlive(what.replace(/^engine\./, ''));
    if (stream.owner !== this) throw new Error(`${what}: this stream belongs to another engine; streams cannot be shared between engines (each owns its GL objects)`);
  }

  private checkBlockSize(name: string, value: unknown, stream: Stream): number {
    if (typeof value !== 'number' || !isPowerOfTwo(value) || value < 16 || value > MAX_BLOCK_SIZE) {
      throw new Error(`${name} must be a power of two from 16 to ${MAX_BLOCK_SIZE}; got ${describe(value)}`);
    }
    if (value > stream.layout.width) {
      throw new Error(`${name} ${value} is larger than the stream's row width ${stream.layout.width}; blocks must fit in a row`);
    }
    return value;
  }

  private checkRadix(name: string, value: unknown): number {
    if (value === undefined) return DEFAULT_RADIX;
    if (typeof value !== 'number' || !radices.includes(value)) {
      throw new Error(`${name} must be one of ${radices.join(', ')}; got ${describe(value)}`);
    }
    return value;
  }
}

export function createEngine(gl: WebGL2RenderingContext, options?: EngineOptions): Engine {
  if (!isWebGL2(gl)) {
    throw new Error(`createEngine(gl): gl must be a WebGL2RenderingContext (canvas.getContext('webgl2')); got ${describe(gl)}`);
  }
  const opts = optionsObject('createEngine(gl, options)', options, ['texturePoolBytes']);
  const poolBytes = opts.texturePoolBytes;
  if (poolBytes !== undefined && (typeof poolBytes !== 'number' || !(poolBytes >= 0) || !Number.isFinite(poolBytes))) {
    throw new Error(`createEngine(gl, options): options.texturePoolBytes must be a number of bytes >= 0; got ${describe(poolBytes)}`);
  }
  return new Engine(gl, { texturePoolBytes: poolBytes as number | undefined });
}
