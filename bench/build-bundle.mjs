// Bundles one bench script into bench/tmp/NAME.mjs (gl left external), for this machine or the GPU one
// (bench/gpu/README.md): node bench/build-bundle.mjs call-cost|pool-probe|program-count|tune-probe|tuned-sweep
import { build } from 'esbuild';
import { glslEsbuildPlugin } from '../scripts/glsl-loader.mjs';

const name = process.argv[2];
const scripts = ['call-cost', 'pool-probe', 'program-count', 'tune-probe', 'tuned-sweep'];
if (!scripts.includes(name)) {
  console.error(`usage: node bench/build-bundle.mjs ${scripts.join('|')}`);
  process.exit(2);
}
await build({
  entryPoints: [`bench/${name}.ts`], bundle: true, platform: 'node', format: 'esm', outfile: `bench/tmp/${name}.mjs`, external: ['gl'],
  plugins: [glslEsbuildPlugin], banner: { js: "import { createRequire as glcCreateRequire } from 'module'; const require = glcCreateRequire(import.meta.url);" },
});
console.log(`bench/tmp/${name}.mjs`);
