// Two render targets that take turns: one is read while the other is written, then they swap
// (a texture cannot be sampled while it is the render target). Both halves belong to the scope
// that made them; the caller keeps `result` and the scope frees the other half.
import type { Scope } from './gpu.js';
import type { RenderTarget } from './render-target.js';
import type { TexelFormat } from './texel-format.js';

export class PingPong {
  private readonly targets: [RenderTarget, RenderTarget];
  private writeIndex = 0;
  private written = false;

  constructor(scope: Scope, width: number, height: number, format: TexelFormat) {
    this.targets = [scope.target(width, height, format), scope.target(width, height, format)];
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

  /** The last written target. */
  get result(): RenderTarget {
    if (!this.written) throw new Error('internal: ping-pong result taken before any pass');
    return this.targets[this.writeIndex ^ 1];
  }
}
