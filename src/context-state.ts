// The context's state, known without asking the context.
//
// Why: in a browser, getParameter/isEnabled are synchronous round trips to the GPU process that wait
// for every command queued before them (measured: 1.2-1.5 s of main thread per call to compact() after
// an app's heavy frame, SwiftShader; 1.26 s for one getParameter(COLOR_WRITEMASK) in a three.js app).
// A library called every frame between an app's draws must not ask.
//
// How: the first engine on a context installs interceptors on the context's state setters (enable,
// bindFramebuffer, viewport, pixelStorei, ...), reads the state ONCE (at createEngine, where blocking is
// allowed) and from then on keeps a shadow copy that every setter call updates, the app's and the
// engine's alike. This is luma.gl's WebGLStateTracker idea; three.js WebGLState and regl keep the same
// kind of cache for their own calls. The engine then:
// - sets the state its passes depend on only where the shadow says it differs (usually no call at all),
// - skips its own redundant binds (framebuffer, viewport, program, textures: setters ending in `If`),
// - during a public call, records the first value of every slot it changes (an undo log in preallocated
//   arrays: nothing allocated per call) and writes back only the slots whose value differs at the end.
//
// Trade-offs (docs/how-it-works.md "The state contract without queries"):
// - Calls that do not go through the context object's methods are invisible: references to methods
//   taken before createEngine (`const bind = gl.bindTexture.bind(gl)`), or `WebGL2RenderingContext
//   .prototype.x.call(gl, ...)`. After such calls an app calls engine.syncState() (reads the state
//   again, blocking) before the engine's next call. three.js, twgl, regl, PixiJS and Babylon call the
//   methods on the context object, which the interceptors see.
// - A setter call that GL rejects (a deleted object, a bad enum) still updates the shadow: the shadow
//   assumes valid calls.
// - Several engines on one context share one tracker (reference counted); the last dispose() takes the
//   interceptors out again (or, if something wrapped them after us, turns them into plain forwards).
// - Each intercepted call costs the app one extra JavaScript call and a store.
//
// headless-gl quirk handled here (shown by test/context-state.test.ts): its bindBuffer rejects
// PIXEL_PACK_BUFFER / PIXEL_UNPACK_BUFFER (INVALID_ENUM), so those bindings can never be set there; the
// install probe sees that and leaves them untracked (and never written) on such a context.

type Gl = WebGL2RenderingContext;
type Fn = (...args: never[]) => unknown;

// --- slots: every piece of state the engine sets, changes or restores -----------------------------

/** Capabilities the engine needs off (why: gl-state.ts). */
export const trackedCapabilities = [
  'SCISSOR_TEST', 'CULL_FACE', 'DEPTH_TEST', 'STENCIL_TEST', 'BLEND', 'RASTERIZER_DISCARD',
  'POLYGON_OFFSET_FILL', 'SAMPLE_COVERAGE', 'SAMPLE_ALPHA_TO_COVERAGE',
] as const;

/** Pixel-store parameters the engine needs at their defaults (why: gl-state.ts). */
export const trackedPixelStore = [
  'PACK_ALIGNMENT', 'PACK_ROW_LENGTH', 'PACK_SKIP_PIXELS', 'PACK_SKIP_ROWS',
  'UNPACK_ALIGNMENT', 'UNPACK_ROW_LENGTH', 'UNPACK_IMAGE_HEIGHT', 'UNPACK_SKIP_PIXELS', 'UNPACK_SKIP_ROWS',
  'UNPACK_SKIP_IMAGES', 'UNPACK_FLIP_Y_WEBGL', 'UNPACK_PREMULTIPLY_ALPHA_WEBGL',
] as const;

/** Buffer binding points the engine touches (ELEMENT_ARRAY_BUFFER is vertex-array state: not here). */
export const trackedBuffers = ['PIXEL_PACK_BUFFER', 'PIXEL_UNPACK_BUFFER', 'ARRAY_BUFFER', 'TRANSFORM_FEEDBACK_BUFFER'] as const;

const CAP0 = 0;
const LINE_WIDTH = CAP0 + trackedCapabilities.length;
const STORE0 = LINE_WIDTH + 1;
const BUFFER0 = STORE0 + trackedPixelStore.length;
export const Slot = {
  lineWidth: LINE_WIDTH,
  transformFeedback: BUFFER0 + trackedBuffers.length,
  drawFramebuffer: BUFFER0 + trackedBuffers.length + 1,
  readFramebuffer: BUFFER0 + trackedBuffers.length + 2,
  program: BUFFER0 + trackedBuffers.length + 3,
  vertexArray: BUFFER0 + trackedBuffers.length + 4,
  viewport: BUFFER0 + trackedBuffers.length + 5,
  colorMask: BUFFER0 + trackedBuffers.length + 6,
  activeTexture: BUFFER0 + trackedBuffers.length + 7,
  /**
   * Unit u: TEXTURE_2D at UNIT0 + UNIT_SLOTS·u, its sampler object at + 1, TEXTURE_2D_ARRAY at + 2
   * (the scans' lane textures, scan/reduce-then-scan.ts).
   */
  unit0: BUFFER0 + trackedBuffers.length + 8,
} as const;
/** Slots per texture unit (see Slot.unit0). */
const UNIT_SLOTS = 3;
const texture2dSlot = (unit: number) => Slot.unit0 + UNIT_SLOTS * unit;
const samplerSlot = (unit: number) => Slot.unit0 + UNIT_SLOTS * unit + 1;
const textureArraySlot = (unit: number) => Slot.unit0 + UNIT_SLOTS * unit + 2;
export const capabilitySlot = (i: number) => CAP0 + i;
export const pixelStoreSlot = (i: number) => STORE0 + i;
export const bufferSlot = (i: number) => BUFFER0 + i;

/** The four-number slots (viewport, colour mask) keep their values in these arrays, not in `values`. */
type Quad = [number, number, number, number];

/** The methods intercepted, each with what it records. */
const interceptedMethods = [
  'enable', 'disable', 'lineWidth', 'pixelStorei', 'bindBuffer', 'bindBufferBase', 'bindBufferRange',
  'bindTransformFeedback', 'bindFramebuffer', 'useProgram', 'bindVertexArray', 'viewport', 'colorMask',
  'activeTexture', 'bindTexture', 'bindSampler',
  'deleteBuffer', 'deleteTransformFeedback', 'deleteFramebuffer', 'deleteVertexArray', 'deleteTexture', 'deleteSampler',
] as const;
type Intercepted = (typeof interceptedMethods)[number];

const trackers = new WeakMap<object, ContextState>();

/** A bound object as the shadow holds it: the object, or null for none (headless-gl may say 0). */
function bound(value: unknown): unknown {
  return value === 0 || value === undefined ? null : value;
}

/**
 * The same for a binding a context may answer with a bare GL id (an unpatched headless-gl context
 * for TEXTURE_BINDING_2D_ARRAY: src/headless-gl-patches.ts): an id cannot be bound again, so it is
 * held as `unknownBinding`, which the restore leaves alone.
 */
function boundObject(value: unknown): unknown {
  return typeof value === 'number' && value !== 0 ? unknownBinding : bound(value);
}
const unknownBinding = Symbol('a binding the context answered with a bare id');

/**
 * The shadow of one context's state. Get it with ContextState.acquire(gl) and give it back with
 * release(); engines do this in their constructor and dispose().
 */
export class ContextState {
  /** Scalar slots (objects, numbers, booleans); the quads live in viewport/colorMask. */
  readonly values: unknown[];
  readonly viewport: Quad = [0, 0, 0, 0];
  /** Colour mask as 0/1 numbers. */
  readonly colorMask: Quad = [1, 1, 1, 1];
  /** The original methods, bound to the context: writes that must not be recorded twice use them. */
  readonly raw: { [K in Intercepted]: Gl[K] };
  /** Texture image units of this context (MAX_COMBINED_TEXTURE_IMAGE_UNITS). */
  readonly units: number;
  /** Whether bindBuffer takes PIXEL_PACK_BUFFER / PIXEL_UNPACK_BUFFER here (headless-gl: no). */
  readonly pixelBuffersBindable: boolean;

  // The undo log of the call in progress (recording): first value of each slot changed.
  private recording = false;
  private readonly saved: unknown[];
  private readonly savedViewport: Quad = [0, 0, 0, 0];
  private readonly savedColorMask: Quad = [1, 1, 1, 1];
  private readonly dirty: Uint8Array;
  private readonly dirtyList: Int32Array;
  private dirtyCount = 0;

  private references = 0;
  private installed: Map<Intercepted, { wrapper: Fn; previous: PropertyDescriptor | undefined }> | null = null;
  /** False once released while a later wrapper sits on top of ours: our wrappers just forward. */
  private live = true;
  private readonly capabilitySlots = new Map<number, number>();
  private readonly pixelStoreSlots = new Map<number, number>();
  private readonly bufferSlots = new Map<number, number>();

  private constructor(readonly gl: Gl) {
    this.units = Math.max(1, Number(gl.getParameter(gl.MAX_COMBINED_TEXTURE_IMAGE_UNITS)) | 0);
    const slots = Slot.unit0 + UNIT_SLOTS * this.units;
    this.values = new Array<unknown>(slots).fill(null);
    this.saved = new Array<unknown>(slots).fill(null);
    this.dirty = new Uint8Array(slots);
    this.dirtyList = new Int32Array(slots);
    const g = gl as unknown as Record<string, number>;
    trackedCapabilities.forEach((name, i) => this.capabilitySlots.set(g[name], capabilitySlot(i)));
    trackedPixelStore.forEach((name, i) => this.pixelStoreSlots.set(g[name], pixelStoreSlot(i)));
    trackedBuffers.forEach((name, i) => this.bufferSlots.set(g[name], bufferSlot(i)));
    const raw = {} as Record<Intercepted, Fn>;
    for (const name of interceptedMethods) raw[name] = (gl[name] as Fn).bind(gl);
    this.raw = raw as unknown as ContextState['raw'];
    this.pixelBuffersBindable = probePixelBufferBinding(gl, this.raw.bindBuffer);
    if (!this.pixelBuffersBindable) {
      this.bufferSlots.delete(gl.PIXEL_PACK_BUFFER);
      this.bufferSlots.delete(gl.PIXEL_UNPACK_BUFFER);
    }
  }

  /** The tracker of `gl`, installed on first use; every acquire() reads the state again (blocking). */
  static acquire(gl: Gl): ContextState {
    let state = trackers.get(gl);
    if (!state || !state.live) {
      state = new ContextState(gl);
      trackers.set(gl, state);
    }
    if (state.references++ === 0) state.install();
    state.sync();
    return state;
  }

  /** Gives the tracker back; the last release takes the interceptors out. */
  release(): void {
    if (this.references === 0) return;
    if (--this.references > 0) return;
    this.uninstall();
    trackers.delete(this.gl);
  }

  /**
   * Reads the whole tracked state from the context (blocking queries: at createEngine, or when the
   * app asks with engine.syncState() after GL calls the interceptors could not see).
   */
  sync(): void {
    const gl = this.gl;
    if (gl.isContextLost()) return;
    const g = gl as unknown as Record<string, number>;
    trackedCapabilities.forEach((name, i) => (this.values[capabilitySlot(i)] = !!gl.isEnabled(g[name])));
    this.values[Slot.lineWidth] = Number(gl.getParameter(gl.LINE_WIDTH));
    trackedPixelStore.forEach((name, i) => (this.values[pixelStoreSlot(i)] = Number(gl.getParameter(g[name]))));
    trackedBuffers.forEach((name, i) => {
      const slot = bufferSlot(i);
      const untracked = !this.pixelBuffersBindable && (name === 'PIXEL_PACK_BUFFER' || name === 'PIXEL_UNPACK_BUFFER');
      this.values[slot] = untracked ? null : bound(gl.getParameter(g[`${name}_BINDING`]));
    });
    this.values[Slot.transformFeedback] = bound(gl.getParameter(gl.TRANSFORM_FEEDBACK_BINDING));
    this.values[Slot.drawFramebuffer] = bound(gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING));
    this.values[Slot.readFramebuffer] = bound(gl.getParameter(gl.READ_FRAMEBUFFER_BINDING));
    this.values[Slot.program] = bound(gl.getParameter(gl.CURRENT_PROGRAM));
    this.values[Slot.vertexArray] = readVertexArray(gl);
    const viewport = gl.getParameter(gl.VIEWPORT) as ArrayLike<number>;
    for (let i = 0; i < 4; i++) this.viewport[i] = viewport[i];
    const mask = gl.getParameter(gl.COLOR_WRITEMASK) as ArrayLike<boolean>;
    for (let i = 0; i < 4; i++) this.colorMask[i] = mask[i] ? 1 : 0;
    const active = Number(gl.getParameter(gl.ACTIVE_TEXTURE));
    for (let unit = 0; unit < this.units; unit++) {
      this.raw.activeTexture(gl.TEXTURE0 + unit);
      this.values[texture2dSlot(unit)] = bound(gl.getParameter(gl.TEXTURE_BINDING_2D));
      this.values[samplerSlot(unit)] = bound(gl.getParameter(gl.SAMPLER_BINDING));
      this.values[textureArraySlot(unit)] = boundObject(gl.getParameter(gl.TEXTURE_BINDING_2D_ARRAY));
    }
    this.raw.activeTexture(active);
    this.values[Slot.activeTexture] = active - gl.TEXTURE0;
  }

  // --- recording -----------------------------------------------------------------------------------

  /** Starts the undo log of a public call (preserveState). */
  beginRecording(): void {
    this.recording = true;
    this.dirtyCount = 0;
  }

  /**
   * Ends the log and writes back, through the original methods, every slot whose value now differs
   * from its first one. Units first (they switch the active unit), the active unit last.
   */
  restoreRecorded(): void {
    this.recording = false;
    const gl = this.gl;
    const raw = this.raw;
    // Rebinding a unit's texture switches the active unit: the first one is put back last.
    const active = (this.dirty[Slot.activeTexture] ? this.saved[Slot.activeTexture] : this.values[Slot.activeTexture]) as number;
    for (let k = 0; k < this.dirtyCount; k++) {
      const slot = this.dirtyList[k];
      this.dirty[slot] = 0;
      if (slot === Slot.activeTexture) continue;
      if (slot === Slot.viewport) {
        const [x, y, w, h] = this.savedViewport;
        if (!sameQuad(this.viewport, this.savedViewport)) raw.viewport(x, y, w, h);
        copyQuad(this.viewport, this.savedViewport);
        continue;
      }
      if (slot === Slot.colorMask) {
        const [r, g, b, a] = this.savedColorMask;
        if (!sameQuad(this.colorMask, this.savedColorMask)) raw.colorMask(!!r, !!g, !!b, !!a);
        copyQuad(this.colorMask, this.savedColorMask);
        continue;
      }
      const value = this.saved[slot];
      this.saved[slot] = null;
      if (this.values[slot] === value) continue;
      this.values[slot] = value;
      if (slot === Slot.drawFramebuffer || slot === Slot.readFramebuffer) {
        // One FRAMEBUFFER bind puts both back where the app had the same framebuffer on both.
        const other = slot === Slot.drawFramebuffer ? Slot.readFramebuffer : Slot.drawFramebuffer;
        const otherValue = this.dirty[other] ? this.saved[other] : this.values[other];
        if (otherValue === value) {
          this.values[other] = value;
          if (this.dirty[other]) this.saved[other] = value; // nothing left to do for it
          raw.bindFramebuffer(gl.FRAMEBUFFER, value as WebGLFramebuffer | null);
          continue;
        }
      }
      if (slot >= Slot.unit0) {
        const unit = Math.floor((slot - Slot.unit0) / UNIT_SLOTS);
        const kind = (slot - Slot.unit0) % UNIT_SLOTS;
        if (kind === 1) {
          raw.bindSampler(unit, value as WebGLSampler | null);
        } else if (value !== unknownBinding) {
          this.setActiveUnitRaw(unit);
          raw.bindTexture(kind === 0 ? gl.TEXTURE_2D : gl.TEXTURE_2D_ARRAY, value as WebGLTexture | null);
        }
      } else {
        this.writeSlot(slot, value);
      }
    }
    this.saved[Slot.activeTexture] = null;
    if (this.values[Slot.activeTexture] !== active) raw.activeTexture(gl.TEXTURE0 + active);
    this.values[Slot.activeTexture] = active;
    this.dirtyCount = 0;
  }

  /** Ends the log without writing anything back (preserveState false, or a lost context). */
  dropRecorded(): void {
    this.recording = false;
    for (let k = 0; k < this.dirtyCount; k++) {
      this.dirty[this.dirtyList[k]] = 0;
      this.saved[this.dirtyList[k]] = null;
    }
    this.dirtyCount = 0;
  }

  /** Records `slot`'s value in the undo log, the first time it changes in a recorded call. */
  private touch(slot: number): void {
    if (!this.recording || this.dirty[slot]) return;
    this.dirty[slot] = 1;
    this.dirtyList[this.dirtyCount++] = slot;
    if (slot === Slot.viewport) copyQuad(this.savedViewport, this.viewport);
    else if (slot === Slot.colorMask) copyQuad(this.savedColorMask, this.colorMask);
    else this.saved[slot] = this.values[slot];
  }

  private record(slot: number, value: unknown): void {
    this.touch(slot);
    this.values[slot] = value;
  }

  private setActiveUnitRaw(unit: number): void {
    if (this.values[Slot.activeTexture] === unit) return;
    this.touch(Slot.activeTexture);
    this.values[Slot.activeTexture] = unit;
    this.raw.activeTexture(this.gl.TEXTURE0 + unit);
  }

  /** Writes a scalar slot's value with the original method (no recording). */
  private writeSlot(slot: number, value: unknown): void {
    const gl = this.gl;
    const raw = this.raw;
    if (slot < LINE_WIDTH) {
      const cap = (gl as unknown as Record<string, number>)[trackedCapabilities[slot - CAP0]];
      if (value) raw.enable(cap);
      else raw.disable(cap);
    } else if (slot === LINE_WIDTH) {
      raw.lineWidth(value as number);
    } else if (slot < BUFFER0) {
      raw.pixelStorei((gl as unknown as Record<string, number>)[trackedPixelStore[slot - STORE0]], value as number);
    } else if (slot < Slot.transformFeedback) {
      raw.bindBuffer((gl as unknown as Record<string, number>)[trackedBuffers[slot - BUFFER0]], value as WebGLBuffer | null);
    } else if (slot === Slot.transformFeedback) {
      raw.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, value as WebGLTransformFeedback | null);
    } else if (slot === Slot.drawFramebuffer) {
      raw.bindFramebuffer(gl.DRAW_FRAMEBUFFER, value as WebGLFramebuffer | null);
    } else if (slot === Slot.readFramebuffer) {
      raw.bindFramebuffer(gl.READ_FRAMEBUFFER, value as WebGLFramebuffer | null);
    } else if (slot === Slot.program) {
      raw.useProgram(value as WebGLProgram | null);
    } else if (slot === Slot.vertexArray) {
      raw.bindVertexArray(value as WebGLVertexArrayObject | null);
    } else {
      throw new Error(`internal: ContextState cannot write slot ${slot}`);
    }
  }

  // --- the engine's setters: skip what is already set, record what changes ------------------------

  /**
   * The engine is about to delete `program`. GL keeps a deleted program in use while it is current,
   * and a later useProgram of it (a restore) fails with INVALID_VALUE: it is made not current, and
   * a restore that would bring it back brings no program instead.
   */
  programDeleted(program: WebGLProgram): void {
    if (this.values[Slot.program] === program) this.setIf(Slot.program, null);
    if (this.dirty[Slot.program] && this.saved[Slot.program] === program) this.saved[Slot.program] = null;
  }

  /** Sets a scalar slot (capability, line width, pixel store, buffer, feedback, program, vertex array). */
  setIf(slot: number, value: unknown): boolean {
    if (this.values[slot] === value) return false;
    if (!this.pixelBuffersBindable && (slot === bufferSlot(0) || slot === bufferSlot(1))) return false;
    this.record(slot, value);
    this.writeSlot(slot, value);
    return true;
  }

  /** Binds `framebuffer` for drawing and reading (one call when both differ or either does). */
  bindFramebufferIf(framebuffer: WebGLFramebuffer | null): void {
    if (this.values[Slot.drawFramebuffer] === framebuffer && this.values[Slot.readFramebuffer] === framebuffer) return;
    this.record(Slot.drawFramebuffer, framebuffer);
    this.record(Slot.readFramebuffer, framebuffer);
    this.raw.bindFramebuffer(this.gl.FRAMEBUFFER, framebuffer);
  }

  viewportIf(x: number, y: number, width: number, height: number): void {
    const v = this.viewport;
    if (v[0] === x && v[1] === y && v[2] === width && v[3] === height) return;
    this.touch(Slot.viewport);
    v[0] = x;
    v[1] = y;
    v[2] = width;
    v[3] = height;
    this.raw.viewport(x, y, width, height);
  }

  colorMaskAllIf(): void {
    const m = this.colorMask;
    if (m[0] && m[1] && m[2] && m[3]) return;
    this.touch(Slot.colorMask);
    m[0] = m[1] = m[2] = m[3] = 1;
    this.raw.colorMask(true, true, true, true);
  }

  /**
   * Binds `texture` to TEXTURE_2D (or with `array`, TEXTURE_2D_ARRAY) of `unit`, switching the
   * active unit only if it must.
   */
  bindTextureIf(unit: number, texture: WebGLTexture | null, array = false): void {
    const slot = array ? textureArraySlot(unit) : texture2dSlot(unit);
    if (this.values[slot] === texture) return;
    this.setActiveUnitRaw(unit);
    this.record(slot, texture);
    this.raw.bindTexture(array ? this.gl.TEXTURE_2D_ARRAY : this.gl.TEXTURE_2D, texture);
  }

  /** Unbinds a sampler object from `unit` (an app's LINEAR sampler would make texelFetch read 0). */
  unbindSamplerIf(unit: number): void {
    const slot = samplerSlot(unit);
    if (this.values[slot] === null) return;
    this.record(slot, null);
    this.raw.bindSampler(unit, null);
  }

  /** The active texture unit, 0-based (texture creation and uploads bind there). */
  get activeUnit(): number {
    return this.values[Slot.activeTexture] as number;
  }

  // --- interceptors ------------------------------------------------------------------------------------

  private install(): void {
    const gl = this.gl;
    const self = this;
    const raw = this.raw as unknown as Record<Intercepted, (...args: unknown[]) => unknown>;
    const TEXTURE_2D = gl.TEXTURE_2D;
    const TEXTURE_2D_ARRAY = gl.TEXTURE_2D_ARRAY;
    const TEXTURE0 = gl.TEXTURE0;
    const FRAMEBUFFER = gl.FRAMEBUFFER;
    const DRAW_FRAMEBUFFER = gl.DRAW_FRAMEBUFFER;
    const READ_FRAMEBUFFER = gl.READ_FRAMEBUFFER;
    const TRANSFORM_FEEDBACK_BUFFER = gl.TRANSFORM_FEEDBACK_BUFFER;
    const clearBinding = (slot: number, object: unknown) => {
      if (object && self.values[slot] === object) self.record(slot, null);
    };
    const wrappers: { [K in Intercepted]: (...args: never[]) => unknown } = {
      enable(cap: number) {
        const slot = self.live ? self.capabilitySlots.get(cap) : undefined;
        if (slot !== undefined) self.record(slot, true);
        return raw.enable(cap);
      },
      disable(cap: number) {
        const slot = self.live ? self.capabilitySlots.get(cap) : undefined;
        if (slot !== undefined) self.record(slot, false);
        return raw.disable(cap);
      },
      lineWidth(width: number) {
        if (self.live) self.record(LINE_WIDTH, Number(width));
        return raw.lineWidth(width);
      },
      pixelStorei(name: number, value: number | boolean) {
        const slot = self.live ? self.pixelStoreSlots.get(name) : undefined;
        if (slot !== undefined) self.record(slot, Number(value));
        return raw.pixelStorei(name, value);
      },
      bindBuffer(target: number, buffer: WebGLBuffer | null) {
        const slot = self.live ? self.bufferSlots.get(target) : undefined;
        if (slot !== undefined) self.record(slot, bound(buffer));
        return raw.bindBuffer(target, buffer);
      },
      // Both also set the generic binding of their target.
      bindBufferBase(target: number, index: number, buffer: WebGLBuffer | null) {
        if (self.live && target === TRANSFORM_FEEDBACK_BUFFER) self.record(bufferSlot(3), bound(buffer));
        return raw.bindBufferBase(target, index, buffer);
      },
      bindBufferRange(target: number, index: number, buffer: WebGLBuffer | null, offset: number, size: number) {
        if (self.live && target === TRANSFORM_FEEDBACK_BUFFER) self.record(bufferSlot(3), bound(buffer));
        return raw.bindBufferRange(target, index, buffer, offset, size);
      },
      bindTransformFeedback(target: number, feedback: WebGLTransformFeedback | null) {
        if (self.live) self.record(Slot.transformFeedback, bound(feedback));
        return raw.bindTransformFeedback(target, feedback);
      },
      bindFramebuffer(target: number, framebuffer: WebGLFramebuffer | null) {
        if (self.live) {
          const value = bound(framebuffer);
          if (target === FRAMEBUFFER || target === DRAW_FRAMEBUFFER) self.record(Slot.drawFramebuffer, value);
          if (target === FRAMEBUFFER || target === READ_FRAMEBUFFER) self.record(Slot.readFramebuffer, value);
        }
        return raw.bindFramebuffer(target, framebuffer);
      },
      useProgram(program: WebGLProgram | null) {
        if (self.live) self.record(Slot.program, bound(program));
        return raw.useProgram(program);
      },
      bindVertexArray(vertexArray: WebGLVertexArrayObject | null) {
        if (self.live) self.record(Slot.vertexArray, bound(vertexArray));
        return raw.bindVertexArray(vertexArray);
      },
      viewport(x: number, y: number, width: number, height: number) {
        if (self.live) {
          self.touch(Slot.viewport);
          const v = self.viewport;
          v[0] = x | 0;
          v[1] = y | 0;
          v[2] = width | 0;
          v[3] = height | 0;
        }
        return raw.viewport(x, y, width, height);
      },
      colorMask(r: boolean, g: boolean, b: boolean, a: boolean) {
        if (self.live) {
          self.touch(Slot.colorMask);
          const m = self.colorMask;
          m[0] = r ? 1 : 0;
          m[1] = g ? 1 : 0;
          m[2] = b ? 1 : 0;
          m[3] = a ? 1 : 0;
        }
        return raw.colorMask(r, g, b, a);
      },
      activeTexture(unit: number) {
        if (self.live) self.record(Slot.activeTexture, unit - TEXTURE0);
        return raw.activeTexture(unit);
      },
      bindTexture(target: number, texture: WebGLTexture | null) {
        if (self.live && (target === TEXTURE_2D || target === TEXTURE_2D_ARRAY)) {
          const unit = self.values[Slot.activeTexture] as number;
          self.record(target === TEXTURE_2D ? texture2dSlot(unit) : textureArraySlot(unit), bound(texture));
        }
        return raw.bindTexture(target, texture);
      },
      bindSampler(unit: number, sampler: WebGLSampler | null) {
        if (self.live && unit >= 0 && unit < self.units) self.record(samplerSlot(unit), bound(sampler));
        return raw.bindSampler(unit, sampler);
      },
      // Deleting a bound object unbinds it: the shadow follows.
      deleteBuffer(buffer: WebGLBuffer | null) {
        if (self.live) for (let i = 0; i < trackedBuffers.length; i++) clearBinding(bufferSlot(i), buffer);
        return raw.deleteBuffer(buffer);
      },
      deleteTransformFeedback(feedback: WebGLTransformFeedback | null) {
        if (self.live) clearBinding(Slot.transformFeedback, feedback);
        return raw.deleteTransformFeedback(feedback);
      },
      deleteFramebuffer(framebuffer: WebGLFramebuffer | null) {
        if (self.live) {
          clearBinding(Slot.drawFramebuffer, framebuffer);
          clearBinding(Slot.readFramebuffer, framebuffer);
        }
        return raw.deleteFramebuffer(framebuffer);
      },
      deleteVertexArray(vertexArray: WebGLVertexArrayObject | null) {
        if (self.live) clearBinding(Slot.vertexArray, vertexArray);
        return raw.deleteVertexArray(vertexArray);
      },
      deleteTexture(texture: WebGLTexture | null) {
        if (self.live && texture) {
          for (let unit = 0; unit < self.units; unit++) {
            clearBinding(texture2dSlot(unit), texture);
            clearBinding(textureArraySlot(unit), texture);
          }
        }
        return raw.deleteTexture(texture);
      },
      deleteSampler(sampler: WebGLSampler | null) {
        if (self.live && sampler) for (let unit = 0; unit < self.units; unit++) clearBinding(samplerSlot(unit), sampler);
        return raw.deleteSampler(sampler);
      },
    };
    this.installed = new Map();
    for (const name of interceptedMethods) {
      const previous = Object.getOwnPropertyDescriptor(gl, name);
      const wrapper = wrappers[name] as Fn;
      Object.defineProperty(gl, name, { value: wrapper, writable: true, configurable: true, enumerable: previous?.enumerable ?? false });
      this.installed.set(name, { wrapper, previous });
    }
  }

  private uninstall(): void {
    const gl = this.gl;
    let covered = false;
    for (const [name, { wrapper, previous }] of this.installed ?? []) {
      if ((gl as unknown as Record<string, unknown>)[name] !== wrapper) {
        // Something wrapped our wrapper: it must keep forwarding to the original.
        covered = true;
        continue;
      }
      if (previous) Object.defineProperty(gl, name, previous);
      else delete (gl as unknown as Record<string, unknown>)[name];
    }
    this.installed = null;
    if (covered) this.live = false;
    this.recording = false;
  }
}

function sameQuad(a: Quad, b: Quad): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

function copyQuad(to: Quad, from: Quad): void {
  to[0] = from[0];
  to[1] = from[1];
  to[2] = from[2];
  to[3] = from[3];
}

/**
 * Whether bindBuffer accepts the pixel pack/unpack targets (headless-gl 9.0.0-rc.10's does not:
 * INVALID_ENUM). Runs once per context, at install; the error it provokes is cleared.
 */
function probePixelBufferBinding(gl: Gl, bindBuffer: Gl['bindBuffer']): boolean {
  if (gl.isContextLost()) return true;
  while (gl.getError() !== gl.NO_ERROR && !gl.isContextLost());
  const current = gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING) as WebGLBuffer | null;
  bindBuffer(gl.PIXEL_PACK_BUFFER, bound(current) as WebGLBuffer | null);
  const ok = gl.getError() === gl.NO_ERROR;
  while (gl.getError() !== gl.NO_ERROR && !gl.isContextLost());
  return ok;
}

/** headless-gl only: each context's private record, reached through an object it made (`_ctx`). */
const headlessRecords = new WeakMap<object, { _vaos?: Record<number, unknown> }>();

/**
 * The bound vertex array. An unpatched headless-gl context's getParameter answers with the GL name,
 * its bindVertexArray takes only its wrapper objects, and the context the app holds hides the private
 * record of them; every object the context makes points at that record, so one throwaway vertex
 * array (made once per context, only when an app's vertex array is bound) leads to it.
 */
function readVertexArray(gl: Gl): unknown {
  const value = gl.getParameter(gl.VERTEX_ARRAY_BINDING);
  if (typeof value !== 'number') return bound(value);
  if (value === 0) return null;
  let record = headlessRecords.get(gl);
  if (!record) {
    const probe = gl.createVertexArray() as { _ctx?: { _vaos?: Record<number, unknown> } } | null;
    record = probe?._ctx ?? {};
    gl.deleteVertexArray(probe as WebGLVertexArrayObject | null);
    headlessRecords.set(gl, record);
  }
  const array = record._vaos?.[value];
  if (!array) throw new Error(`glcompact: this context names its bound vertex array ${value} and gives no way to rebind it`);
  return array;
}
