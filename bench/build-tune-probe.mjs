// Bundles bench/tune-probe.ts into one file (gl external), for this machine or the GPU one (tools/gpu/README.md).
import { build } from 'esbuild';
import { glslEsbuildPlugin } from '../scripts/glsl-loader.mjs';
await build({ entryPoints: ['bench/tune-probe.ts'], bundle: true, platform: 'node', format: 'esm', outfile: 'bench/tmp/tune-probe.mjs', external: ['gl'], plugins: [glslEsbuildPlugin], banner: { js: "import { createRequire as glcCreateRequire } from 'module'; const require = glcCreateRequire(import.meta.url);" } });
console.log('bench/tmp/tune-probe.mjs');
