// Sharing a WebGL2 context politely: the engine SETS the state its passes depend on, and RESTORES the
// app's state when it hands the context back. An app (three.js, twgl) leaves anything behind between
// frames (a scissor box, face culling, a partial colour mask, UNPACK_FLIP_Y...), and caches what it set
// itself, so it draws nothing or garbage if the engine leaves its own framebuffer, viewport or program
// bound.
//
// Without asking the context: getParameter/isEnabled are sync points in a browser (each waits for the
// GPU process to drain what the app queued), so the state comes from context-state.ts, a shadow kept up
// to date by interceptors on the context's setters. Cost per public call: one comparison per item below,
// a GL call only for an item the app left different (three.js's leftovers: two or three), and on exit
// one call per slot the engine changed and the app had different (framebuffer, viewport, program,
// vertex array, the texture units it used).
//
// headless-gl 9.0.0-rc.10: PACK_ROW_LENGTH/PACK_SKIP_* make its readPixels copy past the end of the
// array (heap corruption, abort) and UNPACK_FLIP_Y with integer uploads segfaults; this guard resets
// them before any engine read or upload, which is why every engine entry point must run inside it.
import { bufferSlot, capabilitySlot, ContextState, pixelStoreSlot, Slot, trackedCapabilities, trackedPixelStore } from './context-state.js';

type Gl = WebGL2RenderingContext;

export interface GlStateOptions {
  /**
   * true (default): save the app's state when a public call begins and restore it when it ends.
   * false: for apps that manage GL state themselves (e.g. call three.js `renderer.resetState()`): the
   * engine still sets the state it depends on, but saves and restores nothing.
   */
  preserve?: boolean;
}

/** The state the engine's passes depend on, and the value each must have (set on every public call). */
const dependsOn: ReadonlyArray<{ name: string; slot: number; required: unknown }> = [
  // A scissor box clips every pass AND clearBufferuiv: texels outside it keep stale values (wrong
  // counts, wrong scans), silently.
  // The fullscreen triangle is culled by FRONT_AND_BACK, or by frontFace(CW) + BACK (three.js leaves
  // both after a BackSide material): the pass writes nothing.
  // The engine's framebuffers have no depth or stencil attachment, so those tests pass anyway; kept
  // off so that a target with such an attachment (or a driver that gets this wrong) cannot drop
  // fragments. Blending is ignored for the integer targets, but not for float or RGBA8 ones.
  // RASTERIZER_DISCARD left on by an app's (or an aborted) transform-feedback pass discards every draw
  // AND clear. POLYGON_OFFSET_FILL only moves depth values; SAMPLE_* only act on multisampled targets
  // (the engine's are single-sampled): off so that they never matter.
  ...trackedCapabilities.map((name, i) => ({ name, slot: capabilitySlot(i), required: false })),
  // Concatenation draws one-texel-wide lines; a wider line (llvmpipe under headless-gl accepts up to
  // 255) also covers the neighbouring rows' texels.
  { name: 'LINE_WIDTH', slot: Slot.lineWidth, required: 1 },
  // Reads: a row length or skip moves or strides the copy: zeros in Chromium, and in headless-gl a
  // copy past the end of the array (its readPixels sizes the array without them): heap corruption.
  // Uploads: a row length, image height or skip reads the wrong words, or fails with "not enough
  // data"; UNPACK_FLIP_Y uploads flipped (three.js leaves it on after a canvas texture; headless-gl
  // segfaults with it on an integer upload); UNPACK_PREMULTIPLY_ALPHA with an RGBA32UI upload crashes
  // Chromium's GPU process. Not managed: UNPACK_COLORSPACE_CONVERSION_WEBGL applies to DOM sources
  // only, and the engine uploads typed arrays; DITHER applies to normalized fixed-point targets only.
  ...trackedPixelStore.map((name, i) => ({ name, slot: pixelStoreSlot(i), required: name.endsWith('_ALIGNMENT') ? 4 : 0 })),
  // A bound pack buffer turns readPixels into a client array into INVALID_OPERATION (the async read
  // binds its own and unbinds it); a bound unpack buffer does the same to typed-array uploads.
  { name: 'PIXEL_PACK_BUFFER_BINDING', slot: bufferSlot(0), required: null },
  { name: 'PIXEL_UNPACK_BUFFER_BINDING', slot: bufferSlot(1), required: null },
  // The app's transform feedback object must not receive the engine's bindBufferBase (concatenation),
  // and a draw while the app's feedback is active would capture the engine's vertices.
  { name: 'TRANSFORM_FEEDBACK_BINDING', slot: Slot.transformFeedback, required: null },
];

/** Names of the items the guard sets and restores (for docs and tests). */
export const glStateItems = {
  /** Set on every public call to the value the engine needs; the app's value is restored after. */
  set: [...dependsOn.map((item) => ({ name: item.name, value: item.required })), { name: 'COLOR_WRITEMASK', value: [true, true, true, true] }],
  /** Restored after every public call where the engine changed them. */
  restored: [
    'DRAW_FRAMEBUFFER_BINDING', 'READ_FRAMEBUFFER_BINDING', 'VIEWPORT', 'CURRENT_PROGRAM', 'VERTEX_ARRAY_BINDING',
    'ARRAY_BUFFER_BINDING', 'TRANSFORM_FEEDBACK_BUFFER_BINDING', 'ACTIVE_TEXTURE', 'TEXTURE_BINDING_2D (units the engine binds)',
    'TEXTURE_BINDING_2D_ARRAY (units the engine binds)',
    'SAMPLER_BINDING (units the engine binds)',
  ],
} as const;

/**
 * Sets the GL state the engine depends on and restores the app's around each public call, without
 * asking the context anything (context-state.ts keeps the state). Every public entry point runs its
 * synchronous work inside run() (or enter()/exit()); nested calls are counted and only the outermost
 * one sets and restores.
 *
 * Contract for the engine code inside: make GL calls on the context (the interceptors see them) or
 * through `state`'s setters (which also skip redundant ones); call touchTextureUnits(n) before binding
 * textures to units [0, n) by hand (Program.use does it for its own samplers).
 */
export class GlStateGuard {
  readonly preserve: boolean;
  /** The shadow of the context's state, shared by every engine on this context. */
  readonly state: ContextState;
  private depth = 0;
  /** Whether the outermost call in progress records an undo log. */
  private recording = false;
  private released = false;

  constructor(readonly gl: Gl, options: GlStateOptions = {}) {
    this.preserve = options.preserve ?? true;
    this.state = ContextState.acquire(gl);
  }

  /** Whether the app's state is saved and restored (false: set only). */
  get preserving(): boolean {
    return this.preserve;
  }

  /** Whether a call is in progress (enter() without its exit()). */
  get active(): boolean {
    return this.depth > 0;
  }

  enter(): void {
    if (this.depth++ > 0) return;
    this.recording = false;
    if (this.gl.isContextLost()) return;
    if (this.preserve) {
      this.state.beginRecording();
      this.recording = true;
    }
    this.setRequired();
  }

  /**
   * Ends a call. `afterError`: the body threw, maybe mid-pass (rasterizer off, a feedback object
   * bound): with preserve on, the undo log puts all of it back as for any call; with preserve off, the
   * state the engine depends on is set again so that nothing half-done is left on the context.
   */
  exit(afterError = false): void {
    if (this.depth === 0) throw new Error('internal: GlStateGuard.exit() without enter()');
    if (--this.depth > 0) return;
    const recording = this.recording;
    this.recording = false;
    if (this.gl.isContextLost()) {
      if (recording) this.state.dropRecorded();
      return;
    }
    if (recording) {
      this.state.restoreRecorded();
    } else if (afterError) {
      this.setRequired();
    }
  }

  /** enter(); body(); exit(), restoring even when body throws (its error wins). */
  run<T>(body: () => T): T {
    this.enter();
    let failed = true;
    try {
      const value = body();
      failed = false;
      return value;
    } finally {
      try {
        this.exit(failed);
      } catch (error) {
        // The context may have been lost during the restore; after a body's error, that one wins.
        if (!failed && !this.gl.isContextLost()) throw error;
      }
    }
  }

  /**
   * Code that binds textures to units [0, count) by hand announces it: an app's sampler object on
   * those units is unbound (its LINEAR filtering would override the texture's NEAREST, make integer
   * and float textures incomplete, and texelFetch would silently return 0).
   */
  touchTextureUnits(count: number): void {
    if (this.depth === 0) throw new Error('internal: GlStateGuard.touchTextureUnits() outside enter()/exit()');
    if (this.gl.isContextLost()) return;
    for (let unit = 0; unit < count; unit++) this.state.unbindSamplerIf(unit);
  }

  /** Gives the shared state tracker back (engine.dispose()); the last one takes its interceptors out. */
  dispose(): void {
    if (this.released) return;
    this.released = true;
    this.state.release();
  }

  /** Each item the passes depend on, set where the shadow says the app left something else. */
  private setRequired(): void {
    const state = this.state;
    for (let i = 0; i < dependsOn.length; i++) state.setIf(dependsOn[i].slot, dependsOn[i].required);
    state.colorMaskAllIf();
  }
}
