// Bundles bench/cli.mjs (with the built glcompact, vega and the rest; gl external) into one file for
// the GPU machine (bench/gpu/README.md): bench/tmp/bench-cli.mjs. Run `npm run build` first.
import { build } from 'esbuild';
await build({
  entryPoints: ['bench/cli.mjs'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: 'bench/tmp/bench-cli.mjs',
  external: ['gl'],
  // Bundled CommonJS dependencies call require(); give the ES module one.
  banner: { js: "import { createRequire as glcCreateRequire } from 'module'; const require = glcCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
console.log('bench/tmp/bench-cli.mjs');
