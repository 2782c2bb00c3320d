// Sharing a WebGL2 context politely: the engine SETS the state its passes depend on, and RESTORES the
// app's state when it hands the context back. An app (three.js, twgl) leaves anything behind between
// frames (a scissor box, face culling, a partial colour mask, UNPACK_FLIP_Y...), and caches what it set
// itself, so it draws nothing or garbage if the engine leaves its own framebuffer, viewport or program
// bound. See ../shared/DESIGN.md "Sharing the context with an app" for the measurements.
//
// Cost: every item is queried once per public call (the outermost enter()), set only where the app's
// value differs from what the engine needs, and restored only where the engine changed it or rebinds it
// in every pass. Texture units are saved lazily: only the units the draw code announces with
// touchTextureUnits(), plus the unit that was active when the call began (texture creation and upload
// bind on whichever unit is active).
//
// Platform quirks handled here (headless-gl 9.0.0-rc.10, shown by test/gl-state.test.ts):
// - getParameter of most WebGL2 bindings (VERTEX_ARRAY_BINDING, SAMPLER_BINDING,
//   TRANSFORM_FEEDBACK_BINDING, PIXEL_PACK_BUFFER_BINDING, ...) answers with the GL name, a number,
//   not the object; isEnabled/getParameter of RASTERIZER_DISCARD and SAMPLE_* answer 1/0. Samplers and
//   transform feedbacks are plain numbers there anyway (createSampler() returns one), so the number is
//   what bindSampler/bindTransformFeedback take back; 0 means none. Vertex arrays are wrapper objects:
//   the bound one is read from the wrapper's own record (see readVertexArray).
// - Its bindBuffer() accepts only ARRAY_BUFFER and ELEMENT_ARRAY_BUFFER (INVALID_ENUM otherwise), so
//   an app cannot bind a pixel pack/unpack buffer there, and the guard never writes a binding whose
//   value it did not see change.
// - PACK_ROW_LENGTH/PACK_SKIP_* make its readPixels copy past the end of the array (heap corruption,
//   abort); UNPACK_FLIP_Y with integer uploads segfaults; this guard resets them before any engine read
//   or upload, which is why every engine entry point must run inside it.

type Gl = WebGL2RenderingContext;
/** The names of WebGL2's numeric constants (gl.SCISSOR_TEST, ...), for the table below. */
type GlEnum = { [K in keyof Gl]: Gl[K] extends number ? K : never }[keyof Gl];

export interface GlStateOptions {
  /**
   * true (default): save the app's state when a public call begins and restore it when it ends.
   * false: for apps that manage GL state themselves (e.g. call three.js `renderer.resetState()`): the
   * engine still sets the state it depends on, but saves and restores nothing.
   */
  preserve?: boolean;
}

/** One piece of context state, read and written the same way at enter and exit. */
interface StateItem<V = unknown> {
  readonly name: string;
  read(gl: Gl): V;
  write(gl: Gl, value: V): void;
  /** The value the engine's passes need, set on enter; absent for state the engine only restores. */
  readonly required?: V;
  /**
   * For state the engine only restores: 'always' writes the saved value back on exit without asking
   * (the passes rebind it every time, so a query would not save a call); 'if-changed' queries first
   * (rarely changed, and not writable with its own value on every platform).
   */
  readonly restore?: 'always' | 'if-changed';
}

/** Deep-enough equality for the values the items hold: scalars, objects by identity, short arrays. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object' && 'length' in a && 'length' in b) {
    const x = a as ArrayLike<unknown>;
    const y = b as ArrayLike<unknown>;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  return false;
}

/** A bound object as the guard keeps it: the object, or null for none (headless-gl says 0). */
function boundObject(value: unknown): unknown {
  return value === 0 || value === undefined ? null : value;
}

function capability(name: GlEnum, required: boolean): StateItem<boolean> {
  return {
    name,
    required,
    read: (gl) => !!gl.isEnabled(gl[name] as number),
    write: (gl, on) => (on ? gl.enable(gl[name] as number) : gl.disable(gl[name] as number)),
  };
}

/** Booleans (UNPACK_FLIP_Y_WEBGL...) are held as 0/1, the form pixelStorei takes. */
function pixelStore(name: GlEnum, required: number): StateItem<number> {
  return {
    name,
    required,
    read: (gl) => Number(gl.getParameter(gl[name] as number)),
    write: (gl, value) => gl.pixelStorei(gl[name] as number, value),
  };
}

/** `how`: { required: null } for a binding the engine needs empty, { restore } for one it only restores. */
function bufferBinding(name: GlEnum, target: GlEnum, how: Pick<StateItem, 'required' | 'restore'>): StateItem {
  return {
    name,
    ...how,
    read: (gl) => boundObject(gl.getParameter(gl[name] as number)),
    write: (gl, buffer) => gl.bindBuffer(gl[target] as number, buffer as WebGLBuffer | null),
  };
}

/** headless-gl only: each context's private record, reached through an object it made (`_ctx`). */
const headlessRecords = new WeakMap<object, { _vaos?: Record<number, unknown> }>();

/**
 * The bound vertex array. headless-gl's getParameter answers with the GL name, its bindVertexArray
 * takes only its wrapper objects, and the context the app holds is a wrapper that hides the private
 * record of them; every object the context makes points at that record, so one throwaway vertex
 * array (made once per context, only when an app's vertex array is bound) leads to it.
 */
function readVertexArray(gl: Gl): unknown {
  const value = gl.getParameter(gl.VERTEX_ARRAY_BINDING);
  if (typeof value !== 'number') return value;
  if (value === 0) return null;
  let record = headlessRecords.get(gl);
  if (!record) {
    const probe = gl.createVertexArray() as { _ctx?: { _vaos?: Record<number, unknown> } } | null;
    record = probe?._ctx ?? {};
    gl.deleteVertexArray(probe as WebGLVertexArrayObject | null);
    headlessRecords.set(gl, record);
  }
  const array = record._vaos?.[value];
  // Without it the app's vertex array could not be given back: say so rather than lose it silently.
  if (!array) throw new Error(`GlStateGuard: this context names its bound vertex array ${value} and gives no way to rebind it`);
  return array;
}

/**
 * State the engine depends on, SET on enter (and restored on exit where the app's value differed).
 * The order is the order of setting; none depends on another.
 */
const dependsOn: readonly StateItem[] = [
  // A scissor box clips every pass AND clearBufferuiv: texels outside it keep stale values (wrong
  // counts, wrong scans), silently.
  capability('SCISSOR_TEST', false),
  // The fullscreen triangle is culled by FRONT_AND_BACK, or by frontFace(CW) + BACK (three.js leaves
  // both after a BackSide material): the pass writes nothing.
  capability('CULL_FACE', false),
  // The engine's framebuffers have no depth or stencil attachment, so these tests pass anyway; kept
  // off so that a target with such an attachment (or a driver that gets this wrong) cannot drop
  // fragments. One query each.
  capability('DEPTH_TEST', false),
  capability('STENCIL_TEST', false),
  // Blending is ignored for the integer targets, but not for float or RGBA8 ones (the coverage test
  // draws lines into a blending RGBA8 target and sets its own blend state inside the call).
  capability('BLEND', false),
  // Left on by an app's (or an aborted) transform-feedback pass: every draw AND clear is discarded.
  capability('RASTERIZER_DISCARD', false),
  // Only moves depth values (no depth buffer here): off so that it never matters.
  capability('POLYGON_OFFSET_FILL', false),
  // Only act on multisampled targets (the engine's are single-sampled): off so that they never do.
  capability('SAMPLE_COVERAGE', false),
  capability('SAMPLE_ALPHA_TO_COVERAGE', false),
  // A masked red channel: passes and clears write nothing into R32UI targets.
  {
    name: 'COLOR_WRITEMASK',
    required: [true, true, true, true],
    read: (gl) => Array.from(gl.getParameter(gl.COLOR_WRITEMASK) as ArrayLike<boolean>, Boolean),
    write: (gl, [r, g, b, a]) => gl.colorMask(r, g, b, a),
  } as StateItem<boolean[]>,
  // Concatenation draws one-texel-wide lines; a wider line (llvmpipe under headless-gl accepts up to
  // 255) also covers the neighbouring rows' texels.
  { name: 'LINE_WIDTH', required: 1, read: (gl) => Number(gl.getParameter(gl.LINE_WIDTH)), write: (gl, w) => gl.lineWidth(w) } as StateItem<number>,
  // Reads: a row length or skip moves or strides the copy: zeros in Chromium, and in headless-gl a
  // copy past the end of the array (its readPixels sizes the array without them): heap corruption.
  pixelStore('PACK_ALIGNMENT', 4),
  pixelStore('PACK_ROW_LENGTH', 0),
  pixelStore('PACK_SKIP_PIXELS', 0),
  pixelStore('PACK_SKIP_ROWS', 0),
  // Uploads: a row length, image height or skip reads the wrong words, or fails with "not enough data".
  pixelStore('UNPACK_ALIGNMENT', 4),
  pixelStore('UNPACK_ROW_LENGTH', 0),
  pixelStore('UNPACK_IMAGE_HEIGHT', 0),
  pixelStore('UNPACK_SKIP_PIXELS', 0),
  pixelStore('UNPACK_SKIP_ROWS', 0),
  pixelStore('UNPACK_SKIP_IMAGES', 0),
  // Uploads flipped (three.js leaves it on after a canvas texture); headless-gl segfaults with it on
  // an integer upload.
  pixelStore('UNPACK_FLIP_Y_WEBGL', 0),
  // With it on, an RGBA32UI upload crashes Chromium's GPU process. Only ever SET to false here: exit()
  // writes an app's `true` back after the engine's uploads, which is safe.
  pixelStore('UNPACK_PREMULTIPLY_ALPHA_WEBGL', 0),
  // Not managed: UNPACK_COLORSPACE_CONVERSION_WEBGL applies to DOM sources (images, canvases) only,
  // and the engine uploads typed arrays. DITHER applies to normalized fixed-point targets only, and
  // the engine renders into integer ones.

  // A bound pack buffer turns readPixels into a client array into INVALID_OPERATION (the async read
  // binds its own and unbinds it); a bound unpack buffer does the same to typed-array uploads.
  bufferBinding('PIXEL_PACK_BUFFER_BINDING', 'PIXEL_PACK_BUFFER', { required: null }),
  bufferBinding('PIXEL_UNPACK_BUFFER_BINDING', 'PIXEL_UNPACK_BUFFER', { required: null }),
  // The app's transform feedback object must not receive the engine's bindBufferBase (concatenation),
  // and a draw while the app's feedback is active would capture the engine's vertices.
  {
    name: 'TRANSFORM_FEEDBACK_BINDING',
    required: null,
    read: (gl) => boundObject(gl.getParameter(gl.TRANSFORM_FEEDBACK_BINDING)),
    write: (gl, feedback) => gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, feedback as WebGLTransformFeedback | null),
  },
];

/**
 * State the engine changes but does not depend on, RESTORED on exit. Order matters where noted.
 * Not listed, because the engine never changes them: RENDERBUFFER_BINDING (twgl's createFramebufferInfo
 * binds no renderbuffer when given a texture attachment), ELEMENT_ARRAY_BUFFER_BINDING (vertex-array
 * state: restoring the vertex array restores it), UNIFORM_BUFFER and COPY_* bindings, the TEXTURE_2D_ARRAY,
 * TEXTURE_3D and TEXTURE_CUBE_MAP bindings (the engine binds TEXTURE_2D only), clear values, blend,
 * depth and stencil functions and masks (no effect while their tests are off).
 */
const restoredOnly: readonly StateItem[] = [
  // Every pass binds the engine's framebuffer with FRAMEBUFFER (both points); an app's draw then lands
  // in the engine's texture. Read and draw are saved separately; one call when they are the same.
  {
    name: 'DRAW_FRAMEBUFFER_BINDING+READ_FRAMEBUFFER_BINDING',
    restore: 'always',
    read: (gl) => [gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING), gl.getParameter(gl.READ_FRAMEBUFFER_BINDING)],
    write: (gl, [draw, read]) => {
      if (draw === read) {
        gl.bindFramebuffer(gl.FRAMEBUFFER, draw);
      } else {
        gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, draw);
        gl.bindFramebuffer(gl.READ_FRAMEBUFFER, read);
      }
    },
  } as StateItem<[WebGLFramebuffer | null, WebGLFramebuffer | null]>,
  // An app (twgl) that sets its viewport once draws into a corner after the engine's passes.
  {
    name: 'VIEWPORT',
    restore: 'always',
    read: (gl) => Array.from(gl.getParameter(gl.VIEWPORT) as ArrayLike<number>),
    write: (gl, [x, y, w, h]) => gl.viewport(x, y, w, h),
  } as StateItem<number[]>,
  // three.js caches its current program, VAO and textures: with the engine's still bound it draws
  // nothing (or with the wrong inputs) until renderer.resetState().
  { name: 'CURRENT_PROGRAM', restore: 'always', read: (gl) => gl.getParameter(gl.CURRENT_PROGRAM), write: (gl, p) => gl.useProgram(p as WebGLProgram | null) },
  { name: 'VERTEX_ARRAY_BINDING', restore: 'always', read: readVertexArray, write: (gl, v) => gl.bindVertexArray(v as WebGLVertexArrayObject | null) },
  // Concatenation binds its feedback buffer to ARRAY_BUFFER to size it (global state, not the VAO's).
  bufferBinding('ARRAY_BUFFER_BINDING', 'ARRAY_BUFFER', { restore: 'always' }),
  // bindBufferBase in concatenation also moves the generic TRANSFORM_FEEDBACK_BUFFER binding. After
  // TRANSFORM_FEEDBACK_BINDING (above) so that it is checked against the app's feedback object; queried
  // first because headless-gl cannot bind this target with bindBuffer at all.
  bufferBinding('TRANSFORM_FEEDBACK_BUFFER_BINDING', 'TRANSFORM_FEEDBACK_BUFFER', { restore: 'if-changed' }),
];

/** What one texture unit held when the engine first touched it. */
interface SavedUnit {
  texture2D: unknown;
  /** Saved once the unit is announced by touchTextureUnits (the draw code samples from it). */
  sampler?: unknown;
}

/** The app's state, saved by the outermost enter(). */
interface SavedState {
  dependsOn: unknown[];
  restoredOnly: unknown[];
  activeTexture: number;
  units: Map<number, SavedUnit>;
}

/** Names of the items the guard sets and restores (for docs and tests). */
export const glStateItems = {
  /** Set on every public call to the value the engine needs; the app's value is restored after. */
  set: dependsOn.map((item) => ({ name: item.name, value: item.required })),
  /** Restored after every public call (plus ACTIVE_TEXTURE and the touched units' texture bindings). */
  restored: [...restoredOnly.map((item) => item.name), 'ACTIVE_TEXTURE', 'TEXTURE_BINDING_2D (touched units)', 'SAMPLER_BINDING (touched units)'],
} as const;

/**
 * Saves, sets and restores the GL state around the engine's work on a shared context. Every public
 * entry point runs its synchronous work inside run() (or enter()/exit()); nested calls are counted and
 * only the outermost one saves and restores.
 *
 * Contract for the engine code inside:
 * - leave the state listed in `glStateItems.set` at the value the guard set when a pass is done (as
 *   concatenation does with RASTERIZER_DISCARD and its feedback binding); on the normal path exit()
 *   restores only what the app had different, and after a throw it checks every item;
 * - call touchTextureUnits(n) before binding textures to units [0, n);
 * - never bind a sampler object.
 */
export class GlStateGuard {
  readonly preserve: boolean;
  private depth = 0;
  /** The app's state during an outermost call with preserve on; null otherwise (or context lost). */
  private saved: SavedState | null = null;
  /** Units [0, touchedUnits) have been announced in this call (saved, sampler unbound). */
  private touchedUnits = 0;

  constructor(readonly gl: Gl, options: GlStateOptions = {}) {
    this.preserve = options.preserve ?? true;
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
    this.touchedUnits = 0;
    this.saved = null;
    const gl = this.gl;
    if (gl.isContextLost()) return;
    try {
      if (this.preserve) {
        this.saved = {
          dependsOn: dependsOn.map((item) => item.read(gl)),
          restoredOnly: restoredOnly.map((item) => item.read(gl)),
          activeTexture: gl.getParameter(gl.ACTIVE_TEXTURE) as number,
          units: new Map(),
        };
        // Texture creation and uploads bind on whichever unit is active: save it now.
        this.saved.units.set(this.saved.activeTexture - gl.TEXTURE0, { texture2D: gl.getParameter(gl.TEXTURE_BINDING_2D) });
        dependsOn.forEach((item, i) => {
          if (!same(this.saved!.dependsOn[i], item.required)) item.write(gl, item.required);
        });
      } else {
        for (const item of dependsOn) {
          if (!same(item.read(gl), item.required)) item.write(gl, item.required);
        }
      }
    } catch (error) {
      // Put back what was already changed, then report.
      this.depth = 0;
      this.leave(true);
      throw error;
    }
  }

  /**
   * Ends a call. `afterError`: the body threw, so state the engine depends on may have been left
   * mid-pass; every item is then checked rather than trusted. Never throws because the context is lost.
   */
  exit(afterError = false): void {
    if (this.depth === 0) throw new Error('internal: GlStateGuard.exit() without enter()');
    if (--this.depth > 0) return;
    this.leave(afterError);
  }

  /** enter(); body(); exit(), restoring even when body throws (its error wins over a restore error). */
  run<T>(body: () => T): T {
    this.enter();
    let failed = true;
    try {
      const value = body();
      failed = false;
      return value;
    } finally {
      this.exit(failed);
    }
  }

  /**
   * The draw code announces that it will bind textures to units [0, count). The first time in a call,
   * each unit's TEXTURE_2D and sampler bindings are saved (preserve on), and a bound sampler object is
   * unbound: an app's sampler with LINEAR filtering overrides the texture's NEAREST, makes integer and
   * float textures incomplete, and texelFetch then silently returns 0.
   */
  touchTextureUnits(count: number): void {
    if (this.depth === 0) throw new Error('internal: GlStateGuard.touchTextureUnits() outside enter()/exit()');
    if (count <= this.touchedUnits) return;
    const gl = this.gl;
    const saved = this.saved;
    for (let unit = this.touchedUnits; unit < count; unit++) {
      if (!saved) {
        if (!this.preserve) gl.bindSampler(unit, null);
        continue;
      }
      // getParameter answers for the active unit only.
      gl.activeTexture(gl.TEXTURE0 + unit);
      let entry = saved.units.get(unit);
      if (!entry) {
        entry = { texture2D: gl.getParameter(gl.TEXTURE_BINDING_2D) };
        saved.units.set(unit, entry);
      }
      entry.sampler = boundObject(gl.getParameter(gl.SAMPLER_BINDING));
      if (entry.sampler !== null) gl.bindSampler(unit, null);
    }
    this.touchedUnits = count;
  }

  private leave(afterError: boolean): void {
    const saved = this.saved;
    this.saved = null;
    this.touchedUnits = 0;
    const gl = this.gl;
    if (gl.isContextLost()) return;
    if (!saved) return;
    try {
      this.restore(saved, afterError);
    } catch (error) {
      // The context may have been lost during the restore; a failure then is expected, not a bug.
      if (gl.isContextLost()) return;
      // After a body's error, that error is the one to report.
      if (!afterError) throw error;
    }
  }

  private restore(saved: SavedState, afterError: boolean): void {
    const gl = this.gl;
    dependsOn.forEach((item, i) => {
      const value = saved.dependsOn[i];
      // On the normal path the engine left the item at `required`; it changed it only where the app's
      // value differed. After an error, ask.
      const changed = !same(value, item.required) || (afterError && !same(item.read(gl), value));
      if (changed) item.write(gl, value);
    });
    restoredOnly.forEach((item, i) => {
      const value = saved.restoredOnly[i];
      if (item.restore === 'always' || !same(item.read(gl), value)) item.write(gl, value);
    });
    for (const [unit, entry] of saved.units) {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, entry.texture2D as WebGLTexture | null);
      // The engine never binds a sampler: only an app's one that touchTextureUnits unbound needs it back.
      if (entry.sampler !== undefined && entry.sampler !== null) gl.bindSampler(unit, entry.sampler as WebGLSampler);
    }
    gl.activeTexture(saved.activeTexture);
  }
}
