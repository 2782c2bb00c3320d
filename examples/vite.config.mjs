// Vite config of the demo pages (examples/demo/*.html), used by `npm run demo` and by
// test/demo-pages.node.test.ts. The pages import the engine as 'glcompact', which this config
// points at src/ (GLSL passes loaded by the same plugin the build and the tests use), so the
// pages always run the engine as it is in this checkout; nothing is copied.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { glslVitePlugin } from '../scripts/glsl-loader.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, 'demo');
export const demoOutDir = resolve(here, '../dist-demo');
export const demoPages = ['index', 'step-by-step', 'particles', 'three-culling', 'benchmark'];

export default defineConfig({
  root,
  base: './',
  plugins: [glslVitePlugin()],
  resolve: {
    alias: [{ find: /^glcompact$/, replacement: resolve(here, '../src/index.ts') }],
  },
  build: {
    outDir: demoOutDir,
    emptyOutDir: true,
    target: 'es2022',
    // TensorFlow.js (benchmark page only) is a large chunk; that is expected.
    chunkSizeWarningLimit: 4000,
    rollupOptions: {
      input: Object.fromEntries(demoPages.map((page) => [page, resolve(root, `${page}.html`)])),
    },
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
