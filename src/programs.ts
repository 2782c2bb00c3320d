// Compiles each pass once per variant (its defines) and keeps the most recently used programs.
// Errors name the glsl/ file and line: the GLSL loader (scripts/glsl-loader.mjs) numbers every
// file with a `#line` source-string number and lists the numbers in a trailing `// @sources` line.
import * as twgl from 'twgl.js';
import { PROGRAM_CACHE_SIZE, type ResourceTracker } from './resources.js';

export type Defines = Record<string, string | number | boolean | undefined>;

export interface ProgramRequest {
  vertex: string;
  fragment: string;
  defines?: Defines;
  /** Name used in error messages, e.g. 'jumping-jack.frag'. */
  name: string;
  /** The one varying a transform-feedback program captures. */
  transformFeedbackVarying?: string;
}

/** A compiled pass. */
export interface Program {
  readonly name: string;
  readonly info: twgl.ProgramInfo;
  /** The glsl/ files it was built from, for messages ('block-lines-fetch.vert, texel-index.glsl, ...'). */
  readonly files: string;
  /** Every uniform its sources declare, including ones a define compiles out (debug checks). */
  readonly declaredUniforms: ReadonlySet<string>;
  /** Texture units its samplers use: twgl gives them units 0, 1, ... in order (gl-state.ts saves those). */
  readonly textureUnits: number;
}

/** Source-string number of code the engine generates at run time (e.g. the keep function). */
export const GENERATED_SOURCE = 0;

/**
 * Inserts `#define`s right after `#version` (which must stay on line 1) and keeps the line
 * numbering of what follows: sources from glsl/ carry their own `#line 2 n` on line 2; other
 * sources get one.
 */
export function withDefines(source: string, defines: Defines = {}): string {
  const lines = Object.entries(defines)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value]) => (value === true ? `#define ${name}` : `#define ${name} ${value}`));
  if (lines.length === 0) return source;
  const newline = source.indexOf('\n');
  const rest = source.slice(newline + 1);
  const renumber = /^#line /.test(rest) ? '' : '#line 2\n';
  return `${source.slice(0, newline + 1)}${lines.join('\n')}\n${renumber}${rest}`;
}

/** Source-string number → glsl/ file name, from the loader's `// @sources` line. */
export function sourceNames(source: string): Map<number, string> {
  const table = source.match(/^\/\/ @sources (.*)$/m)?.[1] ?? '';
  const names = new Map<number, string>([[GENERATED_SOURCE, 'generated code']]);
  for (const entry of table.split(' ').filter(Boolean)) {
    const [number, name] = entry.split('=');
    names.set(Number(number), name);
  }
  return names;
}

/** Rewrites "ERROR: 7:13: message" log lines into "glsl/keep-flags.frag:13: message". */
export function describeLog(log: string, source: string): string {
  const names = sourceNames(source);
  return log
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const match = line.match(/^\s*(ERROR|WARNING):\s*(\d+):(\d+):\s*(.*)$/);
      if (!match) return `  ${line.trim()}`;
      const file = names.get(Number(match[2]));
      const where = file === undefined ? `source ${match[2]}` : file === 'generated code' ? file : `glsl/${file}`;
      return `  ${where}:${match[3]}: ${match[1] === 'WARNING' ? 'warning: ' : ''}${match[4]}`;
    })
    .join('\n');
}

/** Every `uniform <type> <name>` a source declares (arrays by their bare name). */
function declaredUniforms(...sources: string[]): Set<string> {
  const names = new Set<string>();
  for (const source of sources) {
    for (const match of source.matchAll(/^\s*uniform\s+(?:(?:lowp|mediump|highp)\s+)?\w+\s+(\w+)/gm)) names.add(match[1]);
  }
  return names;
}

const samplerTypes = new Set([0x8b5e, 0x8b5f, 0x8b60, 0x8b62, 0x8dc1, 0x8dc4, 0x8dc5, 0x8dca, 0x8dcb, 0x8dcc, 0x8dcf, 0x8dd2, 0x8dd3, 0x8dd4, 0x8dd7]);

/** Texture units a linked program's samplers take (arrays count their size). */
function samplerUnits(gl: WebGL2RenderingContext, program: WebGLProgram): number {
  let units = 0;
  const count = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS) as number;
  for (let i = 0; i < count; i++) {
    const info = gl.getActiveUniform(program, i);
    if (info && samplerTypes.has(info.type)) units += info.size;
  }
  return units;
}

function filesOf(...sources: string[]): string {
  const names = new Set<string>();
  for (const source of sources) for (const [number, name] of sourceNames(source)) if (number !== GENERATED_SOURCE) names.add(name);
  return [...names].join(', ') || 'inline source';
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

// PROGRAM_CACHE_SIZE lives in resources.ts: this module imports twgl, which the public declarations must not.

export class ProgramCache {
  /** In use order: the least recently used first (a Map iterates in insertion order). */
  private readonly programs = new Map<string, Program>();

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly tracker: ResourceTracker,
    readonly capacity = PROGRAM_CACHE_SIZE,
  ) {}

  get(request: ProgramRequest): Program {
    const vertex = withDefines(request.vertex, request.defines);
    const fragment = withDefines(request.fragment, request.defines);
    const key = `${vertex}\u0000${fragment}\u0000${request.transformFeedbackVarying ?? ''}`;
    let program = this.programs.get(key);
    if (program) {
      this.programs.delete(key); // now the most recently used
    } else {
      program = this.compile(request.name, vertex, fragment, request.transformFeedbackVarying);
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
      this.gl.deleteProgram(program.info.program);
      this.tracker.deleted('programs');
    }
  }

  private compile(name: string, vertex: string, fragment: string, varying?: string): Program {
    const gl = this.gl;
    let failure = '';
    const info = twgl.createProgramInfo(gl, [vertex, fragment], {
      errorCallback: (message: string) => {
        failure += `${message}\n`;
      },
      ...(varying ? { transformFeedbackVaryings: [varying], transformFeedbackMode: gl.INTERLEAVED_ATTRIBS } : {}),
    });
    if (!info) {
      const failed = /fragment/i.test(failure) || !/vertex/i.test(failure) ? fragment : vertex;
      const entries = failure.match(/(?:ERROR|WARNING):\s*\d+:\d+:.*$/gm);
      const log = entries ? [...new Set(entries)].join('\n') : failure;
      throw new ShaderCompileError(`could not build GPU program ${name}:\n${describeLog(log, failed)}`, failure, failed);
    }
    releaseShaders(gl, info.program);
    // twgl's introspection (uniform blocks, transform-feedback queries) leaves errors queued on
    // headless-gl; drain them so a later check (debug mode, the probes) sees only its own.
    while (gl.getError() !== gl.NO_ERROR && !gl.isContextLost());
    this.tracker.created('programs');
    return { name, info, files: filesOf(vertex, fragment), declaredUniforms: declaredUniforms(vertex, fragment), textureUnits: samplerUnits(gl, info.program) };
  }

  dispose(): void {
    this.evictDownTo(0);
  }
}

/**
 * Replaces the line holding `marker` with generated `text` (numbered as GENERATED_SOURCE), then
 * restores the numbering of the file the marker sits in, so later errors still name the right line.
 */
export function spliceAtMarker(source: string, marker: string, text: string): string {
  const lines = source.split('\n');
  const at = lines.findIndex((line) => line.trim() === marker);
  if (at < 0) throw new Error(`internal: shader lost its ${marker} marker`);
  // The marker's own line number: count from the last #line directive above it.
  let line = at + 1;
  let file = '';
  for (let i = at - 1; i >= 0; i--) {
    const directive = lines[i].match(/^#line (\d+)(?: (\d+))?/);
    if (directive) {
      line = Number(directive[1]) + (at - i - 1);
      file = directive[2] ? ` ${directive[2]}` : '';
      break;
    }
  }
  lines.splice(at, 1, `#line 1 ${GENERATED_SOURCE}`, text, `#line ${line + 1}${file}`);
  return lines.join('\n');
}
