// Loads a pass from glsl/ as a string, expanding `#include "file.glsl"` lines so that a shared
// snippet (index↔texel math, value arithmetic) is written once. Used by the esbuild build and by
// Vite/Vitest, so the shaders reach the bundle through the build and never as hand-copied strings.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export const glslPattern = /\.(vert|frag|glsl)$/;

export function loadGlsl(path, seen = new Set()) {
  if (seen.has(path)) throw new Error(`GLSL include cycle at ${path}`);
  const next = new Set(seen).add(path);
  return readFileSync(path, 'utf8').replace(/^[ \t]*#include\s+"([^"]+)"[ \t]*$/gm, (_, file) =>
    loadGlsl(resolve(dirname(path), file), next).trimEnd(),
  );
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
