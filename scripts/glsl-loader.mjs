// Loads a pass from glsl/ as a string, expanding `#include "file.glsl"` lines so that a shared
// snippet (index↔texel math, value arithmetic) is written once. Used by the esbuild build and by
// Vite/Vitest, so the shaders reach the bundle through the build and never as hand-copied strings.
//
// Traceable: every file gets a source-string number (its place in the sorted glsl/ listing) and the
// expansion emits `#line <line> <number>` directives around each include, so a driver's error log
// ("ERROR: 7:13: ...") names a real file and line. The numbers are listed in a trailing
// `// @sources 7=keep-flags.frag ...` comment that src/programs.ts reads to name the file.
// Includes are guarded: a file included twice into one pass is expanded once.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

export const glslPattern = /\.(vert|frag|glsl)$/;

/** Source-string numbers: 1 + the file's index in its folder's sorted listing (0 is the engine's generated code). */
function sourceNumber(path) {
  const files = readdirSync(dirname(path)).filter((name) => glslPattern.test(name)).sort();
  const index = files.indexOf(basename(path));
  if (index < 0) throw new Error(`GLSL file ${path} not found in its folder`);
  return index + 1;
}

function expand(path, stack, included, sources) {
  if (stack.includes(path)) throw new Error(`GLSL include cycle at ${path}`);
  if (included.has(path)) return null; // guarded: already expanded into this pass
  included.add(path);
  const number = sourceNumber(path);
  sources.set(number, basename(path));
  const lines = readFileSync(path, 'utf8').replace(/\s+$/, '').split('\n');
  const out = [];
  lines.forEach((line, i) => {
    const include = line.match(/^[ \t]*#include\s+"([^"]+)"[ \t]*$/);
    if (include) {
      const file = resolve(dirname(path), include[1]);
      const text = expand(file, [...stack, path], included, sources);
      if (text !== null) out.push(`#line 1 ${sourceNumber(file)}`, text, `#line ${i + 2} ${number}`);
      else out.push(`// (${include[1]} already included)`);
      return;
    }
    out.push(line);
    // `#version` must stay the first line; number what follows as this file's line 2.
    if (i === 0 && /^#version/.test(line) && stack.length === 0) out.push(`#line 2 ${number}`);
  });
  return out.join('\n');
}

export function loadGlsl(path) {
  const sources = new Map();
  const text = expand(path, [], new Set(), sources);
  const table = [...sources].map(([number, name]) => `${number}=${name}`).join(' ');
  return `${text}\n// @sources ${table}\n`;
}

/** esbuild plugin: `import source from '../glsl/x.frag'` gives the expanded text. */
export const glslEsbuildPlugin = {
  name: 'glsl',
  setup(build) {
    build.onLoad({ filter: glslPattern }, (args) => ({
      contents: `export default ${JSON.stringify(loadGlsl(args.path))};`,
      loader: 'js',
    }));
  },
};

/** Vite/Vitest plugin doing the same. */
export function glslVitePlugin() {
  return {
    name: 'glsl',
    enforce: 'pre',
    load(id) {
      const path = id.split('?')[0];
      if (!glslPattern.test(path)) return null;
      return `export default ${JSON.stringify(loadGlsl(path))};`;
    },
  };
}
