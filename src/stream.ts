// A stream of elements living in a texture (layout.ts). Values are stored as raw 32-bit patterns
// in an R32UI/RGBA32UI texture, whatever the element type, so moving them is always bit-exact.
import type { Layout } from './layout.js';
import type { RenderTarget } from './render-target.js';
import type { TexelFormat } from './texel-format.js';
import { describe } from './validate.js';

/** A stream's element type (`stream.type`), named after the typed array it was made from. */
export type ElementType = 'float32' | 'uint32' | 'int32';
/** The typed arrays a stream is made from (`engine.stream(data)`) and read back as (`stream.read()`). */
export type StreamData = Float32Array | Uint32Array | Int32Array;
/**
 * The plain typed-array type of `T`: `Float32Array` for any Float32Array (whatever its buffer type),
 * and so on; a union maps member by member. `engine.stream(data)` returns a `Stream<StreamDataOf<typeof data>>`.
 */
export type StreamDataOf<T extends StreamData> = T extends Float32Array ? Float32Array : T extends Uint32Array ? Uint32Array : T extends Int32Array ? Int32Array : never;

/**
 * @internal What a stream needs from the engine that made it: reading its texels back, and being
 * forgotten when disposed.
 */
export interface StreamOwner {
  /** The stream's words, into `into` (exactly length × components words of it) when given. */
  readStream(stream: StreamView, into?: Uint32Array): Promise<StreamData>;
  readLength(stream: StreamView): Promise<number>;
  /** A new 1×1 R32UI target holding `length` (for `stream.lengthTexture` of a stream whose length the CPU knows). */
  lengthTarget(length: number, what: string): RenderTarget;
  releaseStream(stream: Stream): void;
}

/** @internal The engine's view of a stream: what the passes read. */
export interface StreamView {
  readonly target: RenderTarget;
  readonly layout: Layout;
  readonly type: ElementType;
  readonly format: TexelFormat;
  /** Undefined while the length is only on the GPU, in `lengthTarget`. */
  readonly length: number | undefined;
  /**
   * A 1×1 texture holding the length: always for a compaction's output (the count the GPU computed),
   * and for other streams once `stream.lengthTexture` was asked for. The passes use it only while
   * `length` is undefined.
   */
  readonly lengthTarget: RenderTarget | undefined;
}

/**
 * @internal A stream's length as the passes read it (glsl/stream-length.glsl): `u_length`, or `u_lengthTexture`
 * where the length is only on the GPU (the passes' LENGTH_FROM_TEXTURE define).
 */
export function lengthUniforms(view: Pick<StreamView, 'length' | 'lengthTarget'>): { u_length: number } | { u_lengthTexture: WebGLTexture } {
  return view.length === undefined ? { u_lengthTexture: view.lengthTarget!.texture } : { u_length: view.length };
}

interface StreamState {
  owner: StreamOwner;
  target: RenderTarget;
  format: TexelFormat;
  length: number | undefined;
  lengthTarget: RenderTarget | undefined;
  /** Other targets that live and die with the stream (a partition's kept count). */
  companions?: RenderTarget[];
  disposed: boolean;
  /** What disposed the stream, when it was not stream.dispose() itself (for error messages). */
  disposedBy: string;
}

// The engine's handles live here, outside the class, so the public type shows only the public API.
const states = new WeakMap<Stream, StreamState>();

function stateOf(stream: Stream): StreamState {
  const state = states.get(stream);
  if (!state) throw new Error('internal: not a stream made by an engine');
  return state;
}

/**
 * Elements in a texture on the GPU, made by `engine.stream(data)`, `engine.scan()` and
 * `engine.compact()` (as `result.stream`); never with `new`. `T` is the typed array that
 * {@link Stream.read} returns: the type of the data given to `engine.stream()`, or `Uint32Array` for
 * a compaction with `output: 'indices'`. The stream belongs to its engine and is freed by
 * {@link Stream.dispose} or `engine.dispose()`.
 *
 * @typeParam T - `Float32Array`, `Uint32Array` or `Int32Array` (a union where that is not known).
 */
export class Stream<T extends StreamData = StreamData> {
  /** The layout as made: its length is the capacity while the length is on the GPU. */
  readonly #layout: Layout;
  /** The same layout with the length read back (made once, when it differs). */
  #knownLayout: Layout | undefined;
  /** The element type: 'float32', 'uint32' or 'int32', as the typed array `T`. */
  readonly type: ElementType;
  /** Components per element: 1 (scalars) or 4 (vec4s). */
  readonly components: 1 | 4;

  /** @internal Streams are made by `engine.stream()`, `engine.scan()` and `engine.compact()`. */
  constructor(state: Omit<StreamState, 'disposed' | 'disposedBy'>, layout: Layout, type: ElementType) {
    states.set(this, { ...state, disposed: false, disposedBy: '' });
    this.#layout = layout;
    this.type = type;
    this.components = state.format.components;
  }

  /**
   * Where the elements sit: element i at texel (i mod width, i div width) of `texture`, width a
   * power of two (widthLog2). `layout.length` equals `length` once that is known on the CPU; while the
   * length is only on the GPU (a compaction's output before `count()`), it is the capacity.
   */
  get layout(): Layout {
    const length = states.get(this)?.length;
    if (length === undefined || length === this.#layout.length) return this.#layout;
    if (this.#knownLayout?.length !== length) this.#knownLayout = { ...this.#layout, length };
    return this.#knownLayout;
  }

  /**
   * The R32UI (1 component) or RGBA32UI (4 components) texture holding the elements as raw 32-bit
   * patterns, for your own passes: sample it with a usampler2D and texelFetch, or render into it
   * (texels past the length must stay 0). The engine owns it: it is freed by dispose().
   */
  get texture(): WebGLTexture {
    return checkedState(this, 'stream.texture').target.texture;
  }

  /**
   * A 1×1 R32UI texture whose one texel (red) holds the stream's length, for shaders that draw or
   * process the stream with no readback: `glcompactLength()` in `streamGlsl` reads it. For a
   * compaction's output it is the count the GPU computed (it never has to reach the CPU); for a stream
   * whose length the CPU knows it is made on first use (one 1×1 upload). Owned by the engine and freed
   * with the stream; sample it, never render into it or delete it.
   */
  get lengthTexture(): WebGLTexture {
    const state = checkedState(this, 'stream.lengthTexture');
    state.lengthTarget ??= state.owner.lengthTarget(state.length!, 'stream.lengthTexture');
    return state.lengthTarget.texture;
  }

  /**
   * Number of elements (a 4-component stream of n elements reads back as 4·n numbers). A
   * compaction's output knows it only after `await result.count()` (or `await stream.readLength()`):
   * before that, reading `length` throws ("stream.length is not known yet: it is on the GPU; …").
   * The engine itself never needs it on the CPU: pass the stream on, or draw it with
   * {@link Stream.lengthTexture}.
   * @throws Error while the length is only on the GPU, or once the stream or its engine is disposed.
   */
  get length(): number {
    const { length } = checkedState(this, 'stream.length');
    if (length === undefined) {
      throw new Error('stream.length is not known yet: it is on the GPU; await result.count() or stream.readLength() first');
    }
    return length;
  }

  /** The number of elements, read back from the GPU if needed (one texel). */
  async readLength(): Promise<number> {
    const state = checkedState(this, 'stream.readLength()');
    if (state.length === undefined) state.length = await state.owner.readLength(viewOf(this));
    return state.length;
  }

  /**
   * The elements, `components` numbers each, copied back to the CPU into a new typed array of the
   * stream's own type (bit-exact: NaN payloads and -0 survive), or into `into`. Reads the length
   * first if it is still on the GPU. A browser context reads without blocking (fenced pixel-pack
   * buffer); headless-gl blocks.
   * @param into - Optional: an array of the stream's own type (`Float32Array` for a float32 stream,
   * and so on) with room for at least `length × components` numbers, to read into instead of a new
   * array. For repeated reads of large streams: a new array's memory is mapped by the OS page by page
   * as the read first writes it, which costs several times the read itself on a large stream (2^24
   * float32: ~50 ms against ~9 ms into memory used before, llvmpipe host, bench/read-probe.ts). The
   * elements land at its start and the numbers past them are left as they were; do not use it until
   * the promise resolves.
   * @returns A new array of exactly the elements; with `into`, `into` itself when its length is
   * exactly that, else a view of its start (`into.subarray(0, length × components)`).
   * @throws Error if the stream or its engine was disposed, the WebGL context was lost, or `into` is
   * not an array of the stream's type or is too short (nothing is read then).
   * @example
   * ```ts
   * const values: Float32Array = await engine.stream(new Float32Array([1, 0, 2])).read();
   * const reused = new Float32Array(capacity); // once
   * const kept = await result.stream.read(reused); // every frame: a view of reused
   * ```
   */
  async read(into?: T): Promise<T> {
    checkedState(this, 'stream.read()');
    if (into !== undefined) checkInto(this, into);
    await this.readLength();
    const state = checkedState(this, 'stream.read()');
    if (into === undefined) return (await state.owner.readStream(viewOf(this))) as T;
    const words = state.length! * this.components;
    if (into.length < words) {
      throw new Error(`stream.read(into): into has room for ${into.length} numbers; this stream's ${state.length} elements × ${this.components} components need ${words}`);
    }
    await state.owner.readStream(viewOf(this), new Uint32Array(into.buffer, into.byteOffset, words));
    return (into.length === words ? into : into.subarray(0, words)) as T;
  }

  /** Whether {@link Stream.dispose} (or `engine.dispose()`) freed this stream. */
  get isDisposed(): boolean {
    return stateOf(this).disposed;
  }

  /** Frees the stream's textures. Idempotent. */
  dispose(): void {
    disposeStream(this, '');
  }
}

const arrayTypes = { float32: Float32Array, uint32: Uint32Array, int32: Int32Array } as const;

/** `into` of stream.read(into): a typed array of the stream's own type (its bits are the stream's words). */
function checkInto(stream: Stream, into: unknown): void {
  const type = arrayTypes[stream.type];
  if (!(into instanceof type)) {
    throw new Error(`stream.read(into): into must be a ${type.name} (the stream's type is ${stream.type}), or left out for a new array; got ${describe(into)}`);
  }
}

function checkedState(stream: Stream, what: string): StreamState {
  const state = stateOf(stream);
  if (state.disposed) throw new Error(`${what}: this stream was disposed${state.disposedBy}; create a new one with engine.stream()`);
  return state;
}

/** @internal Why the stream is gone ('' for stream.dispose(), ' by engine.dispose()', ...), or undefined while it is alive. */
export function disposedReason(stream: Stream): string | undefined {
  const state = stateOf(stream);
  return state.disposed ? state.disposedBy : undefined;
}

/** @internal Throws if the stream was disposed, naming the call that was attempted (`what`). */
export function assertStreamAlive(stream: Stream, what: string): void {
  checkedState(stream, what);
}

/** @internal The engine that made the stream. */
export function ownerOf(stream: Stream): StreamOwner {
  return stateOf(stream).owner;
}

/** @internal What the passes read of a stream. */
export function viewOf(stream: Stream): StreamView {
  const state = stateOf(stream);
  return { target: state.target, layout: stream.layout, type: stream.type, format: state.format, length: state.length, lengthTarget: state.lengthTarget };
}

/** @internal Disposes a stream; `by` names what did it (e.g. 'engine.dispose()') in later errors. */
export function disposeStream(stream: Stream, by: string): void {
  const state = stateOf(stream);
  if (state.disposed) return;
  state.disposed = true;
  if (by) state.disposedBy = ` by ${by}`;
  state.target.free();
  state.lengthTarget?.free();
  for (const companion of state.companions ?? []) companion.free();
  state.owner.releaseStream(stream);
}
