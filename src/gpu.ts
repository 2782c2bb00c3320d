// The engine's internal handle on the GL context: program cache, texture pool, resource counts,
// and `draw`, the one way every pass reaches the GPU (full-screen passes, the concatenation lines,
// the transform-feedback capture), so binding, statistics and debug checks live in one place.
import fullscreenVertex from '../glsl/fullscreen.vert';
import { bufferSlot, capabilitySlot, Slot, trackedCapabilities, type ContextState } from './context-state.js';
import { GlStateGuard } from './gl-state.js';
import { ProgramCache, type Program, type ProgramRequest } from './programs.js';
import { RenderTarget } from './render-target.js';
import { ResourceTracker, type ResourceKind } from './resources.js';
import { emptyStats, type PassStats } from './stats.js';
import { COUNT_FORMAT, type TargetFormat } from './texel-format.js';
import { TexturePool } from './texture-pool.js';

export type Uniforms = Record<string, unknown>;

/** Where a draw renders: one of the engine's targets, or any framebuffer (the coverage tests). */
export interface DrawTarget {
  framebuffer: WebGLFramebuffer;
  width: number;
  height: number;
}

export interface Draw {
  program: Program;
  uniforms: Uniforms;
  /**
   * 'fullscreen': one triangle over every texel of `target` (its fragments are counted exactly);
   * 'lines' / 'points': `count` vertices, from `vertexArray` or attribute-less (gl_VertexID).
   */
  primitive: 'fullscreen' | 'lines' | 'points';
  /** Required unless the draw only captures (`capture`). */
  target?: DrawTarget;
  count?: number;
  vertexArray?: WebGLVertexArrayObject;
  /** Transform feedback: the rasterizer is off and the program's one varying goes into `buffer`. */
  capture?: { feedback: WebGLTransformFeedback; buffer: WebGLBuffer };
}

/** Objects `gpu.release` can delete; textures and framebuffers go through RenderTarget instead (but the Gpu's own framebuffer of `passInto`). */
export type ReleasableKind = Exclude<ResourceKind, 'framebuffers' | 'programs'>;

export interface GpuOptions {
  poolBytes: number;
  /** The engine's texture limit (EngineOptions.maxTextureSize): every texture it makes stays within it. */
  maxTextureSize: number;
  /** Save and restore the app's GL state around every public call (gl-state.ts). */
  preserveState: boolean;
  /** Check GL errors, framebuffer completeness and uniform names around every draw. */
  debug: boolean;
}

const RASTERIZER_DISCARD = capabilitySlot(trackedCapabilities.indexOf('RASTERIZER_DISCARD'));

const glErrorNames: Record<number, string> = {
  0x0500: 'INVALID_ENUM',
  0x0501: 'INVALID_VALUE',
  0x0502: 'INVALID_OPERATION',
  0x0505: 'OUT_OF_MEMORY',
  0x0506: 'INVALID_FRAMEBUFFER_OPERATION',
  0x9242: 'CONTEXT_LOST_WEBGL',
};

export class Gpu {
  readonly tracker = new ResourceTracker();
  readonly programs: ProgramCache;
  readonly pool: TexturePool;
  /** Sets the state the passes depend on and restores the app's (every public call runs inside it). */
  readonly guard: GlStateGuard;
  /** Debug checks around every draw (off while the capability probe provokes errors on purpose). */
  debug: boolean;
  /** Counters of the operation in progress; operations swap in a fresh one and report it. */
  stats: PassStats = emptyStats();
  /**
   * Benchmarks only (bench/perf-probe.ts --profile): when set, every draw is fenced with gl.finish()
   * on both sides and its wall time recorded under the pass's name and size. Never set by the engine.
   */
  profile: Map<string, number[]> | undefined;
  /**
   * engine.warmUp(): programs met for the first time are compiled and linked but not waited for, and
   * their draws are skipped (the call runs only to learn which programs it needs). Set by warmUp only.
   */
  warming: Set<Program> | undefined;
  /** The shadow of the context's state (context-state.ts), shared with the guard. */
  readonly state: ContextState;
  /** The engine's texture limit: no side of a texture it makes exceeds it (layout.ts, texture-pool.ts). */
  readonly maxTextureSize: number;
  /** Colour attachments a pass may write (capabilities.ts probes 8, else 4, else 1). */
  drawBuffers: 1 | 4 | 8 = 1;
  /** A pass writes RGBA32UI layers and an R32UI companion together (capabilities.ts probes it where drawBuffers is 8). */
  mixedFormatAttachments = false;
  /** Attribute-less draws still need a vertex array bound in WebGL2. */
  private readonly emptyVertexArray: WebGLVertexArrayObject;
  /**
   * The framebuffer of passes that write a texel of several targets at once (`passInto`): the
   * targets' textures are attached for the draw and detached after it, so it holds none between
   * calls (the pool may delete them). Made once, not per call.
   */
  private readonly joinedFramebuffer: WebGLFramebuffer;
  /** How many colour attachments `joinedFramebuffer`'s draw buffers name now. */
  private joinedDrawBuffers = 0;

  constructor(readonly gl: WebGL2RenderingContext, options: GpuOptions) {
    this.debug = options.debug;
    this.guard = new GlStateGuard(gl, { preserve: options.preserveState });
    this.state = this.guard.state;
    this.programs = new ProgramCache(gl, this.tracker, this.state);
    this.maxTextureSize = options.maxTextureSize;
    this.pool = new TexturePool(gl, this.tracker, options.poolBytes, options.maxTextureSize);
    // Debug mode says once when calls outgrow the pool: each such call then pays a clear of every
    // target it takes, which nothing else shows (results stay exact, only slower).
    let told = false;
    this.pool.onReallocate = (bytes, budgetBytes) => {
      if (!this.debug || told) return;
      told = true;
      const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
      console.warn(`glcompact (debug): a ${mib(bytes)} texture the pool had freed to stay within texturePoolBytes (${mib(budgetBytes)}) was allocated again: the calls' textures outgrow the pool, and each one made again costs a clear of its memory (an H200 compacted 2^24 elements in 54-80 ms a call with the default 64 MiB, 3.7 ms with 1 GiB). Raise createEngine's texturePoolBytes above the calls' working set, and call engine.trim() when done with them. (Said once per engine.)`);
    };
    // A failure here must leave nothing on the context: no object, and the guard's interceptors
    // removed (the engine that would dispose them never comes to be).
    let vertexArray: WebGLVertexArrayObject | undefined;
    let framebuffer: WebGLFramebuffer | null = null;
    try {
      vertexArray = this.create('vertexArrays');
      framebuffer = gl.createFramebuffer();
      if (!framebuffer) throw new Error('could not create a GL framebuffer (is the context lost?)');
    } catch (error) {
      if (vertexArray) this.release('vertexArrays', vertexArray);
      this.guard.dispose();
      throw error;
    }
    this.emptyVertexArray = vertexArray;
    this.joinedFramebuffer = framebuffer;
    this.tracker.created('framebuffers');
  }

  /**
   * A render target from the pool (contents undefined: the caller's pass writes every texel); with
   * `layers` > 1 a layered one (render-target.ts), at most `drawBuffers` layers; with `companion`,
   * a 2D texture of that format attached after them (layers + 1 at most `drawBuffers`).
   */
  target(width: number, height: number, format: TargetFormat = COUNT_FORMAT, layers = 1, companion?: TargetFormat): RenderTarget {
    if (companion && layers + 1 > this.drawBuffers) throw new Error(`internal: ${layers} layers and a companion make more than the ${this.drawBuffers} attachments a pass writes`);
    return this.pool.take(width, height, format, layers, companion);
  }

  /** A full-screen pass's program: `fragment` over fullscreen.vert unless a vertex shader is given. */
  program(request: Omit<ProgramRequest, 'vertex'> & { vertex?: string }): Program {
    return this.lookUp({ vertex: fullscreenVertex, ...request });
  }

  /** Any pass's program (linked and checked, or while warming up, only issued). */
  lookUp(request: ProgramRequest): Program {
    if (!this.warming) return this.programs.get(request);
    const program = this.programs.prepare(request);
    if (program.stage !== 'ready') this.warming.add(program);
    return program;
  }

  /** Runs one fragment pass over every texel of `output`. */
  pass(program: Program, output: DrawTarget, uniforms: Uniforms): void {
    this.draw({ program, target: output, uniforms, primitive: 'fullscreen' });
  }

  /**
   * Runs one fragment pass over every texel of `outputs` (targets of one size, at most `drawBuffers`):
   * fragment output i goes to outputs[i]. One fragment per texel however many outputs, where a pass
   * per output would run them all again (the sort's keys and values out of its pairs).
   */
  passInto(program: Program, outputs: readonly RenderTarget[], uniforms: Uniforms): void {
    const [first] = outputs;
    const alike = (o: RenderTarget) => o.width === first!.width && o.height === first!.height && o.allocatedHeight === first!.allocatedHeight && o.format === first!.format && o.layers === 1;
    if (!first || outputs.length > this.drawBuffers || !outputs.every(alike)) {
      throw new Error(`internal: passInto ${program.name} takes 1 to ${this.drawBuffers} single-layer targets of one size and format`);
    }
    this.guard.run(() => {
      if (this.warming) return;
      const gl = this.gl;
      const framebuffer = this.joinedFramebuffer;
      this.state.bindFramebufferIf(framebuffer);
      if (this.joinedDrawBuffers !== outputs.length) {
        // Draw buffers are the framebuffer's own state, not the app's.
        gl.drawBuffers(outputs.map((_, i) => gl.COLOR_ATTACHMENT0 + i));
        this.joinedDrawBuffers = outputs.length;
      }
      try {
        outputs.forEach((o, i) => gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, gl.TEXTURE_2D, o.texture, 0));
        // Through draw, as every pass (the tests' failure injection wraps it); the guard's nested run is only counted.
        this.draw({ program, target: { framebuffer, width: first.width, height: first.height }, uniforms, primitive: 'fullscreen' });
      } finally {
        // Detached even after a failure: the pool may delete these textures later.
        outputs.forEach((_, i) => gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, gl.TEXTURE_2D, null, 0));
      }
    });
  }

  /** The one draw sequence of the engine: bind, set uniforms, draw, count (and check, in debug mode). */
  draw(call: Draw): void {
    // Public calls already run inside the guard (nested runs are counted, not saved again); this
    // covers the tests and benchmarks that draw through the internals.
    this.guard.run(() => this.drawGuarded(call));
  }

  private drawGuarded(call: Draw): void {
    const gl = this.gl;
    const state = this.state;
    const { program, target } = call;
    // Warming up (engine.warmUp): the call runs only to learn which programs it needs, which link in
    // the background meanwhile; nothing is drawn.
    if (this.warming) return;
    if (program.stage !== 'ready') this.programs.finish(program);
    if (this.debug) this.checkUniformNames(call);
    if (target) {
      state.bindFramebufferIf(target.framebuffer);
      state.viewportIf(0, 0, target.width, target.height);
      if (this.debug) this.checkFramebuffer(call);
    } else if (!call.capture) {
      throw new Error(`internal: draw of ${program.name} has neither a target nor a capture buffer`);
    }
    program.use(call.uniforms);
    state.setIf(Slot.vertexArray, call.vertexArray ?? this.emptyVertexArray);
    const mode = call.primitive === 'lines' ? gl.LINES : call.primitive === 'points' ? gl.POINTS : gl.TRIANGLES;
    const count = call.primitive === 'fullscreen' ? 3 : call.count ?? 0;
    const profileStart = this.profile ? (gl.finish(), performance.now()) : 0;
    if (call.capture) {
      // The generic TRANSFORM_FEEDBACK_BUFFER binding is context state in WebGL2, and bindBufferBase
      // moves it: it is put back while the engine's feedback object is still bound (where a
      // platform keeps it in the feedback object instead, that write only touches the engine's own).
      const generic = state.values[bufferSlot(3)];
      state.setIf(RASTERIZER_DISCARD, true);
      state.setIf(Slot.transformFeedback, call.capture.feedback);
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, call.capture.buffer);
      gl.beginTransformFeedback(mode);
      gl.drawArrays(mode, 0, count);
      gl.endTransformFeedback();
      gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
      state.setIf(bufferSlot(3), generic);
      state.setIf(Slot.transformFeedback, null);
      state.setIf(RASTERIZER_DISCARD, false);
    } else {
      gl.drawArrays(mode, 0, count);
    }
    if (this.profile) this.recordProfile(`${program.name} ${target ? `${target.width}x${target.height}` : `${count} vertices`}`, profileStart);
    if (this.debug) this.checkErrors(call);
    this.stats.passes += 1;
    this.stats.drawCalls += 1;
    if (call.primitive === 'fullscreen' && target) this.stats.fragments += target.width * target.height;
  }

  /** Benchmarks only (`profile`): waits for the GPU and records the time since `start` under `key`. */
  private recordProfile(key: string, start: number): void {
    this.gl.finish();
    this.profile!.set(key, [...(this.profile!.get(key) ?? []), performance.now() - start]);
  }

  /** Runs `body` with a scope that frees every intermediate it made, except what it `keep`s. */
  scope<T>(body: (scope: Scope) => T): T {
    const scope = new Scope(this);
    try {
      return body(scope);
    } finally {
      scope.freeAll();
    }
  }

  /** Creates a GL object of `kind` and counts it (free it with `release`). */
  create(kind: 'buffers'): WebGLBuffer;
  create(kind: 'vertexArrays'): WebGLVertexArrayObject;
  create(kind: 'transformFeedbacks'): WebGLTransformFeedback;
  create(kind: 'queries'): WebGLQuery;
  create(kind: 'buffers' | 'vertexArrays' | 'transformFeedbacks' | 'queries'): unknown {
    const gl = this.gl;
    const make = {
      buffers: () => gl.createBuffer(),
      vertexArrays: () => gl.createVertexArray(),
      transformFeedbacks: () => gl.createTransformFeedback(),
      queries: () => gl.createQuery(),
    }[kind];
    const object = make();
    if (!object) throw new Error(`could not create a GL ${kind.replace(/s$/, '')} (is the context lost?)`);
    this.tracker.created(kind);
    return object;
  }

  /** Deletes a GL object the engine made and counts it off. */
  release(kind: ReleasableKind, object: unknown): void {
    const gl = this.gl;
    const remove: Record<ReleasableKind, (o: never) => void> = {
      textures: (o) => gl.deleteTexture(o),
      buffers: (o) => gl.deleteBuffer(o),
      vertexArrays: (o) => gl.deleteVertexArray(o),
      transformFeedbacks: (o) => gl.deleteTransformFeedback(o),
      queries: (o) => gl.deleteQuery(o),
      syncs: (o) => gl.deleteSync(o),
    };
    remove[kind](object as never);
    this.tracker.deleted(kind);
  }

  /** Runs `body` with fresh counters and returns what it cost. */
  measure<T>(body: () => T): { value: T; stats: PassStats } {
    const outer = this.stats;
    this.stats = emptyStats();
    try {
      const value = body();
      return { value, stats: this.stats };
    } finally {
      this.stats = outer;
    }
  }

  dispose(): void {
    this.pool.trim();
    this.programs.dispose();
    this.release('vertexArrays', this.emptyVertexArray);
    this.gl.deleteFramebuffer(this.joinedFramebuffer);
    this.tracker.deleted('framebuffers');
    this.guard.dispose();
  }

  // --- debug mode ---

  /** Program.use skips a uniform its program does not have (as GL does), so a misspelt name would leave the old value. */
  private checkUniformNames({ program, uniforms }: Draw): void {
    for (const name of Object.keys(uniforms)) {
      if (!program.declaredUniforms.has(name)) {
        throw new Error(`debug: pass ${program.name} was given uniform '${name}', which its shaders (${program.files}) do not declare; declared: ${[...program.declaredUniforms].join(', ') || 'none'}`);
      }
    }
  }

  private checkFramebuffer({ program }: Draw): void {
    const gl = this.gl;
    const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
    if (status !== gl.FRAMEBUFFER_COMPLETE) {
      throw new Error(`debug: the target of pass ${program.name} (${program.files}) is an incomplete framebuffer (status 0x${status.toString(16)})`);
    }
  }

  private checkErrors({ program, uniforms }: Draw): void {
    const error = this.gl.getError();
    if (error !== this.gl.NO_ERROR) {
      const name = glErrorNames[error] ?? `0x${error.toString(16)}`;
      // The engine's own uniforms start with u_; others are a keep snippet's inputs. An app texture
      // sampled with the wrong sampler kind fails the draw with INVALID_OPERATION (WebGL 2 §5.22).
      const inputs = Object.keys(uniforms).filter((uniform) => !uniform.startsWith('u_') && typeof uniforms[uniform] === 'object');
      const hint = inputs.length === 0 ? '' : `; the pass samples options.keep textures or streams (${inputs.join(', ')}): check that each keep.textures type matches its texture's format ('float' for float and normalized formats, 'int' / 'uint' for integer ones)`;
      throw new Error(`debug: GL error ${name} from pass ${program.name} (${program.files}) or the engine's GL calls just before it${hint}`);
    }
  }
}

/**
 * Owns the intermediates of one driver call: targets and GL objects made through it are freed when
 * the call ends (normally or by an error), except those handed to the caller with `keep`.
 */
export class Scope {
  private readonly owned = new Set<{ free(): void }>();

  constructor(readonly gpu: Gpu) {}

  /** A pool target freed at the end of the scope unless kept. */
  target(width: number, height: number, format?: TargetFormat, layers?: number, companion?: TargetFormat): RenderTarget {
    return this.own(this.gpu.target(width, height, format, layers, companion));
  }

  /** A new counted GL object, deleted at the end of the scope. */
  create(kind: 'buffers'): WebGLBuffer;
  create(kind: 'transformFeedbacks'): WebGLTransformFeedback;
  create(kind: 'buffers' | 'transformFeedbacks'): unknown {
    const object = this.gpu.create(kind as 'buffers');
    this.owned.add({ free: () => this.gpu.release(kind, object) });
    return object;
  }

  /** Deletes `object` (counted as `kind`) at the end of the scope. */
  release(kind: ReleasableKind, object: unknown): void {
    this.owned.add({ free: () => this.gpu.release(kind, object) });
  }

  own<T extends { free(): void }>(resource: T): T {
    this.owned.add(resource);
    return resource;
  }

  /** Hands `resource` to the caller: the scope no longer frees it. */
  keep<T extends { free(): void }>(resource: T): T {
    if (!this.owned.delete(resource)) throw new Error('internal: kept a resource the scope does not own');
    return resource;
  }

  /** Frees everything still owned, newest first. */
  freeAll(): void {
    const resources = [...this.owned].reverse();
    this.owned.clear();
    for (const resource of resources) resource.free();
  }
}
