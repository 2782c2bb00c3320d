// Turns the user's `keep` option into the GLSL `keepElement(bits, index)` that keep-flags.frag
// calls, and turns a compile error in a user's `{ glsl }` snippet into an error about their lines.
import { GENERATED_SOURCE, spliceAtMarker } from '../programs.js';
import type { ElementType } from '../stream.js';

export type KeepOption = 'nonzero' | { lessEqual: number } | { greaterThan: number } | { glsl: string };

export interface KeepFunction {
  source: string;
  uniforms: Record<string, number>;
  /** Cache key part: equal keys give the same program. */
  key: string;
  /** The user's snippet, when there is one. */
  userBody?: string;
}

const KEEP_MARKER = '//@KEEP_FUNCTION';
/** Source-string number of the user's snippet: the driver's log then cites the user's own lines. */
const USER_SOURCE = 1000;

/** Names the generated shader owns; a snippet that uses them could break or spy on the pass. */
const reservedNames = ['outValue', 'keepElement', 'decodeValue', 'texelOf', 'indexOf', 'streamLength', 'main'];

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
        : 'any(notEqual(bitsOfComponents(bits), uvec4(0u)))';
    return {
      source: `uvec4 bitsOfComponents(uvec4 bits) {
#if COMPONENTS == 1
  return uvec4(bits.r, 0u, 0u, 0u);
#else
  return bits;
#endif
}
bool keepElement(uvec4 bits, uint index) { return ${test}; }`,
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
  return {
    source: `bool keep(vec4 value, uint index) {\n#line 1 ${USER_SOURCE}\n${body}\n}\n#line 1 ${GENERATED_SOURCE}\nbool keepElement(uvec4 bits, uint index) { return keep(decodeValue(bits), index); }`,
    uniforms: {},
    key: `glsl:${body}`,
    userBody: body,
  };
}

export function insertKeepFunction(fragmentSource: string, keep: KeepFunction): string {
  return spliceAtMarker(fragmentSource, KEEP_MARKER, keep.source);
}

/** Rejects snippets that would not be a plain function body of the engine's shader. */
export function checkUserSnippet(body: string): void {
  if (/^\s*#/m.test(body)) {
    throw new Error('keep.glsl: preprocessor directives (#...) are not allowed in the keep() body; write plain GLSL statements');
  }
  for (const name of reservedNames) {
    if (new RegExp(`\\b${name}\\b`).test(body)) {
      throw new Error(`keep.glsl: '${name}' is a name the engine's shader reserves; rename it in your keep() body`);
    }
  }
  const engineUniform = body.match(/\bu_\w+/);
  if (engineUniform) {
    throw new Error(`keep.glsl: '${engineUniform[0]}' uses the engine's u_ prefix, reserved for its uniforms; rename it`);
  }
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
    const width = String(bodyLines.length).length;
    const quoted = bodyLines.map((line, i) => `${marked.has(i + 1) ? '>' : ' '} ${String(i + 1).padStart(width)} | ${line}`);
    return `keep.glsl does not compile:\n${messages.map((m) => `  ${m}`).join('\n')}\nyour keep(vec4 value, uint index) body:\n${quoted.join('\n')}`;
  } finally {
    gl.deleteShader(shader);
  }
}
