// A texture the engine renders into, with its framebuffer. Every pass writes one of these. Most are
// one 2D texture; a layered target is a TEXTURE_2D_ARRAY whose layers are the framebuffer's colour
// attachments 0, 1, ..., so one fragment writes one texel in each layer (the scans' lanes,
// scan/reduce-then-scan.ts: one draw moves 4 elements per layer and fragment). A target may also
// have a companion: a 2D texture of the same size in another format, attached after the layers
// (the sort's select writes its pairs to 4 RGBA32UI layers and the next digit's bit planes, a word
// per texel, to an R32UI companion: src/sort.ts SORT_SELECT.planesTexture). It lives and is pooled
// with the target, so a pass into both binds one framebuffer set up once, not attachments per draw.
import type { ResourceTracker } from './resources.js';
import type { TargetFormat } from './texel-format.js';

/** Where a freed target goes: back to the engine's pool (see texture-pool.ts), or destroyed. */
export interface TargetRecycler {
  recycle(target: RenderTarget): void;
}

export class RenderTarget {
  readonly texture: WebGLTexture;
  readonly framebuffer: WebGLFramebuffer;
  /** The companion texture (attachment `layers`), where the target was made with one. */
  readonly companion: WebGLTexture | undefined;
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
    readonly format: TargetFormat,
    /** 1: a TEXTURE_2D; more: a TEXTURE_2D_ARRAY of that many layers, each a colour attachment. */
    readonly layers: number = 1,
    private readonly recycler?: TargetRecycler,
    /** The companion texture's format (attachment `layers`), or none. */
    readonly companionFormat?: TargetFormat,
  ) {
    const height = allocatedHeight;
    this.height = height;
    // Raw GL rather than twgl: twgl's texture setup sets WebGL-only unpack parameters that
    // headless-gl rejects (INVALID_ENUM left queued after every new target), and it needs none of them.
    const texture = gl.createTexture();
    const framebuffer = gl.createFramebuffer();
    const companion = companionFormat ? gl.createTexture() : null;
    if (!texture || !framebuffer || (companionFormat && !companion)) {
      gl.deleteTexture(texture);
      gl.deleteTexture(companion);
      gl.deleteFramebuffer(framebuffer);
      throw new Error('could not create a texture or framebuffer (is the context lost?)');
    }
    this.texture = texture;
    this.framebuffer = framebuffer;
    this.companion = companion ?? undefined;
    try {
      allocate(gl, texture, format, width, height, layers);
      if (companion && companionFormat) allocate(gl, companion, companionFormat, width, height, 1);
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      if (layers > 1) {
        for (let layer = 0; layer < layers; layer++) gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + layer, texture, 0, layer);
      } else {
        gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
      }
      if (companion) gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + layers, gl.TEXTURE_2D, companion, 0);
      // Draw buffers are the framebuffer's own state: set once here, never by a pass.
      const attachments = layers + (companion ? 1 : 0);
      if (attachments > 1) gl.drawBuffers(Array.from({ length: attachments }, (_, i) => gl.COLOR_ATTACHMENT0 + i));
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    } catch (error) {
      // A context that throws here (a wrapper enforcing a device's limits, as the tests' phone
      // profile does) must not leave the objects behind: the caller never gets them to free.
      gl.deleteFramebuffer(framebuffer);
      gl.deleteTexture(texture);
      gl.deleteTexture(companion);
      throw error;
    }
    // Completeness is not asked here (checkFramebufferStatus is a sync point in a browser, and pool
    // targets of new sizes appear in steady state): the capability probe renders into every format
    // at createEngine, and debug mode checks the target of every draw. RGBA32UI layers with an
    // R32UI companion (the sort's select target) are probed by a pass writing both
    // (capabilities.ts, engine.caps.mixedFormatAttachments): OpenGL ES 3.0 lets a driver refuse a
    // combination of formats as FRAMEBUFFER_UNSUPPORTED, and the sort does without a companion there.
    tracker.created('textures');
    if (companion) tracker.created('textures');
    tracker.created('framebuffers');
  }

  /** Bytes of texture memory. */
  get bytes(): number {
    return this.width * this.allocatedHeight * (this.layers * this.format.bytesPerTexel + (this.companionFormat?.bytesPerTexel ?? 0));
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
    if (this.companion) {
      this.gl.deleteTexture(this.companion);
      this.tracker.deleted('textures');
    }
  }
}

/** Storage for `texture` (a TEXTURE_2D, or with `layers` > 1 a TEXTURE_2D_ARRAY) and its sampling. */
function allocate(gl: WebGL2RenderingContext, texture: WebGLTexture, format: TargetFormat, width: number, height: number, layers: number): void {
  const kind = layers > 1 ? gl.TEXTURE_2D_ARRAY : gl.TEXTURE_2D;
  gl.bindTexture(kind, texture);
  if (layers > 1) gl.texStorage3D(kind, 1, format.internalFormat, width, height, layers);
  else gl.texStorage2D(kind, 1, format.internalFormat, width, height);
  // NEAREST for both filters: integer textures are incomplete with LINEAR, and texelFetch on an
  // incomplete texture silently returns 0.
  gl.texParameteri(kind, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(kind, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(kind, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(kind, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  gl.bindTexture(kind, null);
}
