// A texture the engine renders into, with its framebuffer. Every pass writes one of these.
import * as twgl from 'twgl.js';
import type { ResourceTracker } from './resources.js';

export type TexelFormat = 'r32ui' | 'rgba32ui';

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

  get isFreed(): boolean {
    return this.freed;
  }

  free(): void {
    if (this.freed) return;
    this.freed = true;
    this.gl.deleteFramebuffer(this.framebuffer);
    this.tracker.deleted('framebuffers');
    this.gl.deleteTexture(this.texture);
    this.tracker.deleted('textures');
  }
}
