// Vite config of the demo pages (examples/demo/*.html), used by `npm run demo` and by
// test/demo-pages.node.test.ts. The pages import the engine as 'glcompact', which this config
// points at src/ (GLSL passes loaded by the same plugin the build and the tests use), so the
// pages always run the engine as it is in this checkout; nothing is copied.
// The API reference (`npm run docs`, in dist-docs/) is served at ./api/: copied into the build's
// output by the plugin below (`npm run demo` builds the docs first), and served from dist-docs/ by
// the dev server (`npm run demo:dev`; run `npm run docs` once before).
import { cpSync, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { consoleCaptureScript } from '../scripts/browsers.mjs';
import { glslVitePlugin } from '../scripts/glsl-loader.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, 'demo');
export const demoOutDir = resolve(here, '../dist-demo');
export const demoPages = ['index', 'step-by-step', 'particles', 'three-culling', 'hiz-culling', 'splat-sort', 'tuning', 'benchmark'];
export const apiDocsDir = resolve(here, '../dist-docs');

const contentTypes = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };

/** Puts the TypeDoc reference at ./api/ of the demo site. */
function apiReference() {
  let outDir = demoOutDir;
  return {
    name: 'glcompact-api-reference',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      if (existsSync(join(apiDocsDir, 'index.html'))) cpSync(apiDocsDir, join(outDir, 'api'), { recursive: true });
      else this.warn('dist-docs/ is not built, so the demo has no API reference at ./api/: run `npm run docs`');
    },
    configureServer(server) {
      server.middlewares.use('/api', (request, response, next) => {
        const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
        const file = join(apiDocsDir, normalize(path.endsWith('/') ? `${path}index.html` : path));
        if (!file.startsWith(apiDocsDir) || !existsSync(file) || !statSync(file).isFile()) return next();
        response.setHeader('Content-Type', contentTypes[extname(file)] ?? 'application/octet-stream');
        response.end(readFileSync(file));
      });
    },
  };
}

/**
 * For the page tests only (test/demo-pages.node.test.ts adds it to its build's `plugins`; `npm run
 * demo` does not): puts scripts/browsers.mjs's console capture first in every page's <head>, so that
 * a driver that cannot listen to the console (classic WebDriver, i.e. WebKit) still sees the page's
 * console errors, warnings and uncaught exceptions in `window.__glcompactConsole`.
 */
export function consoleCapture() {
  return {
    name: 'glcompact-console-capture',
    transformIndexHtml: () => [{ tag: 'script', children: consoleCaptureScript, injectTo: 'head-prepend' }],
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [glslVitePlugin(), apiReference()],
  resolve: {
    alias: [{ find: /^glcompact$/, replacement: resolve(here, '../src/index.ts') }],
  },
  // The tuning page's worker imports the engine (its GLSL through the same plugin), as an ES module.
  worker: { format: 'es', plugins: () => [glslVitePlugin()] },
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
