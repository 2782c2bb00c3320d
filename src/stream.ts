// A stream of elements living in a texture (layout.ts). Values are stored as raw 32-bit patterns
// in an R32UI/RGBA32UI texture, whatever the element type, so moving them is always bit-exact.
import type { Layout } from './layout.js';
import type { RenderTarget } from './render-target.js';

export type ElementType = 'float32' | 'uint32' | 'int32';
export type StreamData = Float32Array | Uint32Array | Int32Array;

/** What a stream needs from the engine that made it. */
export interface StreamOwner {
  readStream(stream: Stream): Promise<StreamData>;
  readLength(stream: Stream): Promise<number>;
  releaseStream(stream: Stream): void;
}

export class Stream {
  private disposed = false;
  /** What disposed the stream, when it was not stream.dispose() itself (for error messages). */
  private disposedBy = '';

  /** @internal Streams are made by `engine.stream()`, `engine.scan()` and `engine.compact()`. */
  constructor(
    /** @internal */ readonly owner: StreamOwner,
    /** @internal */ readonly target: RenderTarget,
    /**
     * Where the elements sit: element i at texel (i mod width, i div width) of `texture`, width a
     * power of two (widthLog2). `layout.length` is the capacity while the length is on the GPU.
     */
    readonly layout: Layout,
    readonly type: ElementType,
    readonly components: 1 | 4,
    private knownLength: number | undefined,
    /** @internal A 1×1 texture holding the length, for results whose count was not read yet. */
    readonly lengthTarget?: RenderTarget,
  ) {}

  /**
   * Number of elements. A compaction's output knows it only after `await result.count()` (or
   * `await stream.readLength()`); the engine itself never needs it on the CPU.
   */
  /**
   * The R32UI (1 component) or RGBA32UI (4 components) texture holding the elements as raw 32-bit
   * patterns, for your own passes: sample it with a usampler2D and texelFetch, or render into it
   * (texels past the length must stay 0). The engine owns it: it is freed by dispose().
   */
  get texture(): WebGLTexture {
    this.assertAlive('texture');
    return this.target.texture;
  }

  get length(): number {
    this.assertAlive('length');
    if (this.knownLength === undefined) {
      throw new Error('stream.length is not known yet: it is on the GPU; await result.count() or stream.readLength() first');
    }
    return this.knownLength;
  }

  /** @internal */
  get lengthIfKnown(): number | undefined {
    return this.knownLength;
  }

  /** The number of elements, read back from the GPU if needed (one texel). */
  async readLength(): Promise<number> {
    this.assertAlive('readLength()');
    if (this.knownLength === undefined) this.knownLength = await this.owner.readLength(this);
    return this.knownLength;
  }

  /** Elements per texel's worth of values: 1 or 4 components each. */
  async read(): Promise<StreamData> {
    this.assertAlive('read()');
    await this.readLength();
    return this.owner.readStream(this);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Frees the stream's textures. Idempotent. */
  dispose(): void;
  /** @internal `by`: what disposed it, e.g. 'engine.dispose()', named in later errors. */
  dispose(by: string): void;
  dispose(by?: string): void {
    if (this.disposed) return;
    this.disposed = true;
    if (by) this.disposedBy = ` by ${by}`;
    this.target.free();
    this.lengthTarget?.free();
    this.owner.releaseStream(this);
  }

  /** @internal */
  assertAlive(what: string): void {
    if (this.disposed) throw new Error(`stream.${what}: this stream was disposed${this.disposedBy}; create a new one with engine.stream()`);
  }
}
