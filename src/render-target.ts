// A texture the engine renders into, with its framebuffer. Every pass writes one of these.
import type { ResourceTracker } from './resources.js';
import type { TexelFormat } from './texel-format.js';

/** Where a freed target goes: back to the engine's pool (see texture-pool.ts), or destroyed. */
export interface TargetRecycler {
  recycle(target: RenderTarget): void;
}

export class RenderTarget {
  readonly texture: WebGLTexture;
  readonly framebuffer: WebGLFramebuffer;
  /**
   * Rows in use: the passes draw and read rows [0, height). The texture may have more
   * (`allocatedHeight`: the pool rounds heights up to size classes so that streams of changing
   * lengths reuse textures); rows past `height` are never read.
   */
  height: number;
  private freed = false;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly tracker: ResourceTracker,
    readonly width: number,
    /** Rows of the texture itself. */
    readonly allocatedHeight: number,
    readonly format: TexelFormat,
    private readonly recycler?: TargetRecycler,
  ) {
    const height = allocatedHeight;
    this.height = height;
    // Raw GL rather than twgl: twgl's texture setup sets WebGL-only unpack parameters that
    // headless-gl rejects (INVALID_ENUM left queued after every new target), and it needs none of them.
    const texture = gl.createTexture();
    const framebuffer = gl.createFramebuffer();
    if (!texture || !framebuffer) {
      gl.deleteTexture(texture);
      gl.deleteFramebuffer(framebuffer);
      throw new Error('could not create a texture or framebuffer (is the context lost?)');
    }
    this.texture = texture;
    this.framebuffer = framebuffer;
    try {
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.texStorage2D(gl.TEXTURE_2D, 1, format.internalFormat, width, height);
      // NEAREST for both filters: integer textures are incomplete with LINEAR, and texelFetch on an
      // incomplete texture silently returns 0.
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      gl.bindTexture(gl.TEXTURE_2D, null);
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    } catch (error) {
      // A context that throws here (a wrapper enforcing a device's limits, as the tests' phone
      // profile does) must not leave the two objects behind: the caller never gets them to free.
      gl.deleteFramebuffer(framebuffer);
      gl.deleteTexture(texture);
      throw error;
    }
    // Completeness is not asked here (checkFramebufferStatus is a sync point in a browser, and pool
    // targets of new sizes appear in steady state): the capability probe renders into every format
    // at createEngine, and debug mode checks the target of every draw.
    tracker.created('textures');
    tracker.created('framebuffers');
  }

  /** Bytes of texture memory. */
  get bytes(): number {
    return this.width * this.allocatedHeight * this.format.bytesPerTexel;
  }

  /** The owner is done with it: back to the pool (contents undefined), or destroyed. */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    if (this.recycler) this.recycler.recycle(this);
    else this.destroy();
  }

  /** @internal The pool hands a target out (again), for `height` rows of its texture. */
  reuse(height: number): this {
    if (height > this.allocatedHeight) throw new Error(`internal: ${height} rows asked of a target of ${this.allocatedHeight}`);
    this.freed = false;
    this.height = height;
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
