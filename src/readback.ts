// Reading streams back to the CPU: the context's read path (fenced pixel-pack buffer in browsers,
// readPixels in headless-gl, adapter.ts), then the bits reinterpreted in the stream's own type.
import packFour from '../glsl/pack-four.frag';
import { readBits, readBitsAsync } from './adapter.js';
import type { Capabilities } from './capabilities.js';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import type { StreamData, StreamView } from './stream.js';
import { texelFormats } from './texel-format.js';

export class Readback {
  constructor(
    private readonly gpu: Gpu,
    private readonly caps: Capabilities,
    /** Throws if the engine was disposed or the context lost (checked again after every wait). */
    private readonly assertAlive: (what: string) => void,
  ) {}

  /**
   * The first `texels` texels of `target`, `components` words each. One-word texels are packed four
   * to an RGBA32UI texel on the GPU first (glsl/pack-four.frag), so the read moves no padding words
   * and no JS loop picks the words out.
   */
  async texels(target: RenderTarget, texels: number): Promise<Uint32Array> {
    if (target.format.components !== 1 || target.width % 4 !== 0 || texels <= 4) return this.read(target, texels);
    const { gpu } = this;
    const packed = gpu.guard.run(() => gpu.scope((scope) => {
      const out = scope.target(target.width / 4, Math.ceil(texels / target.width), texelFormats.rgba32ui);
      gpu.pass(gpu.program({ name: 'pack-four.frag', fragment: packFour }), out, { u_source: target.texture });
      return scope.keep(out);
    }));
    try {
      return (await this.read(packed, Math.ceil(texels / 4))).subarray(0, texels);
    } finally {
      packed.free();
    }
  }

  private async read(target: RenderTarget, texels: number): Promise<Uint32Array> {
    const { asyncReadback, readPixelsRaisesError } = this.caps;
    const bits = asyncReadback
      ? await readBitsAsync(this.gpu, target, texels, readPixelsRaisesError)
      : readBits(this.gpu, target, texels, readPixelsRaisesError);
    this.assertAlive('read'); // a context lost during the read leaves garbage, not data
    return bits;
  }

  async stream(stream: StreamView): Promise<StreamData> {
    this.assertAlive('stream.read()');
    const read = await this.texels(stream.target, stream.length ?? (await this.length(stream)));
    // Whole rows were read: hand the caller an array that owns exactly its buffer (users rightly
    // reinterpret `.buffer`); one memcpy, far cheaper than the read itself.
    const bits = read.byteOffset === 0 && read.byteLength === read.buffer.byteLength ? read : read.slice();
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
