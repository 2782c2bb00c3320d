// One bench script bundled into bench/tmp/NAME.mjs (gl left external) for this machine or the GPU one
// (bench/gpu/README.md), with the source state it was built from baked in as __GLC_SOURCE__
// (bench/probe-timing.ts sourceOfBuild: the GPU machine has no git to ask).
import { build } from 'esbuild';
import { glslEsbuildPlugin } from '../../scripts/glsl-loader.mjs';
import { sourceState } from './source-state.mjs';

export async function bundleBenchScript(name) {
  const outfile = `bench/tmp/${name}.mjs`;
  await build({
    entryPoints: [`bench/${name}.ts`], bundle: true, platform: 'node', format: 'esm', outfile, external: ['gl'],
    plugins: [glslEsbuildPlugin], define: { __GLC_SOURCE__: JSON.stringify(sourceState()) },
    banner: { js: "import { createRequire as glcCreateRequire } from 'module'; const require = glcCreateRequire(import.meta.url);" },
  });
  return outfile;
}
