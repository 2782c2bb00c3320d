// Builds the package: ESM bundles in dist/ (GLSL passes inlined by the glsl plugin) and type
// declarations in dist/types/.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
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
console.log('built dist/index.js, dist/node.js and dist/types/');
