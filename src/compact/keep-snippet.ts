// Reads a user's `{ glsl }` snippet the way the GLSL compiler will, before it is compiled: comments
// stripped (so they may say anything), then every rule that keeps the snippet a plain body of
// keep() checked on the code that remains. Also the names a snippet or a uniform may not take.
import { KEEP_DEFINES, keepPasses } from './keep-passes.js';

/** A snippet error: the message says which rule, where, and what to do instead. */
function snippetError(message: string): Error {
  return new Error(`keep.glsl: ${message}`);
}

/** 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The source with every comment replaced by spaces (newlines kept, so offsets and line numbers
 * stay those of the original). GLSL has no string or character literals, so `//` and `/*` always
 * open a comment outside another one. Throws on a block comment that is never closed (it would
 * swallow the engine's code after the snippet).
 */
export function stripComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    if (source.startsWith('//', i)) {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      if (end === -1) throw snippetError(`the block comment opened on line ${lineAt(source, i)} is never closed (add '*/')`);
      out += source.slice(i, end + 2).replace(/[^\n]/g, ' ');
      i = end + 2;
    } else {
      out += source[i];
      i++;
    }
  }
  return out;
}

const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Identifiers of `code` (comments already stripped) with their offsets; numbers such as 1e5 or 0x1Fu are skipped. */
function* identifiersOf(code: string): Generator<{ name: string; offset: number }> {
  for (const match of code.matchAll(/[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_]*/g)) {
    if (!/[0-9]/.test(match[0][0])) yield { name: match[0], offset: match.index };
  }
}

// GLSL ES 3.00 (section 3.7 and chapter 8): names a uniform may not take. Keywords and types...
const glslKeywords = `const uniform layout centroid flat smooth break continue do for while switch case default if else
in out inout float int void bool true false invariant discard return mat2 mat3 mat4 mat2x2 mat2x3 mat2x4 mat3x2
mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 vec2 vec3 vec4 ivec2 ivec3 ivec4 bvec2 bvec3 bvec4 uint uvec2 uvec3 uvec4 lowp
mediump highp precision sampler2D sampler3D samplerCube sampler2DShadow samplerCubeShadow sampler2DArray
sampler2DArrayShadow isampler2D isampler3D isamplerCube isampler2DArray usampler2D usampler3D usamplerCube
usampler2DArray struct`;
// ...words reserved for future use (an error if used)...
const glslReservedWords = `attribute varying coherent volatile restrict readonly writeonly resource atomic_uint
noperspective patch sample subroutine common partition active asm class union enum typedef template this goto
inline noinline public static extern external interface long short double half fixed unsigned superp input output
hvec2 hvec3 hvec4 dvec2 dvec3 dvec4 fvec2 fvec3 fvec4 sampler3DRect filter image1D image2D image3D imageCube iimage1D
iimage2D iimage3D iimageCube uimage1D uimage2D uimage3D uimageCube image1DArray image2DArray iimage1DArray
iimage2DArray uimage1DArray uimage2DArray image1DShadow image2DShadow image1DArrayShadow image2DArrayShadow
imageBuffer iimageBuffer uimageBuffer sampler1D sampler1DShadow sampler1DArray sampler1DArrayShadow isampler1D
isampler1DArray usampler1D usampler1DArray sampler2DRect sampler2DRectShadow isampler2DRect usampler2DRect
samplerBuffer isamplerBuffer usamplerBuffer sampler2DMS isampler2DMS usampler2DMS sampler2DMSArray
isampler2DMSArray usampler2DMSArray sizeof cast namespace using`;
// ...built-in functions (a uniform named like one would hide it in the snippet) and predefined macros.
const glslBuiltIns = `radians degrees sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh pow exp log exp2
log2 sqrt inversesqrt abs sign floor trunc round roundEven ceil fract mod modf min max clamp mix step smoothstep
isnan isinf floatBitsToInt floatBitsToUint intBitsToFloat uintBitsToFloat packSnorm2x16 unpackSnorm2x16
packUnorm2x16 unpackUnorm2x16 packHalf2x16 unpackHalf2x16 length distance dot cross normalize faceforward reflect
refract matrixCompMult outerProduct transpose determinant inverse lessThan lessThanEqual greaterThan
greaterThanEqual equal notEqual any all not textureSize texture textureProj textureLod textureOffset texelFetch
texelFetchOffset textureProjOffset textureLodOffset textureProjLod textureProjLodOffset textureGrad
textureGradOffset textureProjGrad textureProjGradOffset dFdx dFdy fwidth texture2D texture2DProj texture2DLod
texture2DProjLod textureCube textureCubeLod defined GL_ES GL_FRAGMENT_PRECISION_HIGH`;

const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean));
const keywords = words(glslKeywords);
const reservedWords = words(glslReservedWords);
const builtIns = words(glslBuiltIns);

/**
 * Names a keep pass (with its includes) declares at the top level or tests in the
 * preprocessor: its uniforms and samplers, its output, its functions and the defines it reads.
 * Read from the shader itself, so a name added there is refused in snippets without a list to update.
 */
function declaredNames(source: string): Set<string> {
  const code = stripComments(source);
  const names = new Set<string>();
  const directives = /^[ \t]*#[ \t]*(\w+)(.*)$/gm;
  for (const [, directive, rest] of code.matchAll(directives)) {
    if (directive === 'version' || directive === 'extension' || directive === 'pragma' || directive === 'line') continue;
    for (const { name } of identifiersOf(rest)) names.add(name);
  }
  // Top-level identifiers outside parentheses (so not parameters), minus the language's own words.
  let braces = 0;
  let parens = 0;
  const withoutDirectives = code.replace(directives, (line) => ' '.repeat(line.length));
  let last = 0;
  for (const { name, offset } of identifiersOf(withoutDirectives)) {
    for (const c of withoutDirectives.slice(last, offset)) {
      if (c === '{') braces++;
      else if (c === '}') braces--;
      else if (c === '(') parens++;
      else if (c === ')') parens--;
    }
    last = offset;
    if (braces === 0 && parens === 0) names.add(name);
  }
  for (const name of [...names]) if (keywords.has(name) || builtIns.has(name)) names.delete(name);
  return names;
}

/**
 * Names the keep passes own, the same for every compaction path: what each pass (with its includes)
 * declares or tests, every define the engine gives any of them, and keepElement, which the engine
 * generates around keep().
 */
export const engineNames: ReadonlySet<string> = new Set([
  ...Object.values(keepPasses).flatMap((pass) => [...declaredNames(pass.fragment), ...pass.defines]),
  ...KEEP_DEFINES,
  'keepElement',
]);

/** Why `name` cannot be a uniform of a snippet, or undefined when it can. */
export function uniformNameProblem(name: string): string | undefined {
  if (!identifierPattern.test(name)) return 'is not a GLSL identifier (letters, digits and _, not starting with a digit)';
  if (name.length > 128) return 'is longer than 128 characters';
  if (name.startsWith('gl_')) return "starts with gl_, which GLSL reserves for its built-ins";
  if (name.includes('__')) return 'contains __, which GLSL reserves';
  if (name.startsWith('u_')) return "starts with u_, the prefix of the engine's own uniforms";
  if (keywords.has(name)) return 'is a GLSL keyword or type';
  if (reservedWords.has(name)) return 'is a word GLSL reserves for future use';
  if (builtIns.has(name)) return 'is a GLSL built-in function or macro';
  if (engineNames.has(name)) return "is a name the engine's shader reserves";
  if (name === 'value' || name === 'index' || name === 'keep') return `is taken by keep(value, index) itself`;
  return undefined;
}

/**
 * Rejects snippets that would not be a plain function body of keep(): line continuations (they
 * would splice lines behind the checks' backs; Chromium's ANGLE accepts them, headless-gl does
 * not), an unclosed block comment, preprocessor directives outside comments, braces that close
 * keep() early or never close, names the engine's shader owns, and `discard`.
 */
export function checkUserSnippet(body: string): void {
  const continuation = /\\(\r\n|\r|\n)/.exec(body);
  if (continuation) {
    throw snippetError(`line continuations are not allowed (a backslash ends line ${lineAt(body, continuation.index)}, comments included); write the statement on one line`);
  }
  const code = stripComments(body);

  const hash = code.indexOf('#');
  if (hash !== -1) {
    const line = lineAt(code, hash);
    throw snippetError(`preprocessor directives (#...) are not allowed in the keep() body (line ${line}: ${JSON.stringify(body.split(/\r\n|\r|\n/)[line - 1].trim())}); write plain GLSL statements ('#' inside a comment is fine)`);
  }

  // Brace depth below zero would close keep() and let declarations follow at the top level.
  const open: number[] = [];
  for (let i = 0; i < code.length; i++) {
    if (code[i] === '{') open.push(i);
    else if (code[i] === '}' && open.pop() === undefined) {
      throw snippetError(`the '}' on line ${lineAt(code, i)} closes keep() early; the snippet is only the body of keep(value, index), so its braces must balance`);
    }
  }
  if (open.length > 0) throw snippetError(`the '{' on line ${lineAt(code, open[0])} is never closed; the braces of the keep() body must balance`);

  for (const { name, offset } of identifiersOf(code)) {
    if (engineNames.has(name)) {
      throw snippetError(`'${name}' is a name the engine's shader reserves (line ${lineAt(code, offset)}); rename it in your keep() body`);
    }
    if (name === 'discard') {
      throw snippetError(`'discard' is not allowed in keep() (line ${lineAt(code, offset)}): it would leave the element's flag unwritten; return false to drop the element`);
    }
    if (name.startsWith('u_')) {
      throw snippetError(`'${name}' uses the engine's u_ prefix, reserved for its uniforms (line ${lineAt(code, offset)}); rename it, or pass your own values as keep.uniforms`);
    }
  }
  // A body that never returns would fail to compile with a bare "'}' : syntax error" (or compile
  // and return garbage on lenient drivers); say what is missing instead.
  if (![...identifiersOf(code)].some(({ name }) => name === 'return')) {
    throw snippetError(`the keep() body has no return statement; it must return a bool for each element, e.g. 'return value.x > 0.5;'`);
  }
}
