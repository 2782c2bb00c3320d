// Reading streams back to the CPU: the context's read path (fenced pixel-pack buffer in browsers,
// readPixels in headless-gl, adapter.ts), then the bits reinterpreted in the stream's own type.
import { readBits, readBitsAsync } from './adapter.js';
import type { Capabilities } from './capabilities.js';
import type { Gpu } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import type { StreamData, StreamView } from './stream.js';

export class Readback {
  constructor(
    private readonly gpu: Gpu,
    private readonly caps: Capabilities,
    /** Throws if the engine was disposed or the context lost (checked again after every wait). */
    private readonly assertAlive: (what: string) => void,
  ) {}

  /** The first `texels` texels of `target`, `components` words each. */
  async texels(target: RenderTarget, texels: number): Promise<Uint32Array> {
    const { asyncReadback, readPixelsRaisesError } = this.caps;
    const bits = asyncReadback
      ? await readBitsAsync(this.gpu, target, texels, readPixelsRaisesError)
      : readBits(this.gpu, target, texels, readPixelsRaisesError);
    this.assertAlive('read'); // a context lost during the read leaves garbage, not data
    return bits;
  }

  async stream(stream: StreamView): Promise<StreamData> {
    this.assertAlive('stream.read()');
    const bits = await this.texels(stream.target, stream.length ?? (await this.length(stream)));
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
