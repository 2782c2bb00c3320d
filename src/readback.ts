// Reading streams back to the CPU: the context's read path (fenced pixel-pack buffer in browsers,
// readPixels in headless-gl, adapter.ts), then the bits reinterpreted in the stream's own type.
import packFour from '../glsl/pack-four.frag';
import { readBits, readBitsAsync } from './adapter.js';
import type { Capabilities } from './capabilities.js';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import type { StreamData, StreamView } from './stream.js';
import { nextPowerOfTwo } from './layout.js';
import { texelFormats } from './texel-format.js';

export class Readback {
  constructor(
    private readonly gpu: Gpu,
    private readonly caps: Capabilities,
    /** Throws if the engine was disposed or the context lost (checked again after every wait). */
    private readonly assertAlive: (what: string) => void,
  ) {}

  /**
   * The first `texels` texels of `target`, `components` words each: in `into` (exactly that many
   * words) when given, else in a new array that owns exactly its buffer. One-word texels are packed four to an RGBA32UI texel on the GPU first
   * (glsl/pack-four.frag), so the read moves no padding words and no JS loop picks the words out.
   */
  async texels(target: RenderTarget, texels: number, into?: Uint32Array): Promise<Uint32Array> {
    const words = texels * target.format.components;
    if (target.format.components !== 1 || target.width % 4 !== 0 || texels <= 4) return this.read(target, words, into);
    const { gpu } = this;
    const rows = Math.ceil(texels / target.width);
    const packed = gpu.guard.run(() => gpu.scope((scope) => {
      // The packed target's height is rounded up to a power of two (at most the source's), and the
      // pass draws only the rows read: a compaction's output has a new length every time, and a
      // target of exactly its rows missed the texture pool on every read (a new texture, which WebGL
      // clears, and the pool filled with odd sizes, evicting the passes' own targets).
      const height = Math.min(target.height, nextPowerOfTwo(rows));
      const out = scope.target(target.width / 4, height, texelFormats.rgba32ui);
      const drawn = { framebuffer: out.framebuffer, width: out.width, height: rows };
      gpu.pass(gpu.program({ name: 'pack-four.frag', fragment: packFour }), drawn, { u_source: target.texture });
      return scope.keep(out);
    }));
    try {
      return await this.read(packed, words, into);
    } finally {
      packed.free();
    }
  }

  /** `words` words of `target` (adapter.ts says which), through the context's read path. */
  private async read(target: RenderTarget, words: number, into?: Uint32Array): Promise<Uint32Array> {
    const { asyncReadback, readPixelsRaisesError } = this.caps;
    const bits = asyncReadback
      ? await readBitsAsync(this.gpu, target, words, readPixelsRaisesError, into)
      : readBits(this.gpu, target, words, readPixelsRaisesError, into);
    this.assertAlive('read'); // a context lost during the read leaves garbage, not data
    return bits;
  }

  /**
   * The stream's elements: into `into` (exactly the stream's words, a view of the caller's array)
   * when given, else in a new array of exactly the stream's words that owns its buffer (users
   * rightly reinterpret `.buffer`): the typed array of the stream's type is a view of it, no copy.
   */
  async stream(stream: StreamView, into?: Uint32Array): Promise<StreamData> {
    this.assertAlive('stream.read()');
    const bits = await this.texels(stream.target, stream.length ?? (await this.length(stream)), into);
    if (into) return bits;
    if (stream.type === 'float32') return new Float32Array(bits.buffer);
    if (stream.type === 'int32') return new Int32Array(bits.buffer);
    return bits;
  }

  async length(stream: StreamView): Promise<number> {
    this.assertAlive('stream.readLength()');
    if (!stream.lengthTarget) throw new Error('internal: stream without a known length or length texture');
    return (await this.texels(stream.lengthTarget, 1))[0];
  }
}
