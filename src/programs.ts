// Compiles each pass once per variant (its defines) and keeps the most recently used programs.
// Errors name the glsl/ file and line: the GLSL loader (scripts/glsl-loader.mjs) numbers every
// file with a `#line` source-string number and lists the numbers in a trailing `// @sources` line.
import { Slot, type ContextState } from './context-state.js';
import { PROGRAM_CACHE_SIZE, type ResourceTracker } from './resources.js';

export type Defines = Record<string, string | number | boolean | undefined>;

export interface ProgramRequest {
  vertex: string;
  /**
   * The fragment shader's source, or a function that makes it (called only when the program is not
   * cached yet) for sources generated per call: those must give `sourceKey`.
   */
  fragment: string | (() => string);
  /** Identifies a generated fragment source in the cache (e.g. the pass name and the keep test's key). */
  sourceKey?: string;
  defines?: Defines;
  /** Name used in error messages, e.g. 'jumping-jack.frag'. */
  name: string;
  /** The one varying a transform-feedback program captures. */
  transformFeedbackVarying?: string;
  /** Turns a compile error into the one to throw (a user's keep snippet: its own lines quoted). */
  explainFailure?: (error: ShaderCompileError) => Error;
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

function filesOf(...sources: string[]): string {
  const names = new Set<string>();
  for (const source of sources) for (const [number, name] of sourceNames(source)) if (number !== GENERATED_SOURCE) names.add(name);
  return [...names].join(', ') || 'inline source';
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

// PROGRAM_CACHE_SIZE lives in resources.ts: this module is imported by the public declarations' neighbours.

/**
 * Where a program's link stands: 'linking' (compile and link issued, status not asked yet: with
 * KHR_parallel_shader_compile the driver works on it in the background), 'ready'.
 */
type ProgramStage = 'linking' | 'ready';

/** Links programs, caches them by source and defines, and keeps at most `capacity` (least recently used go). */
export class ProgramCache {
  /** Source → fragment source (or the caller's key for generated ones) → defines → program. */
  private readonly index = new Map<string, Map<string, Map<string, Program>>>();
  /** In use order: the least recently used first (a Set iterates in insertion order). */
  private readonly order = new Set<Program>();
  /** KHR_parallel_shader_compile's COMPLETION_STATUS_KHR, where the context has the extension. */
  readonly completionStatus: number | undefined;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly tracker: ResourceTracker,
    private readonly state: ContextState,
    readonly capacity = PROGRAM_CACHE_SIZE,
  ) {
    const parallel = gl.getExtension('KHR_parallel_shader_compile') as { COMPLETION_STATUS_KHR: number } | null;
    this.completionStatus = parallel?.COMPLETION_STATUS_KHR;
  }

  /**
   * The program for `request`, linked and checked. A program met for the first time is compiled and
   * linked here (blocking: the link status is asked); see `prepare` for the form that does not wait.
   */
  get(request: ProgramRequest): Program {
    const program = this.prepare(request);
    if (program.stage === 'linking') this.finish(program);
    return program;
  }

  /**
   * The program for `request`, compiled and linked but possibly not finished: nothing is asked of
   * the driver, so with KHR_parallel_shader_compile it links in the background (engine.warmUp()).
   */
  prepare(request: ProgramRequest): Program {
    const vertex = this.level(this.index, request.vertex);
    const fragmentKey = request.sourceKey ?? (request.fragment as string);
    const variants = this.level(vertex, fragmentKey);
    const key = definesKey(request.defines, request.transformFeedbackVarying);
    let program = variants.get(key);
    if (program) {
      this.order.delete(program); // now the most recently used
      this.order.add(program);
      return program;
    }
    const fragmentSource = typeof request.fragment === 'function' ? request.fragment() : request.fragment;
    program = this.link(request, withDefines(request.vertex, request.defines), withDefines(fragmentSource, request.defines), () => variants.delete(key));
    variants.set(key, program);
    this.order.add(program);
    this.evictDownTo(this.capacity);
    return program;
  }

  /** Whether the driver links in the background and says when it is done (KHR_parallel_shader_compile). */
  get parallel(): boolean {
    return this.completionStatus !== undefined;
  }

  /** Whether the driver has finished linking `program` (always true without the extension). */
  linked(program: Program): boolean {
    if (program.stage === 'ready' || this.completionStatus === undefined) return true;
    return Boolean(this.gl.getProgramParameter(program.program, this.completionStatus));
  }

  private level<V>(map: Map<string, V>, key: string): V extends Map<string, infer W> ? Map<string, W> : never;
  private level(map: Map<string, Map<string, unknown>>, key: string): Map<string, unknown> {
    let next = map.get(key);
    if (!next) map.set(key, (next = new Map()));
    return next;
  }

  /** Deletes `program` now (a capability probe's, used once), if the cache still holds it. */
  drop(program: Program): void {
    if (!this.order.has(program)) return;
    this.order.delete(program);
    program.forget();
    this.state.programDeleted(program.program);
    this.gl.deleteProgram(program.program);
    this.tracker.deleted('programs');
  }

  /** Deletes the least recently used programs until `size` are left. */
  private evictDownTo(size: number): void {
    for (const program of this.order) {
      if (this.order.size <= size) return;
      this.order.delete(program);
      program.forget();
      // GL keeps a deleted program in use while it is current, and a later useProgram of it (a
      // restore) fails: make sure it is not current (preserveState false leaves the last one bound).
      this.state.programDeleted(program.program);
      this.gl.deleteProgram(program.program);
      this.tracker.deleted('programs');
    }
  }

  /** Issues the compile and link; asks nothing (see finish). */
  private link(request: ProgramRequest, vertex: string, fragment: string, forget: () => void): Program {
    const gl = this.gl;
    const program = gl.createProgram();
    const vertexShader = gl.createShader(gl.VERTEX_SHADER);
    const fragmentShader = gl.createShader(gl.FRAGMENT_SHADER);
    if (!program || !vertexShader || !fragmentShader) throw new Error(`could not create GPU program ${request.name} (is the context lost?)`);
    gl.shaderSource(vertexShader, vertex);
    gl.compileShader(vertexShader);
    gl.shaderSource(fragmentShader, fragment);
    gl.compileShader(fragmentShader);
    gl.attachShader(program, vertexShader);
    gl.attachShader(program, fragmentShader);
    if (request.transformFeedbackVarying) gl.transformFeedbackVaryings(program, [request.transformFeedbackVarying], gl.INTERLEAVED_ATTRIBS);
    gl.linkProgram(program);
    this.tracker.created('programs');
    return new Program(request.name, program, { vertex, fragment, vertexShader, fragmentShader, explainFailure: request.explainFailure }, forget);
  }

  /**
   * Checks the link (the one blocking question, asked once per program: MDN "check status only when
   * needed", and never per shader unless the link failed), frees the shaders, reads the uniforms and
   * gives each sampler its texture unit for good.
   * @returns How long (ms) the link-status question took: the wait for the link where it had not finished.
   */
  finish(program: Program): number {
    if (!this.waiting(program)) return 0;
    const gl = this.gl;
    const pending = program.pending!;
    const asked = performance.now();
    const linked = gl.getProgramParameter(program.program, gl.LINK_STATUS);
    const waited = performance.now() - asked;
    if (!linked && !gl.isContextLost()) {
      const failure = linkFailure(gl, program, pending);
      this.order.delete(program);
      program.forget();
      gl.deleteShader(pending.vertexShader);
      gl.deleteShader(pending.fragmentShader);
      gl.deleteProgram(program.program);
      this.tracker.deleted('programs');
      throw pending.explainFailure ? pending.explainFailure(failure) : failure;
    }
    // A linked program no longer needs its shaders; one never deleted would outlive the program.
    gl.detachShader(program.program, pending.vertexShader);
    gl.detachShader(program.program, pending.fragmentShader);
    gl.deleteShader(pending.vertexShader);
    gl.deleteShader(pending.fragmentShader);
    program.ready(gl, this.state, filesOf(pending.vertex, pending.fragment), declaredUniforms(pending.vertex, pending.fragment));
    return waited;
  }

  /** Whether `program` still waits for finish(): not ready, and not evicted while it linked (engine.warmUp() of more programs than the cache holds). */
  waiting(program: Program): boolean {
    return program.stage !== 'ready' && this.order.has(program);
  }

  dispose(): void {
    for (const program of [...this.order]) {
      if (program.pending) {
        this.gl.deleteShader(program.pending.vertexShader);
        this.gl.deleteShader(program.pending.fragmentShader);
      }
    }
    this.evictDownTo(0);
  }
}

/** The error for a failed link: the failing shader's log (asked only now), file and line named. */
function linkFailure(gl: WebGL2RenderingContext, { name, program }: Program, pending: PendingSources): ShaderCompileError {
  for (const [shader, source] of [[pending.fragmentShader, pending.fragment], [pending.vertexShader, pending.vertex]] as const) {
    if (gl.getShaderParameter(shader, gl.COMPILE_STATUS)) continue;
    const log = gl.getShaderInfoLog(shader) ?? '';
    return new ShaderCompileError(`could not build GPU program ${name}:\n${describeLog(log, source)}`, log, source);
  }
  const log = gl.getProgramInfoLog(program) ?? '';
  return new ShaderCompileError(`could not link GPU program ${name}:\n${log}`, log, pending.fragment);
}

/** Cache key of a variant: its defines and captured varying. */
function definesKey(defines: Defines | undefined, varying: string | undefined): string {
  let key = varying ?? '';
  if (defines) for (const name in defines) key += `|${name}=${defines[name]}`;
  return key;
}

interface PendingSources {
  vertex: string;
  fragment: string;
  explainFailure: ((error: ShaderCompileError) => Error) | undefined;
  vertexShader: WebGLShader;
  fragmentShader: WebGLShader;
}

/** Samplers of TEXTURE_2D_ARRAY (sampler2DArray, its shadow, int and uint kinds): bound to that target. */
const ARRAY_SAMPLER_TYPES = new Set([0x8dc1, 0x8dc4, 0x8dcf, 0x8dd7]);
const SAMPLER_TYPES = new Set([0x8b5e, 0x8b5f, 0x8b60, 0x8b62, 0x8dc1, 0x8dc4, 0x8dc5, 0x8dca, 0x8dcb, 0x8dcc, 0x8dcf, 0x8dd2, 0x8dd3, 0x8dd4, 0x8dd7]);

/** How one active uniform is set: a sampler's units, or a value kept to skip unchanged writes. */
interface UniformSlot {
  location: WebGLUniformLocation;
  /** Sampler (or sampler array): its first texture unit, fixed at link time. */
  unit: number;
  /** Sampler array size (1 for one sampler); 0 for a value uniform. */
  units: number;
  /** A sampler of TEXTURE_2D_ARRAY textures. */
  array?: boolean;
  /** Value uniforms: the GL type, elements per value, and the last value set (NaN before the first). */
  type: number;
  last: Float32Array | Int32Array | null;
}

/** A linked pass: its GL program, its uniforms and the texture units its samplers own. */
export class Program {
  stage: ProgramStage = 'linking';
  /** The sources and shaders while linking; dropped once ready. */
  pending: PendingSources | undefined;
  /** The glsl/ files it was built from, for messages ('block-lines-fetch.vert, texel-index.glsl, ...'). */
  files = '';
  /** Every uniform its sources declare, including ones a define compiles out (debug checks). */
  declaredUniforms: ReadonlySet<string> = new Set();
  /** Texture units its samplers use: units 0, 1, ... in the order GL lists them. */
  textureUnits = 0;
  private readonly slots = new Map<string, UniformSlot>();
  private state: ContextState | undefined;
  private gl: WebGL2RenderingContext | undefined;

  constructor(
    readonly name: string,
    readonly program: WebGLProgram,
    pending: PendingSources,
    /** Drops the program from its cache's index (eviction or a failed link). */
    readonly forget: () => void,
  ) {
    this.pending = pending;
  }

  /** Reads the active uniforms once and sets every sampler's unit for good (units never change). */
  ready(gl: WebGL2RenderingContext, state: ContextState, files: string, declared: ReadonlySet<string>): void {
    this.gl = gl;
    this.state = state;
    this.files = files;
    this.declaredUniforms = declared;
    const count = gl.getProgramParameter(this.program, gl.ACTIVE_UNIFORMS) as number;
    let unit = 0;
    const samplerUnits: Array<[WebGLUniformLocation, number, number]> = [];
    for (let i = 0; i < count; i++) {
      const info = gl.getActiveUniform(this.program, i);
      if (!info) continue;
      const name = info.name.replace(/\[0\]$/, '');
      const location = gl.getUniformLocation(this.program, info.name);
      if (!location) continue; // a uniform block member
      if (SAMPLER_TYPES.has(info.type)) {
        this.slots.set(name, { location, unit, units: info.size, type: info.type, last: null, array: ARRAY_SAMPLER_TYPES.has(info.type) });
        samplerUnits.push([location, unit, info.size]);
        unit += info.size;
      } else {
        const size = uniformSize(info.type) * info.size;
        const last = isFloatType(info.type) ? new Float32Array(size).fill(NaN) : new Int32Array(size);
        this.slots.set(name, { location, unit: -1, units: 0, type: info.type, last });
      }
    }
    this.textureUnits = unit;
    if (samplerUnits.length > 0) {
      state.setIf(Slot.program, this.program);
      for (const [location, first, size] of samplerUnits) {
        if (size === 1) gl.uniform1i(location, first);
        else gl.uniform1iv(location, Int32Array.from({ length: size }, (_, k) => first + k));
      }
    }
    // A link sets every uniform to 0: the integer caches start there (floats start at NaN, set once).
    this.pending = undefined;
    this.stage = 'ready';
  }

  /**
   * Binds the program and its inputs: textures to the samplers' fixed units (only where another is
   * bound), values only where they changed since this program last ran. Names the program does not
   * use are skipped, as GL skips them (debug mode reports names the sources do not declare).
   */
  use(uniforms: Record<string, unknown>): void {
    const state = this.state!;
    const gl = this.gl!;
    state.setIf(Slot.program, this.program);
    for (const name in uniforms) {
      const slot = this.slots.get(name);
      if (!slot) continue;
      const value = uniforms[name];
      if (slot.units > 0) {
        if (slot.units === 1) {
          state.bindTextureIf(slot.unit, value as WebGLTexture, slot.array);
          state.unbindSamplerIf(slot.unit);
        } else {
          const textures = value as ArrayLike<WebGLTexture>;
          for (let k = 0; k < slot.units && k < textures.length; k++) {
            state.bindTextureIf(slot.unit + k, textures[k], slot.array);
            state.unbindSamplerIf(slot.unit + k);
          }
        }
        continue;
      }
      setValue(gl, slot, value);
    }
  }
}

/** Elements of one value of a GL uniform type. */
function uniformSize(type: number): number {
  switch (type) {
    case 0x8b50: case 0x8b53: case 0x8dc6: case 0x8b57: return 2; // vec2, ivec2, uvec2, bvec2
    case 0x8b51: case 0x8b54: case 0x8dc7: case 0x8b58: return 3;
    case 0x8b52: case 0x8b55: case 0x8dc8: case 0x8b59: case 0x8b5a: return 4; // ..., mat2
    case 0x8b5b: return 9; // mat3
    case 0x8b5c: return 16; // mat4
    default: return 1;
  }
}

function isFloatType(type: number): boolean {
  return type === 0x1406 || (type >= 0x8b50 && type <= 0x8b52) || (type >= 0x8b5a && type <= 0x8b5c);
}

/** Writes a value uniform if it differs from the last one written (numbers or arrays of numbers). */
function setValue(gl: WebGL2RenderingContext, slot: UniformSlot, value: unknown): void {
  const last = slot.last!;
  let changed = false;
  if (typeof value === 'number') {
    if (last[0] !== value && !(Number.isNaN(value) && Number.isNaN(last[0]))) changed = true;
    // Float32Array rounds: compare what would be stored.
    if (changed && last instanceof Float32Array && last[0] === Math.fround(value)) changed = false;
    if (changed) last[0] = value;
  } else {
    const values = value as ArrayLike<number>;
    for (let i = 0; i < last.length && i < values.length; i++) {
      const stored = last instanceof Float32Array ? Math.fround(values[i]) : values[i] | 0;
      if (!Object.is(last[i], stored) && !(Number.isNaN(stored) && Number.isNaN(last[i]))) {
        changed = true;
        last[i] = stored;
      }
    }
  }
  if (!changed) return;
  const location = slot.location;
  switch (slot.type) {
    case 0x1406: return gl.uniform1fv(location, last);
    case 0x8b50: return gl.uniform2fv(location, last);
    case 0x8b51: return gl.uniform3fv(location, last);
    case 0x8b52: return gl.uniform4fv(location, last);
    case 0x8b5a: return gl.uniformMatrix2fv(location, false, last as Float32Array);
    case 0x8b5b: return gl.uniformMatrix3fv(location, false, last as Float32Array);
    case 0x8b5c: return gl.uniformMatrix4fv(location, false, last as Float32Array);
    case 0x1404: case 0x8b56: return gl.uniform1iv(location, last as Int32Array); // int, bool
    case 0x8b53: case 0x8b57: return gl.uniform2iv(location, last as Int32Array);
    case 0x8b54: case 0x8b58: return gl.uniform3iv(location, last as Int32Array);
    case 0x8b55: case 0x8b59: return gl.uniform4iv(location, last as Int32Array);
    // uint uniforms: the engine's shaders use none (headless-gl cannot set them, adapter.ts).
    default: throw new Error(`internal: uniform of GL type 0x${slot.type.toString(16)} is not supported by the engine's uniform cache`);
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

/**
 * engine.warmUp() without KHR_parallel_shader_compile: the pause (ms) before asking the next link's
 * status, from the last pause and how long its question still waited. A question that waited more than
 * a quarter of the pause (and over 0.5 ms) found its link unfinished: the next pause adds that wait;
 * otherwise it halves. Never above `most`.
 */
export function nextLinkPause(pause: number, waited: number, most: number): number {
  return Math.min(most, waited > Math.max(0.5, pause / 4) ? pause + waited : pause / 2);
}
