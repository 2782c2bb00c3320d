import { readdirSync, readFileSync } from 'node:fs';
import { playwright } from '@vitest/browser-playwright';
import { configDefaults, defineConfig } from 'vitest/config';
import { chromiumArgs, chromiumExecutable } from './scripts/chromium.mjs';
import { debianBrowser } from './scripts/vitest-browser-provider.mjs';
import { glslVitePlugin } from './scripts/glsl-loader.mjs';

// Four projects run the SAME GPU test files:
//   node      headless-gl in forked Node processes (under Xvfb, see scripts/with-display.sh)
//   chromium  a canvas's WebGL2 context in headless Chromium (Debian's /usr/bin/chromium,
//             ANGLE + SwiftShader), driven by playwright-core; never `npx playwright install`.
//   firefox   the same in Debian's firefox-esr (Gecko's WebGL2 on Mesa llvmpipe), headed under the
//             X display, driven by puppeteer-core over WebDriver BiDi
//   webkit    the same in WebKitGTK's MiniBrowser (WebKit's WebGL2, Safari's engine), under the X
//             display, driven through WebKitWebDriver (scripts/vitest-browser-provider.mjs)
// test/support/engine.ts picks the context, so a test file does not care where it runs.
//
// File naming rule: `test/**/*.node.test.{ts,js}` is Node-only (spawns processes, reads files,
// exercises headless-gl quirks) and runs in the 'node' project alone. Every other
// `test/**/*.test.ts` runs in both projects.
const nodeOnly = 'test/**/*.node.test.{ts,js}';

// `npm run test:phone` (GLCOMPACT_PHONE_PROFILE=1) runs the node project again with the test context
// seen through the phone profile (test/support/phone-profile.ts). Node-only files that never open
// that context (they start browsers, pack the package, or make their own headless-gl context) would
// run exactly as in `npm test`, so that run leaves them out: the demo pages alone were 137 s of it.
const phoneRun = process.env.GLCOMPACT_PHONE_PROFILE === '1';
const testFolder = new URL('./test/', import.meta.url);
const contextFreeNodeTests = phoneRun
  ? readdirSync(testFolder)
      .filter((name) => /\.node\.test\.(ts|js)$/.test(name))
      .filter((name) => !/support\/(engine|phone-profile)\.js/.test(readFileSync(new URL(name, testFolder), 'utf8')))
      .map((name) => `test/${name}`)
  : [];

// GLCOMPACT_* knobs (e.g. GLCOMPACT_PROPERTY_RUNS) reach the tests in both projects through
// `test.env`: process.env in Node, import.meta.env in the browser (test/support/env.ts reads both).
const glcompactEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('GLCOMPACT_')));

/**
 * Random-case counts of the longest property-style tests in the firefox and webkit projects
 * (defaults: 150, 1000, 200, 200; the snippets above the program cache's 256), and compact.test.ts's per-algorithm sizes up to 2^16 + 5
 * (default 2^20 + 3).
 */
const reducedRandomCases = {
  GLCOMPACT_PROPERTY_RUNS: '50',
  // Above PROGRAM_CACHE_SIZE (256), so that programs are evicted there too.
  GLCOMPACT_SNIPPET_RUNS: '300',
  GLCOMPACT_LIFETIME_OPS: '100',
  GLCOMPACT_CONTRACT_RUNS: '100',
  GLCOMPACT_COMPACT_MAX_N: String(2 ** 16 + 5),
};

export default defineConfig({
  plugins: [glslVitePlugin()],
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: glcompactEnv,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // headless-gl loads its native addon once per process: GPU tests run in forked processes.
          pool: 'forks',
          include: ['test/**/*.test.{ts,js}'],
          exclude: [...configDefaults.exclude, ...contextFreeNodeTests],
        },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          // The sort's knob rows other than the shipped defaults run in node and firefox
          // (test/sort.test.ts says why). A GLCOMPACT_* variable set by the caller wins.
          env: { GLCOMPACT_SORT_KNOBS_DEFAULTS: '1', ...glcompactEnv },
          include: ['test/**/*.test.{ts,js}'],
          exclude: [...configDefaults.exclude, nodeOnly],
          browser: {
            enabled: true,
            headless: true,
            // Playwright gives every browser context a fresh temporary user-data-dir.
            provider: playwright({ launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs } }),
            instances: [{ browser: 'chromium' }],
            // No screenshots of failures: the canvas is off-screen, and SwiftShader is slow enough.
            screenshotFailures: false,
          },
        },
      },
      ...(['firefox', 'webkit'] as const).map((engine) => ({
        extends: true,
        test: {
          name: engine,
          // The same files with fewer random cases and compact.test.ts up to 2^16 + 5 (CI has 2 cores for all four projects; WebKit's
          // in-process llvmpipe makes it the slowest): every check still runs, node and chromium run
          // the full counts (chromium all but the sort's knob rows). WebKit runs only the sort's shipped
          // knob rows, as chromium does: its other rows took 11 of CI's 38 minutes on 2026-12-07, and
          // firefox runs every row on the same llvmpipe (test/sort.test.ts). A GLCOMPACT_* variable set by the caller wins.
          env: { ...reducedRandomCases, ...(engine === 'webkit' ? { GLCOMPACT_SORT_KNOBS_DEFAULTS: '1' } : {}), ...glcompactEnv },
          include: ['test/**/*.test.{ts,js}'],
          exclude: [...configDefaults.exclude, nodeOnly],
          browser: {
            enabled: true,
            // Headed under the X display: neither engine gives WebGL2 headless here.
            headless: false,
            provider: debianBrowser(engine),
            instances: [{ browser: engine }],
            screenshotFailures: false,
          },
        },
      })),
    ],
  },
});
