// What the bench scripts that drive a browser share (bench/browser.mjs, tuned-sweep-browser.mjs,
// family-browser.mjs): the --help and --browser checks, and, for a bench page folder of its own
// (bench/tuned-sweep-page/, bench/family-page/), building it with vite (the engine from src/, as the
// demo pages import it), serving it on localhost and opening one engine of scripts/browsers.mjs.
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build, preview } from 'vite';
import { browserEngines, launchBrowser } from '../../scripts/browsers.mjs';
import { glslVitePlugin } from '../../scripts/glsl-loader.mjs';
import { consoleCapture } from '../../examples/vite.config.mjs';

/** Prints the usage and exits for --help (0) or for a --browser that is not one of the three (2). */
export function exitOnHelpOrUnknownBrowser(values, usage) {
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (!browserEngines.includes(values.browser)) {
    console.error(`--browser must be one of ${browserEngines.join(', ')}; got '${values.browser}'\n\n${usage}`);
    process.exit(2);
  }
}

/**
 * Builds the page folder `folder` (a URL), serves it and launches `engine`; `minify: false` keeps the
 * functions' names (a profile's samples name them); `geckoProfile` (firefox): a file for Firefox's own
 * profile of the whole run, written as the browser closes (scripts/browsers.mjs launchBrowser).
 * @returns `browser`, `url(path)` of a page on the server, and `close()` (browser, server, build output).
 */
export async function openBenchPage(folder, engine, { minify = true, geckoProfile } = {}) {
  const root = folder.pathname;
  const pageConfig = {
    configFile: false, root, base: './', logLevel: 'error',
    plugins: [glslVitePlugin(), consoleCapture()],
    resolve: { alias: [{ find: /^glcompact$/, replacement: new URL('../../src/index.ts', import.meta.url).pathname }] },
    // A page's workers (bench/tuned-sweep-page/tune.worker.ts) import the engine too: its GLSL passes.
    worker: { format: 'es', plugins: () => [glslVitePlugin()] },
  };
  const outDir = join(tmpdir(), `glcompact-${basename(root)}-${process.pid}`);
  console.error(`building bench/${basename(root)}…`);
  await build({ ...pageConfig, build: { outDir, emptyOutDir: true, target: 'es2022', minify } });
  const server = await preview({ ...pageConfig, build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  const browser = await launchBrowser(engine, { geckoProfile });
  return {
    browser,
    url: (path) => `${server.resolvedUrls.local[0]}${path}`,
    async close() {
      await browser.close();
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
