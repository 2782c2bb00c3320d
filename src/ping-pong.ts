// Two render targets that take turns: one is read while the other is written, then they swap
// (a texture cannot be sampled while it is the render target). Owns both halves.
import type { Gpu } from './gpu.js';
import type { RenderTarget, TexelFormat } from './render-target.js';

export class PingPong {
  private readonly targets: [RenderTarget, RenderTarget];
  private writeIndex = 0;
  private written = false;

  constructor(gpu: Gpu, width: number, height: number, format: TexelFormat) {
    this.targets = [gpu.target(width, height, format), gpu.target(width, height, format)];
  }

  /** The target the next pass writes. */
  get output(): RenderTarget {
    return this.targets[this.writeIndex];
  }

  /** Call after a pass wrote `output`: returns its texture (the next pass's input) and flips. */
  swap(): WebGLTexture {
    const written = this.targets[this.writeIndex];
    this.writeIndex ^= 1;
    this.written = true;
    return written.texture;
  }

  /** Hands the last written target to the caller and frees the other one. */
  takeResult(): RenderTarget {
    if (!this.written) throw new Error('internal: ping-pong result taken before any pass');
    const result = this.targets[this.writeIndex ^ 1];
    this.targets[this.writeIndex].free();
    return result;
  }

  /** Frees both halves (on failure). */
  free(): void {
    for (const target of this.targets) target.free();
  }
}
