// Checks the user's `keep` option, turns it into the GLSL `keepElement(bits, index)` that
// keep-flags.frag calls, and turns a compile error in a user's `{ glsl }` snippet into an error
// about their lines.
import { GENERATED_SOURCE, spliceAtMarker } from '../programs.js';
import type { ElementType } from '../stream.js';
import { describe, finiteNumber } from '../validate.js';
import { checkUserSnippet, uniformNameProblem } from './keep-snippet.js';

/**
 * A `{ glsl }` snippet's uniforms: each a number or 2-4 numbers, declared in the stream's scalar
 * type (float, uint or int; vecN, uvecN or ivecN for arrays).
 */
export type KeepUniforms = Record<string, number | number[]>;

/**
 * Which elements `engine.compact()` keeps: 'nonzero' (any component non-zero; -0.0 counts as zero),
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
    };

export interface KeepFunction {
  source: string;
  /** Uniform values for the pass, by the engine's uniform names. */
  uniforms: Record<string, number | number[]>;
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

const keepShapes = "'nonzero', { lessEqual: number }, { greaterThan: number } or { glsl: string, uniforms?: { name: number | number[] } }";

/**
 * Checks the `keep` option of engine.compact() for a stream of `type` and returns a copy the
 * caller cannot change afterwards: thresholds finite, a snippet that parses as a plain body of
 * keep() (keep-snippet.ts), uniforms with free names and values that fit their GLSL type.
 */
export function parseKeepOption(keep: unknown, type: ElementType): KeepOption {
  if (keep === 'nonzero') return keep;
  if (typeof keep === 'object' && keep !== null && !Array.isArray(keep)) {
    const keys = Object.keys(keep);
    const option = keep as Record<string, unknown>;
    if (keys.length === 1 && keys[0] === 'lessEqual') return { lessEqual: finiteNumber('engine.compact(): options.keep.lessEqual', option.lessEqual) };
    if (keys.length === 1 && keys[0] === 'greaterThan') return { greaterThan: finiteNumber('engine.compact(): options.keep.greaterThan', option.greaterThan) };
    if (keys.includes('glsl') && keys.every((key) => key === 'glsl' || key === 'uniforms')) {
      const glsl = option.glsl;
      if (typeof glsl !== 'string' || glsl.trim() === '') {
        throw new Error(`engine.compact(): options.keep.glsl must be a non-empty string of GLSL (the body of bool ${keepSignature(type)} on this ${type} stream); got ${describe(glsl)}`);
      }
      checkUserSnippet(glsl);
      return option.uniforms === undefined ? { glsl } : { glsl, uniforms: parseUniforms(option.uniforms, type) };
    }
  }
  throw new Error(`engine.compact(): options.keep must be ${keepShapes}; got ${describe(keep)}`);
}

function parseUniforms(uniforms: unknown, type: ElementType): KeepUniforms {
  const what = 'engine.compact(): options.keep.uniforms';
  if (typeof uniforms !== 'object' || uniforms === null || Array.isArray(uniforms) || ArrayBuffer.isView(uniforms)) {
    throw new Error(`${what} must be an object of { name: number | number[] }; got ${describe(uniforms)}`);
  }
  const names = Object.keys(uniforms);
  if (names.length > MAX_KEEP_UNIFORMS) throw new Error(`${what}: at most ${MAX_KEEP_UNIFORMS} uniforms; got ${names.length}`);
  const parsed: KeepUniforms = {};
  for (const name of names) {
    const problem = uniformNameProblem(name);
    if (problem) throw new Error(`${what}: the name ${JSON.stringify(name)} ${problem}; pick another name`);
    parsed[name] = uniformValue(`${what}.${name}`, (uniforms as Record<string, unknown>)[name], type);
  }
  return parsed;
}

function uniformValue(what: string, value: unknown, type: ElementType): number | number[] {
  if (typeof value === 'number') return uniformNumber(what, value, type);
  const isList = Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
  const length = isList ? (value as ArrayLike<unknown>).length : 0;
  if (!isList || length < 2 || length > 4) {
    throw new Error(`${what} must be a number or an array of 2 to 4 numbers (declared ${valueTypes[type].scalar} or ${valueTypes[type].vector}2..4 on a ${type} stream); got ${describe(value)}`);
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
function uniformDeclarations(uniforms: KeepUniforms, type: ElementType) {
  const { scalar, vector } = valueTypes[type];
  const globals: string[] = [];
  const locals: string[] = [];
  const values: Record<string, number | number[]> = {};
  for (const name of Object.keys(uniforms).sort()) {
    const value = uniforms[name];
    const size = typeof value === 'number' ? 1 : value.length;
    const userType = size === 1 ? scalar : `${vector}${size}`;
    const engineType = size === 1 ? (scalar === 'float' ? 'float' : 'int') : `${scalar === 'float' ? 'vec' : 'ivec'}${size}`;
    const engineName = `u_keep_${name}`;
    globals.push(`uniform ${engineType} ${engineName};`);
    locals.push(`  ${userType} ${name} = ${userType === engineType ? engineName : `${userType}(${engineName})`};`);
    const toWire = (v: number) => (scalar === 'float' ? v : v | 0);
    values[engineName] = typeof value === 'number' ? toWire(value) : value.map(toWire);
  }
  return { globals, locals, values };
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
  const body = keep.glsl;
  const { globals, locals, values } = uniformDeclarations(keep.uniforms ?? {}, type);
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
    const width = String(bodyLines.length).length;
    const quoted = bodyLines.map((line, i) => `${marked.has(i + 1) ? '>' : ' '} ${String(i + 1).padStart(width)} | ${line}`);
    return `keep.glsl does not compile:\n${messages.map((m) => `  ${m}`).join('\n')}\n${uniformsLine}your ${signature} body:\n${quoted.join('\n')}`;
  } finally {
    gl.deleteShader(shader);
  }
}
