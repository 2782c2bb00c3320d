// Bundles bench/perf-probe.ts into one file (gl external) for the GPU machine (tools/gpu/README.md).
import { build } from 'esbuild';
import { glslEsbuildPlugin } from '../scripts/glsl-loader.mjs';
await build({ entryPoints: ['bench/perf-probe.ts'], bundle: true, platform: 'node', format: 'esm', outfile: 'bench/tmp/perf-probe.mjs', external: ['gl'], plugins: [glslEsbuildPlugin], banner: { js: "import { createRequire as glcCreateRequire } from 'module'; const require = glcCreateRequire(import.meta.url);" } });
console.log('bench/tmp/perf-probe.mjs');
