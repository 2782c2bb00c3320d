// Compiles each pass once per variant (its defines) and keeps the most recently used programs.
import * as twgl from 'twgl.js';
import type { ResourceTracker } from './resources.js';

export type Defines = Record<string, string | number | boolean | undefined>;

export interface ProgramRequest {
  vertex: string;
  fragment: string;
  defines?: Defines;
  /** Name used in error messages, e.g. 'jumping-jack.frag'. */
  name: string;
  transformFeedbackVaryings?: string[];
}

/** Inserts `#define`s right after `#version` (which must stay on line 1). */
export function withDefines(source: string, defines: Defines = {}): string {
  const lines = Object.entries(defines)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value]) => (value === true ? `#define ${name}` : `#define ${name} ${value}`));
  if (lines.length === 0) return source;
  const newline = source.indexOf('\n');
  return `${source.slice(0, newline + 1)}${lines.join('\n')}\n${source.slice(newline + 1)}`;
}

/**
 * Deletes a linked program's shaders. twgl leaves them attached and alive, and a shader that was
 * never deleted outlives its program: each engine would leave two shader objects per program on
 * the context after dispose(). Once linked, a program no longer needs them.
 */
export function releaseShaders(gl: WebGL2RenderingContext, program: WebGLProgram): void {
  for (const shader of gl.getAttachedShaders(program) ?? []) {
    gl.detachShader(program, shader);
    gl.deleteShader(shader);
  }
}

export class ShaderCompileError extends Error {
  constructor(
    message: string,
    /** The driver's info log. */
    readonly log: string,
    /** The source that failed, after defines were inserted. */
    readonly source: string,
  ) {
    super(message);
    this.name = 'ShaderCompileError';
  }
}

/**
 * Most programs an engine keeps compiled (`engine.resources.programs` stays at or below it). Past
 * it the least recently used program is deleted, so a stream of distinct `{ glsl }` snippets cannot
 * grow GPU and driver memory without bound (llvmpipe: ~0.3 MiB of RSS per program). One compaction
 * fetches about 15 programs; sweeping every option (test/property.test.ts) touches ~170, recompiled as needed. A
 * program is evicted only after PROGRAM_CACHE_SIZE - 1 others were fetched after it, and every pass
 * is drawn within two fetches of its program, so none is deleted between its fetch and its draw.
 */
export const PROGRAM_CACHE_SIZE = 64;

export class ProgramCache {
  /** In use order: the least recently used first (a Map iterates in insertion order). */
  private readonly programs = new Map<string, twgl.ProgramInfo>();

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly tracker: ResourceTracker,
    readonly capacity = PROGRAM_CACHE_SIZE,
  ) {}

  get(request: ProgramRequest): twgl.ProgramInfo {
    const vertex = withDefines(request.vertex, request.defines);
    const fragment = withDefines(request.fragment, request.defines);
    const key = `${vertex}\u0000${fragment}\u0000${request.transformFeedbackVaryings?.join(',') ?? ''}`;
    let program = this.programs.get(key);
    if (program) {
      this.programs.delete(key); // now the most recently used
    } else {
      program = this.compile(request.name, vertex, fragment, request.transformFeedbackVaryings);
      this.evictDownTo(this.capacity - 1);
    }
    this.programs.set(key, program);
    return program;
  }

  /** Deletes the least recently used programs until `size` are left. */
  private evictDownTo(size: number): void {
    for (const [key, program] of this.programs) {
      if (this.programs.size <= size) return;
      this.programs.delete(key);
      this.gl.deleteProgram(program.program);
      this.tracker.deleted('programs');
    }
  }

  private compile(name: string, vertex: string, fragment: string, varyings?: string[]): twgl.ProgramInfo {
    const gl = this.gl;
    let failure = '';
    const program = twgl.createProgramInfo(gl, [vertex, fragment], {
      errorCallback: (message: string) => {
        failure += `${message}\n`;
      },
      ...(varyings
        ? { transformFeedbackVaryings: varyings, transformFeedbackMode: gl.INTERLEAVED_ATTRIBS }
        : {}),
    });
    if (!program) {
      const failed = /fragment/i.test(failure) || !/vertex/i.test(failure) ? fragment : vertex;
      throw new ShaderCompileError(`could not build GPU program ${name}:\n${failure}`, failure, failed);
    }
    releaseShaders(gl, program.program);
    this.tracker.created('programs');
    return program;
  }

  dispose(): void {
    this.evictDownTo(0);
  }
}
