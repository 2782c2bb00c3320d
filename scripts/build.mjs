// Builds the package: ESM bundles in dist/ (GLSL passes inlined by the glsl plugin) and type
// declarations in dist/types/: only those the public entry points reach (index.d.ts, node.d.ts),
// which must import nothing outside the package (no twgl typings: a consumer with
// `skipLibCheck: false` would type-check them too).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { glslEsbuildPlugin } from './glsl-loader.mjs';

rmSync('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  plugins: [glslEsbuildPlugin],
  external: ['twgl.js', 'gl-matrix', 'gl'],
  logLevel: 'warning',
};
await build({ ...common, entryPoints: { index: 'src/index.ts' }, outdir: 'dist', platform: 'neutral' });
await build({ ...common, entryPoints: { node: 'src/node.ts' }, outdir: 'dist', platform: 'node' });
execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });

// The declaration files the entry points reach, following relative imports.
const types = resolve('dist/types');
const reached = new Set();
const outside = [];
const follow = (file) => {
  if (reached.has(file)) return;
  reached.add(file);
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, ''); // not the examples in doc comments
  for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) {
    if (specifier.startsWith('.')) follow(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')));
    else outside.push(`${relative(types, file)} imports '${specifier}'`);
  }
  if (/reference\s+(types|path)=/.test(text)) outside.push(`${relative(types, file)} has a /// <reference>`);
};
follow(join(types, 'index.d.ts'));
follow(join(types, 'node.d.ts'));
if (outside.length > 0) {
  throw new Error(`the public declarations must not depend on other packages' typings:\n  ${outside.join('\n  ')}`);
}
const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
for (const file of walk(types)) if (!reached.has(file)) rmSync(file);
console.log(`built dist/index.js, dist/node.js and dist/types/ (${reached.size} declaration files, none importing other packages)`);
