// Checks the user's `keep` option, turns it into the GLSL `keepElement(bits, index)` that
// keep-flags.frag calls, and turns a compile error in a user's `{ glsl }` snippet into an error
// about their lines.
import { GENERATED_SOURCE, spliceAtMarker } from '../programs.js';
import { Stream, viewOf, type ElementType } from '../stream.js';
import { streamGlsl } from '../stream-access.js';
import { describe, finiteNumber } from '../validate.js';
import { checkUserSnippet, uniformNameProblem } from './keep-snippet.js';

/**
 * A `{ glsl }` snippet's uniforms: each a number or 2-4 numbers, declared in the stream's scalar
 * type (float, uint or int; vecN, uvecN or ivecN for arrays), or a matrix of 9 or 16 numbers,
 * declared `mat3` / `mat4` (column-major, as gl-matrix stores them) on any stream type. Arrays may
 * be plain or typed (gl-matrix's `vec3` and `mat4` are `Float32Array`s), readonly included.
 */
export type KeepUniforms = Record<string, number | ArrayLike<number>>;

/**
 * A texture of the app's that a `{ glsl }` snippet samples (`keep.textures`): declared
 * `uniform highp sampler2D` ('float'), `isampler2D` ('int') or `usampler2D` ('uint') under its
 * name, for `texelFetch`, `texture` or `textureLod`. `type` must match the texture's format (a
 * float format for 'float', an integer one for the others): WebGL cannot be asked without a sync.
 * The engine binds it to a texture unit for the call and puts the app's binding back; it never
 * changes the texture's parameters (filtering, mipmaps), so sample it as they are set.
 */
export interface KeepTexture {
  /** The app's texture (TEXTURE_2D); the engine binds it for the call and changes nothing else of it. */
  texture: WebGLTexture;
  /** Its sampler's kind: 'float' for float and normalized formats, 'int' / 'uint' for integer ones. */
  type: 'float' | 'int' | 'uint';
}

/**
 * Which elements `engine.compact()` keeps: 'nonzero' (any component non-zero; -0.0 counts as zero,
 * NaN as non-zero, and a denormal as the GPU compares it: GLSL ES lets it flush them to zero),
 * `{ lessEqual: x }` / `{ greaterThan: x }` (compared in the element's own type), or `{ glsl }`: the
 * body of `bool keep(T value, uint index)`, T being vec4, uvec4 or ivec4 for a float32, uint32 or
 * int32 stream, with optional `uniforms` whose values change without recompiling, e.g.
 * `{ glsl: 'return value.x > minimum && index % 2u == 0u;', uniforms: { minimum: 0.5 } }`.
 */
export type KeepOption =
  | 'nonzero'
  | {
      /** Keep elements <= this threshold (first component; NaN is never kept). */
      lessEqual: number;
    }
  | {
      /** Keep elements > this threshold (first component; NaN is never kept). */
      greaterThan: number;
    }
  | {
      /** GLSL ES 3.00 statements: the body of `bool keep(T value, uint index)` (T: vec4, uvec4 or ivec4, by the stream's type; unused components are 0). */
      glsl: string;
      /** Named values the snippet uses, declared by the engine (see {@link KeepUniforms}); new values need no recompile. May be left out or `undefined`. */
      uniforms?: KeepUniforms | undefined;
      /**
       * Other streams of the same engine the snippet reads, by name: each is declared
       * `uniform highp usampler2D name;` and read with the {@link streamGlsl} functions, e.g.
       * `glcompactFloatElement(radii, index).x` (element `i` of any stream; whether the lengths
       * match is the snippet's business: past a stream's length lies padding).
       */
      streams?: Record<string, Stream> | undefined;
      /** The app's own textures the snippet samples, by name (see {@link KeepTexture}). */
      textures?: Record<string, KeepTexture> | undefined;
    }
  | {
      /**
       * Keep element i where the first component of `flags[i]` is not zero (as a value for float32
       * flags, so -0.0 is zero; as bits otherwise), as CUB's `DeviceSelect::Flagged`. A stream of
       * the same engine, e.g. one your own pass rendered (README "Rendering into a stream's
       * texture"); its length must equal the stream's where both are known on the CPU, and
       * elements past a GPU-resident flags length are not kept.
       */
      flags: Stream;
    };

export interface KeepFunction {
  source: string;
  /** Uniform values for the pass, by the engine's uniform names (textures for samplers). */
  uniforms: Record<string, number | number[] | WebGLTexture>;
  /** Cache key part: equal keys give the same program (values of uniforms are not part of it). */
  key: string;
  /** The user's snippet, when there is one. */
  userBody?: string;
}

const KEEP_MARKER = '//@KEEP_FUNCTION';
/** Source-string number of the user's snippet: the driver's log then cites the user's own lines. */
const USER_SOURCE = 1000;

/** At most this many uniforms per snippet (GLSL ES 3.00 guarantees 224 uniform vectors per fragment shader). */
export const MAX_KEEP_UNIFORMS = 64;

/** The snippet's value type and the scalar type of its uniforms, per stream type. */
const valueTypes: Record<ElementType, { scalar: 'float' | 'uint' | 'int'; vector: 'vec' | 'uvec' | 'ivec' }> = {
  float32: { scalar: 'float', vector: 'vec' },
  uint32: { scalar: 'uint', vector: 'uvec' },
  int32: { scalar: 'int', vector: 'ivec' },
};

/** `keep(uvec4 value, uint index)`: the function a snippet is the body of, on a stream of `type`. */
export function keepSignature(type: ElementType): string {
  return `keep(${valueTypes[type].vector}4 value, uint index)`;
}

const keepShapes = "'nonzero', { lessEqual: number }, { greaterThan: number }, { flags: Stream } or { glsl: string, uniforms?: { name: number | number[] }, streams?: { name: Stream }, textures?: { name: { texture, type } } }";

/**
 * At most this many streams and textures per snippet together: each takes a texture unit (WebGL2
 * guarantees 16 in a fragment shader; the keep passes use up to 2 of their own).
 */
export const MAX_KEEP_TEXTURES = 8;

const textureTypes = { float: 'sampler2D', int: 'isampler2D', uint: 'usampler2D' } as const;

/**
 * Checks the `keep` option of engine.compact() for a stream of `type` and returns a copy the
 * caller cannot change afterwards: thresholds finite, a snippet that parses as a plain body of
 * keep() (keep-snippet.ts), uniforms with free names and values that fit their GLSL type.
 */
export function parseKeepOption(keep: unknown, type: ElementType, call = 'engine.compact()'): KeepOption {
  if (keep === 'nonzero') return keep;
  if (typeof keep === 'object' && keep !== null && !Array.isArray(keep)) {
    const keys = Object.keys(keep);
    const option = keep as Record<string, unknown>;
    if (keys.length === 1 && keys[0] === 'lessEqual') return { lessEqual: finiteNumber(`${call}: options.keep.lessEqual`, option.lessEqual) };
    if (keys.length === 1 && keys[0] === 'greaterThan') return { greaterThan: finiteNumber(`${call}: options.keep.greaterThan`, option.greaterThan) };
    if (keys.length === 1 && keys[0] === 'flags') {
      if (!(option.flags instanceof Stream)) throw new Error(`${call}: options.keep.flags must be a Stream of this engine (engine.stream(), or a result's .stream); got ${describe(option.flags)}`);
      return { flags: option.flags };
    }
    const glslKeys = ['glsl', 'uniforms', 'streams', 'textures'];
    if (keys.includes('glsl') && keys.every((key) => glslKeys.includes(key))) {
      const glsl = option.glsl;
      if (typeof glsl !== 'string' || glsl.trim() === '') {
        throw new Error(`${call}: options.keep.glsl must be a non-empty string of GLSL (the body of bool ${keepSignature(type)} on this ${type} stream); got ${describe(glsl)}`);
      }
      checkUserSnippet(glsl);
      const parsed: KeepOption & { glsl: string } = { glsl };
      const names = new Map<string, string>();
      if (option.uniforms !== undefined) parsed.uniforms = parseUniforms(call, option.uniforms, type, names);
      if (option.streams !== undefined) parsed.streams = parseNamed(call, 'streams', option.streams, names, parseStreamInput);
      if (option.textures !== undefined) parsed.textures = parseNamed(call, 'textures', option.textures, names, parseTextureInput);
      const samplers = Object.keys(parsed.streams ?? {}).length + Object.keys(parsed.textures ?? {}).length;
      if (samplers > MAX_KEEP_TEXTURES) throw new Error(`${call}: options.keep.streams and options.keep.textures: at most ${MAX_KEEP_TEXTURES} together (each takes a texture unit); got ${samplers}`);
      return parsed;
    }
  }
  throw new Error(`${call}: options.keep must be ${keepShapes}; got ${describe(keep)}`);
}

/** Checks a name of keep.uniforms / .streams / .textures: a free GLSL name, used once across the three. */
function checkInputName(what: string, name: string, names: Map<string, string>): void {
  const problem = uniformNameProblem(name);
  if (problem) throw new Error(`${what}: the name ${JSON.stringify(name)} ${problem}; pick another name`);
  const other = names.get(name);
  if (other !== undefined) throw new Error(`${what}: the name ${JSON.stringify(name)} is also in options.keep.${other}; each name declares one GLSL variable`);
  names.set(name, what.replace(/^.*options\.keep\./, ''));
}

function parseUniforms(call: string, uniforms: unknown, type: ElementType, names: Map<string, string>): Record<string, number | number[]> {
  const what = `${call}: options.keep.uniforms`;
  if (typeof uniforms !== 'object' || uniforms === null || Array.isArray(uniforms) || ArrayBuffer.isView(uniforms)) {
    throw new Error(`${what} must be an object of { name: number | number[] }; got ${describe(uniforms)}`);
  }
  const keys = Object.keys(uniforms);
  if (keys.length > MAX_KEEP_UNIFORMS) throw new Error(`${what}: at most ${MAX_KEEP_UNIFORMS} uniforms; got ${keys.length}`);
  const parsed: Record<string, number | number[]> = {};
  for (const name of keys) {
    checkInputName(what, name, names);
    parsed[name] = uniformValue(`${what}.${name}`, (uniforms as Record<string, unknown>)[name], type);
  }
  return parsed;
}

/** Parses keep.streams or keep.textures: an object of named inputs, each checked by `parse`. */
function parseNamed<T>(call: string, field: 'streams' | 'textures', inputs: unknown, names: Map<string, string>, parse: (what: string, value: unknown) => T): Record<string, T> {
  const what = `${call}: options.keep.${field}`;
  const shape = field === 'streams' ? '{ name: Stream }' : "{ name: { texture: WebGLTexture, type: 'float' | 'int' | 'uint' } }";
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs) || inputs instanceof Stream) {
    throw new Error(`${what} must be an object of ${shape}; got ${describe(inputs)}`);
  }
  const parsed: Record<string, T> = {};
  for (const name of Object.keys(inputs)) {
    checkInputName(what, name, names);
    parsed[name] = parse(`${what}.${name}`, (inputs as Record<string, unknown>)[name]);
  }
  return parsed;
}

function parseStreamInput(what: string, value: unknown): Stream {
  if (!(value instanceof Stream)) throw new Error(`${what} must be a Stream of this engine (engine.stream(), or a result's .stream); got ${describe(value)}`);
  return value;
}

/** A texture object as the context hands them out (WebGLTexture, or headless-gl's class of that name). */
function isTexture(value: unknown): value is WebGLTexture {
  const WebGLTextureClass = (globalThis as { WebGLTexture?: abstract new () => unknown }).WebGLTexture;
  if (typeof value !== 'object' || value === null) return false;
  return typeof WebGLTextureClass === 'function' ? value instanceof WebGLTextureClass : true;
}

function parseTextureInput(what: string, value: unknown): KeepTexture {
  const input = value as Partial<KeepTexture> | null;
  if (typeof value !== 'object' || value === null || !isTexture(input!.texture)) {
    throw new Error(`${what} must be { texture: WebGLTexture, type: 'float' | 'int' | 'uint' }; got ${describe(value)}`);
  }
  const extra = Object.keys(value).filter((key) => key !== 'texture' && key !== 'type');
  if (extra.length > 0) throw new Error(`${what} has unknown field(s) ${extra.join(', ')}; allowed: texture, type`);
  if (input!.type !== 'float' && input!.type !== 'int' && input!.type !== 'uint') {
    throw new Error(`${what}.type must be 'float' (sampler2D), 'int' (isampler2D) or 'uint' (usampler2D), as the texture's format; got ${describe(input!.type)}`);
  }
  return { texture: input!.texture!, type: input!.type };
}

function uniformValue(what: string, value: unknown, type: ElementType): number | number[] {
  if (typeof value === 'number') return uniformNumber(what, value, type);
  const isList = Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
  const length = isList ? (value as ArrayLike<unknown>).length : 0;
  // Matrices are float on every stream type (gl-matrix's mat3 / mat4, column-major).
  if (length === 9 || length === 16) return Array.from(value as ArrayLike<unknown>, (element, i) => uniformNumber(`${what}[${i}]`, element, 'float32'));
  if (!isList || length < 2 || length > 4) {
    throw new Error(`${what} must be a number, an array of 2 to 4 numbers (declared ${valueTypes[type].scalar} or ${valueTypes[type].vector}2..4 on a ${type} stream) or a matrix of 9 or 16 numbers (mat3, mat4); got ${describe(value)}`);
  }
  return Array.from(value as ArrayLike<unknown>, (element, i) => uniformNumber(`${what}[${i}]`, element, type));
}

function uniformNumber(what: string, value: unknown, type: ElementType): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${what} must be a finite number; got ${describe(value)}`);
  if (type === 'float32') {
    if (!Number.isFinite(Math.fround(value))) throw new Error(`${what} is outside float32's range (it is declared float on a float32 stream); got ${value}`);
    return value;
  }
  const [min, max] = type === 'uint32' ? [0, 2 ** 32 - 1] : [-(2 ** 31), 2 ** 31 - 1];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${what} must be an integer from ${min} to ${max} (it is declared ${valueTypes[type].scalar} on a ${type} stream); got ${value}`);
  }
  return value;
}

/**
 * The snippet's uniforms in GLSL. Each travels as an engine-named uniform in float or int (uint
 * uniforms are broken on headless-gl, see adapter.ts: a uint's bits travel as the int with the same
 * bits) and is copied, under the user's name and in the stream's type, to a local at the top of
 * keep(). Only names and types reach the source: new values reuse the compiled program.
 */
function uniformDeclarations(uniforms: Record<string, number | number[]>, type: ElementType) {
  const { scalar, vector } = valueTypes[type];
  const globals: string[] = [];
  const locals: string[] = [];
  const values: Record<string, number | number[]> = {};
  for (const name of Object.keys(uniforms).sort()) {
    const value = uniforms[name];
    const size = typeof value === 'number' ? 1 : value.length;
    const matrix = size === 9 ? 'mat3' : size === 16 ? 'mat4' : undefined;
    const userType = matrix ?? (size === 1 ? scalar : `${vector}${size}`);
    const engineType = matrix ?? (size === 1 ? (scalar === 'float' ? 'float' : 'int') : `${scalar === 'float' ? 'vec' : 'ivec'}${size}`);
    const engineName = `u_keep_${name}`;
    globals.push(`uniform ${engineType} ${engineName};`);
    locals.push(`  ${userType} ${name} = ${userType === engineType ? engineName : `${userType}(${engineName})`};`);
    const toWire = (v: number) => (scalar === 'float' || matrix ? v : v | 0);
    values[engineName] = typeof value === 'number' ? toWire(value) : value.map(toWire);
  }
  return { globals, locals, values };
}

/**
 * Samplers of keep.streams and keep.textures, declared under the user's own names (GLSL ES 3.00 has
 * no sampler locals to copy them into), and streamGlsl's functions when a stream is read.
 */
function samplerDeclarations(streams: Record<string, Stream>, textures: Record<string, KeepTexture>) {
  const globals: string[] = [];
  const values: Record<string, WebGLTexture> = {};
  for (const name of Object.keys(streams).sort()) {
    globals.push(`uniform highp usampler2D ${name};`);
    values[name] = viewOf(streams[name]).target.texture;
  }
  for (const name of Object.keys(textures).sort()) {
    globals.push(`uniform highp ${textureTypes[textures[name].type]} ${name};`);
    values[name] = textures[name].texture;
  }
  if (Object.keys(streams).length > 0) globals.push(streamGlsl);
  return { globals, values };
}

/** keep: { flags }: the first component of flags[i] is not zero (float flags as values, so -0.0 is zero). */
function flagsFunction(flags: Stream): KeepFunction {
  const view = viewOf(flags);
  const knownLength = view.length !== undefined;
  const flag = view.type === 'float32' ? 'uintBitsToFloat(flag) != 0.0' : 'flag != 0u';
  const source = [
    'uniform highp usampler2D u_keepFlags;',
    'uniform int u_keepFlagsWidthLog2;',
    knownLength ? 'uniform int u_keepFlagsLength;' : 'uniform highp usampler2D u_keepFlagsLength;',
    'bool keepElement(uvec4 bits, uint index) {',
    `  uint length = ${knownLength ? 'uint(u_keepFlagsLength)' : 'texelFetch(u_keepFlagsLength, ivec2(0), 0).r'};`,
    '  if (index >= length) return false;',
    '  uint flag = texelFetch(u_keepFlags, texelOf(index, uint(u_keepFlagsWidthLog2)), 0).r;',
    `  return ${flag};`,
    '}',
  ].join('\n');
  return {
    source,
    uniforms: {
      u_keepFlags: view.target.texture,
      u_keepFlagsWidthLog2: view.layout.widthLog2,
      u_keepFlagsLength: knownLength ? view.length! : view.lengthTarget!.texture,
    },
    key: `flags-${view.type}-${knownLength ? 'length' : 'length-texture'}`,
  };
}

const always = (kept: boolean): KeepFunction => ({
  source: `bool keepElement(uvec4 bits, uint index) { return ${kept}; }`,
  uniforms: {},
  key: `const-${kept}`,
});

/** Integer thresholds are compared exactly in the element's own type; v <= p  <=>  v <= floor(p). */
function integerLessEqual(type: 'uint32' | 'int32', threshold: number, negate: boolean): KeepFunction {
  const floor = Math.floor(threshold);
  const [min, max] = type === 'uint32' ? [0, 2 ** 32 - 1] : [-(2 ** 31), 2 ** 31 - 1];
  if (floor < min) return always(negate);
  if (floor >= max) return always(!negate);
  // Integer uniforms only (see adapter.ts on uint uniforms): a uint threshold travels as the int
  // with the same bits and uint() restores it.
  const value = type === 'uint32' ? 'bits.r' : 'int(bits.r)';
  const bound = type === 'uint32' ? 'uint(u_keepThreshold)' : 'u_keepThreshold';
  const op = negate ? '>' : '<=';
  return {
    source: `uniform int u_keepThreshold;\nbool keepElement(uvec4 bits, uint index) { return ${value} ${op} ${bound}; }`,
    uniforms: { u_keepThreshold: floor | 0 },
    key: `${type}${op}`,
  };
}

export function keepFunction(keep: KeepOption, type: ElementType): KeepFunction {
  if (keep === 'nonzero') {
    // Float streams compare values (-0.0 counts as zero, NaN as non-zero); integers compare bits.
    const test =
      type === 'float32'
        ? 'any(notEqual(decodeValue(bits), vec4(0.0)))'
        : 'any(notEqual(componentBits(bits), uvec4(0u)))';
    return {
      source: `bool keepElement(uvec4 bits, uint index) { return ${test}; }`,
      uniforms: {},
      key: `nonzero-${type === 'float32' ? 'float' : 'bits'}`,
    };
  }
  if ('lessEqual' in keep || 'greaterThan' in keep) {
    const negate = !('lessEqual' in keep);
    const threshold = 'lessEqual' in keep ? keep.lessEqual : keep.greaterThan;
    if (type !== 'float32') return integerLessEqual(type, threshold, negate);
    // Float streams compare in float32, as GLSL does: NaN is neither <= nor > any threshold.
    const op = negate ? '>' : '<=';
    return {
      source: `uniform float u_keepThreshold;\nbool keepElement(uvec4 bits, uint index) { return uintBitsToFloat(bits.r) ${op} u_keepThreshold; }`,
      uniforms: { u_keepThreshold: Math.fround(threshold) },
      key: `float${op}`,
    };
  }
  if ('flags' in keep) return flagsFunction(keep.flags);
  const body = keep.glsl;
  const { globals: uniformGlobals, locals, values: uniformValues } = uniformDeclarations((keep.uniforms ?? {}) as Record<string, number | number[]>, type);
  const samplers = samplerDeclarations(keep.streams ?? {}, keep.textures ?? {});
  const globals = [...uniformGlobals, ...samplers.globals];
  const values = { ...uniformValues, ...samplers.values };
  // The body is numbered as its own source string (USER_SOURCE), so the driver's log cites the
  // user's lines; the closing brace is the body's last line + 1 ("end of the keep() body").
  const source = [
    ...globals,
    `bool ${keepSignature(type)} {`,
    ...locals,
    `#line 1 ${USER_SOURCE}`,
    body,
    '}',
    `#line 1 ${GENERATED_SOURCE}`,
    'bool keepElement(uvec4 bits, uint index) { return keep(decodeValue(bits), index); }',
  ].join('\n');
  return { source, uniforms: values, key: `glsl:${type}:${globals.join('')}${locals.join('')}:${body}`, userBody: body };
}

/** Puts the keep function at the shader's marker, as plain text (no `$` pattern expansion). */
export function insertKeepFunction(fragmentSource: string, keep: KeepFunction): string {
  // Spliced by line, never by String.replace (whose $' and $& patterns a snippet could contain).
  return spliceAtMarker(fragmentSource, KEEP_MARKER, keep.source);
}

/**
 * Compiles the fragment shader alone to get the driver's log, and rewrites each error's line number
 * into a line of the user's snippet, quoting it with a marker. Returns null if it compiles.
 */
export function describeUserCompileError(gl: WebGL2RenderingContext, fragmentSource: string, body: string): string | null {
  const shader = gl.createShader(gl.FRAGMENT_SHADER);
  if (!shader) return null;
  try {
    gl.shaderSource(shader, fragmentSource);
    gl.compileShader(shader);
    if (gl.getShaderParameter(shader, gl.COMPILE_STATUS)) return null;
    const log = gl.getShaderInfoLog(shader) ?? '';
    const bodyLines = body.split('\n');
    const messages: string[] = [];
    const marked = new Set<number>();
    for (const entry of log.split('\n').filter((l) => l.trim())) {
      const match = entry.match(/^\s*(?:ERROR|WARNING):\s*(\d+):(\d+):\s*(.*)$/);
      if (!match) {
        messages.push(entry.trim());
        continue;
      }
      const [, source, line, text] = match;
      const userLine = Number(source) === USER_SOURCE ? Number(line) : 0;
      if (userLine >= 1 && userLine <= bodyLines.length) {
        marked.add(userLine);
        messages.push(`line ${userLine}: ${text}`);
      } else if (userLine === bodyLines.length + 1) {
        marked.add(bodyLines.length);
        messages.push(`end of the keep() body: ${text}`);
      } else {
        messages.push(`in the engine's wrapper around keep(): ${text}`);
      }
    }
    // The signature and the uniforms, as the generated wrapper declares them above the body.
    const lines = fragmentSource.split('\n');
    const signatureLine = lines.findIndex((line) => line.startsWith('bool keep('));
    const bodyStart = lines.indexOf(`#line 1 ${USER_SOURCE}`);
    const signature = signatureLine === -1 ? 'keep(value, index)' : lines[signatureLine].slice('bool '.length, -' {'.length);
    const uniforms = lines.slice(signatureLine + 1, bodyStart).map((line) => line.trim().replace(/ = .*$/, ''));
    const uniformsLine = uniforms.length > 0 ? `your uniforms: ${uniforms.join(', ')}\n` : '';
    // A name the body uses but nobody declared is most often a value meant for keep.uniforms.
    const undeclared = [...new Set([...log.matchAll(/'(\w+)' : undeclared identifier/g)].map((m) => m[1]!))];
    const hint = undeclared.length === 0 ? '' : `${undeclared.map((n) => `'${n}'`).join(', ')} ${undeclared.length === 1 ? 'is' : 'are'} not declared: pass a value in keep.uniforms (e.g. uniforms: { ${undeclared[0]}: 1 }), a stream in keep.streams or a texture in keep.textures, or declare it in the body\n`;
    const width = String(bodyLines.length).length;
    const quoted = bodyLines.map((line, i) => `${marked.has(i + 1) ? '>' : ' '} ${String(i + 1).padStart(width)} | ${line}`);
    return `keep.glsl does not compile:\n${messages.map((m) => `  ${m}`).join('\n')}\n${hint}${uniformsLine}your ${signature} body:\n${quoted.join('\n')}`;
  } finally {
    gl.deleteShader(shader);
  }
}

/**
 * engine.unique()'s test: element i starts a run (i is 0, or its words differ from element i - 1's
 * in any of the stream's components). Reads the previous element from the pass's own u_values.
 */
export function uniqueKeepFunction(): KeepFunction {
  return {
    source: [
      'bool keepElement(uvec4 bits, uint index) {',
      '  if (index == 0u) return true;',
      '  uvec4 previous = texelFetch(u_values, texelOf(index - 1u, uint(u_widthLog2)), 0);',
      '  return any(notEqual(componentBits(bits), componentBits(previous)));',
      '}',
    ].join('\n'),
    uniforms: {},
    key: 'unique',
  };
}
