// A texture the engine renders into, with its framebuffer. Every pass writes one of these.
import * as twgl from 'twgl.js';
import type { ResourceTracker } from './resources.js';

export type TexelFormat = 'r32ui' | 'rgba32ui';

/** Where a freed target goes: back to the engine's pool (see texture-pool.ts), or destroyed. */
export interface TargetRecycler {
  recycle(target: RenderTarget): void;
}

export class RenderTarget {
  readonly texture: WebGLTexture;
  readonly framebuffer: WebGLFramebuffer;
  private freed = false;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly tracker: ResourceTracker,
    readonly width: number,
    readonly height: number,
    readonly format: TexelFormat,
    private readonly recycler?: TargetRecycler,
  ) {
    // NEAREST for both filters: integer textures are incomplete with LINEAR, and texelFetch on an
    // incomplete texture silently returns 0.
    this.texture = twgl.createTexture(gl, {
      width,
      height,
      internalFormat: format === 'r32ui' ? gl.R32UI : gl.RGBA32UI,
      minMag: gl.NEAREST,
      wrap: gl.CLAMP_TO_EDGE,
      auto: false,
    });
    tracker.created('textures');
    this.framebuffer = twgl.createFramebufferInfo(gl, [{ attachment: this.texture }], width, height).framebuffer;
    tracker.created('framebuffers');
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  get components(): 1 | 4 {
    return this.format === 'r32ui' ? 1 : 4;
  }

  /** Bytes of texture memory. */
  get bytes(): number {
    return this.width * this.height * 4 * this.components;
  }

  /** The owner is done with it: back to the pool (contents undefined), or destroyed. */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    if (this.recycler) this.recycler.recycle(this);
    else this.destroy();
  }

  /** @internal The pool hands a recycled target out again. */
  reuse(): this {
    this.freed = false;
    return this;
  }

  /** Deletes the GL objects. */
  destroy(): void {
    this.freed = true;
    this.gl.deleteFramebuffer(this.framebuffer);
    this.tracker.deleted('framebuffers');
    this.gl.deleteTexture(this.texture);
    this.tracker.deleted('textures');
  }
}
