// Bundles bench/read-probe.ts into one file (gl external) for the GPU machine, as build-probe.mjs
// does for perf-probe.ts: node bench/build-read-probe.mjs && node bench/tmp/read-probe.mjs
import { build } from 'esbuild';
import { glslEsbuildPlugin } from '../scripts/glsl-loader.mjs';
await build({ entryPoints: ['bench/read-probe.ts'], bundle: true, platform: 'node', format: 'esm', outfile: 'bench/tmp/read-probe.mjs', external: ['gl'], plugins: [glslEsbuildPlugin], banner: { js: "import { createRequire as glcCreateRequire } from 'module'; const require = glcCreateRequire(import.meta.url);" } });
console.log('bench/tmp/read-probe.mjs');
