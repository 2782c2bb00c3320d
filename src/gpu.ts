// The engine's internal handle on the GL context: program cache, resource counts, pass counting,
// and the one way every fragment pass is drawn.
import * as twgl from 'twgl.js';
import fullscreenVertex from '../glsl/fullscreen.vert';
import { ProgramCache, type ProgramRequest } from './programs.js';
import type { RenderTarget, TexelFormat } from './render-target.js';
import { ResourceTracker } from './resources.js';
import { emptyStats, type PassStats } from './stats.js';
import { TexturePool } from './texture-pool.js';

export type Uniforms = Record<string, unknown>;

export class Gpu {
  readonly tracker = new ResourceTracker();
  readonly programs: ProgramCache;
  readonly pool: TexturePool;
  /** Counters of the operation in progress; operations swap in a fresh one and report it. */
  stats: PassStats = emptyStats();
  /** Attribute-less draws still need a vertex array bound in WebGL2. */
  private readonly emptyVertexArray: WebGLVertexArrayObject;

  constructor(readonly gl: WebGL2RenderingContext, poolBytes: number) {
    this.programs = new ProgramCache(gl, this.tracker);
    this.pool = new TexturePool(gl, this.tracker, poolBytes);
    this.emptyVertexArray = gl.createVertexArray()!;
    this.tracker.created('vertexArrays');
  }

  /** A render target from the pool (contents undefined: the caller's pass writes every texel). */
  target(width: number, height: number, format: TexelFormat = 'r32ui'): RenderTarget {
    return this.pool.take(width, height, format);
  }

  program(request: Omit<ProgramRequest, 'vertex'> & { vertex?: string }): twgl.ProgramInfo {
    return this.programs.get({ vertex: fullscreenVertex, ...request });
  }

  /** Runs one fragment pass over every texel of `output`. */
  pass(program: twgl.ProgramInfo, output: RenderTarget, uniforms: Uniforms): void {
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, output.framebuffer);
    gl.viewport(0, 0, output.width, output.height);
    gl.useProgram(program.program);
    twgl.setUniforms(program, uniforms);
    gl.bindVertexArray(this.emptyVertexArray);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    this.stats.passes += 1;
    this.stats.drawCalls += 1;
    this.stats.fragments += output.width * output.height;
  }

  /** Deletes a GL object the engine made and counts it off (textures go through the pool instead). */
  release(kind: 'textures' | 'buffers' | 'vertexArrays' | 'transformFeedbacks' | 'queries' | 'syncs', object: unknown): void {
    const gl = this.gl;
    const remove: Record<typeof kind, (o: never) => void> = {
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

  bindEmptyVertexArray(): void {
    this.gl.bindVertexArray(this.emptyVertexArray);
  }

  dispose(): void {
    this.pool.trim();
    this.programs.dispose();
    this.release('vertexArrays', this.emptyVertexArray);
  }
}
