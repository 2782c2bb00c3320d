// Bundles bench/perf-probe.ts (or bench/<name>.ts: node bench/build-probe.mjs <name>) into one file (gl external) for the GPU machine (bench/gpu/README.md).
import { build } from 'esbuild';
import { glslEsbuildPlugin } from '../scripts/glsl-loader.mjs';
const name = process.argv[2] ?? 'perf-probe';
await build({ entryPoints: [`bench/${name}.ts`], bundle: true, platform: 'node', format: 'esm', outfile: `bench/tmp/${name}.mjs`, external: ['gl'], plugins: [glslEsbuildPlugin], banner: { js: "import { createRequire as glcCreateRequire } from 'module'; const require = glcCreateRequire(import.meta.url);" } });
console.log(`bench/tmp/${name}.mjs`);
