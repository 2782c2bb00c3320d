// The three browser engines every browser run uses (vitest's browser projects, the demo page tests,
// bench/browser.mjs), each from Debian's packages (scripts/setup-system.sh installs them; nothing
// is downloaded), each behind the same small page driver so a caller does not care which it drives:
//
//   chromium  /usr/bin/chromium through playwright-core, headless, WebGL2 on ANGLE + SwiftShader
//   firefox   /usr/bin/firefox-esr through puppeteer-core over WebDriver BiDi. Headed under the
//             project's X display: headless Firefox gives no WebGL2 here (measured), so it needs
//             DISPLAY (scripts/with-display.sh provides one). WebGL2 on Gecko's own GL over Mesa.
//   webkit    WebKitGTK's MiniBrowser through /usr/bin/WebKitWebDriver and webdriverio in classic
//             WebDriver mode (WebKitGTK has no BiDi), also under the X display (MiniBrowser has no
//             headless mode). WebKit masks the renderer: gl.RENDERER is "WebKit WebGL" and
//             WEBGL_debug_renderer_info's unmasked renderer "Apple GPU" (vendor "Apple Inc.").
//
// Each `newPage()` of WebKit is a WebDriver session of its own (one MiniBrowser window each), and
// WebKitWebDriver holds one session at a time ("Maximum number of active sessions"): close a WebKit
// page before opening the next.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { chromiumArgs, chromiumExecutable } from './chromium.mjs';

export const browserEngines = ['chromium', 'firefox', 'webkit'];

export const firefoxExecutable = '/usr/bin/firefox-esr';
export const webkitDriverExecutable = '/usr/bin/WebKitWebDriver';
export const miniBrowserExecutable = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/**
 * A script that records console errors, console warnings, uncaught exceptions and unhandled
 * rejections into `window.__glcompactConsole`. Classic WebDriver (WebKit) cannot listen to a
 * page's console, so pages under test can carry this in their <head>; on the other engines the
 * driver's own events see the same messages (and more: the browser's own WebGL warnings).
 */
export const consoleCaptureScript = `(() => {
  if (window.__glcompactConsole) return;
  const log = (window.__glcompactConsole = { errors: [], warnings: [] });
  const text = (args) => args.map((a) => (a instanceof Error ? a.message : typeof a === 'string' ? a : (() => { try { return JSON.stringify(a); } catch { return String(a); } })())).join(' ');
  const error = console.error.bind(console);
  const warn = console.warn.bind(console);
  console.error = (...args) => { log.errors.push('console.error: ' + text(args)); error(...args); };
  console.warn = (...args) => { log.warnings.push(text(args)); warn(...args); };
  addEventListener('error', (event) => log.errors.push('uncaught: ' + (event.error?.message ?? event.message)));
  addEventListener('unhandledrejection', (event) => log.errors.push('uncaught: ' + (event.reason?.message ?? String(event.reason))));
})();`;

function requireDisplay(engine) {
  if (!process.env.DISPLAY) {
    throw new Error(`${engine} needs an X display for WebGL2 (it has no headless WebGL2 here): run under scripts/with-display.sh`);
  }
}

/** A free TCP port on localhost. */
export async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Launches one engine.
 * @param {'chromium' | 'firefox' | 'webkit'} engine
 * @param {{ geckoProfile?: string }} [options] geckoProfile (firefox only): Firefox's profiler runs from
 *   its start (main threads and workers, JS stacks, CPU time, 1 ms samples) and writes its profile to
 *   this file when the browser closes (bench/lib/gecko-profile.mjs reads it).
 * @returns {Promise<{ engine: string, version: string, newPage(options?: { width?: number, height?: number }): Promise<BrowserPage>, close(): Promise<void> }>}
 */
export async function launchBrowser(engine, { geckoProfile } = {}) {
  if (geckoProfile !== undefined && engine !== 'firefox') throw new Error(`a Gecko profile needs firefox; got '${engine}'`);
  if (engine === 'chromium') return launchChromium();
  if (engine === 'firefox') return launchFirefox(geckoProfile);
  if (engine === 'webkit') return launchWebKit();
  throw new Error(`unknown browser engine '${engine}': use one of ${browserEngines.join(', ')}`);
}

/**
 * @typedef {object} BrowserPage
 * @property {(url: string) => Promise<void>} goto
 * @property {<A, R>(fn: (arg: A) => R, arg?: A) => Promise<Awaited<R>>} evaluate runs `fn(arg)` in the page (fn must not close over anything)
 * @property {(expression: string, timeoutMs?: number) => Promise<void>} waitForFunction until the JS expression is truthy
 * @property {(selector: string) => Promise<void>} click
 * @property {(selector: string, value: string) => Promise<void>} fill sets an input's value and fires input + change
 * @property {(selector: string, key: 'Enter' | 'Escape' | 'Tab') => Promise<void>} press focuses the element and presses the key (real key events)
 * @property {(x: number, y: number) => Promise<void>} mouseMove moves the mouse to (x, y), CSS pixels from the viewport's top left
 * @property {(path: string) => Promise<void>} screenshot PNG of the page (WebKit: of the window)
 * @property {() => Promise<{ errors: string[], warnings: string[] }>} console what the page logged so far
 * @property {() => Promise<void>} close
 */

function fillInPage({ selector, value }) {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`no element matches ${selector}`);
  element.value = value;
  element.dispatchEvent(new Event('input', { bubbles: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
}

function capturedConsole() {
  const log = window.__glcompactConsole;
  return log ? { errors: [...log.errors], warnings: [...log.warnings] } : { errors: [], warnings: [] };
}

/** Merges the driver's own console events with what the in-page capture saw (without doubles). */
function mergeConsole(events, captured) {
  const merge = (a, b) => [...a, ...b.filter((message) => !a.includes(message))];
  return { errors: merge(events.errors, captured.errors), warnings: merge(events.warnings, captured.warnings) };
}

/**
 * The page driver over a Playwright or Puppeteer page (their APIs agree but for waitForFunction's
 * arguments and press): console events ('warning' in Playwright, 'warn' in Puppeteer) merged with the
 * in-page capture.
 */
function devtoolsPage(page, { waitForFunction, press }) {
  const events = { errors: [], warnings: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') events.errors.push(`console.error: ${message.text()}`);
    if (message.type() === 'warn' || message.type() === 'warning') events.warnings.push(message.text());
  });
  page.on('pageerror', (error) => events.errors.push(`uncaught: ${error.message}`));
  return {
    async goto(url) {
      const response = await page.goto(url);
      if (response && response.status() !== 200) throw new Error(`HTTP ${response.status()} for ${url}`);
    },
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    waitForFunction: async (expression, timeout = 90_000) => void (await waitForFunction(expression, { timeout, polling: 100 })),
    click: (selector) => page.click(selector),
    fill: (selector, value) => page.evaluate(fillInPage, { selector, value }),
    press,
    mouseMove: (x, y) => page.mouse.move(x, y),
    screenshot: async (path) => void (await page.screenshot({ path, fullPage: true })),
    console: async () => mergeConsole(events, await page.evaluate(capturedConsole)),
    close: () => page.close(),
  };
}

async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
  return {
    engine: 'chromium',
    version: browser.version(),
    async newPage({ width = 1440, height = 900 } = {}) {
      const page = await browser.newPage({ viewport: { width, height } });
      return devtoolsPage(page, {
        waitForFunction: (expression, options) => page.waitForFunction(expression, null, options),
        press: (selector, key) => page.press(selector, key),
      });
    },
    /** Chromium's own trace (bench/tuned-sweep-browser.mjs --chrome-trace): the trace event JSON as a Buffer from stopTracing(). */
    startTracing: (categories) => browser.startTracing(undefined, { categories }),
    stopTracing: () => browser.stopTracing(),
    close: () => browser.close(),
  };
}

async function launchFirefox(geckoProfile) {
  requireDisplay('firefox');
  const { default: puppeteer } = await import('puppeteer-core');
  // The Gecko profiler's startup settings (Firefox's documented MOZ_PROFILER_* variables); 2^26
  // entries of buffer hold a few minutes of two threads' 1 ms samples and markers.
  const profilerEnv = geckoProfile === undefined ? {} : {
    MOZ_PROFILER_STARTUP: '1',
    MOZ_PROFILER_STARTUP_FEATURES: 'js,stackwalk,cpu',
    MOZ_PROFILER_STARTUP_FILTERS: 'GeckoMain,DOM Worker',
    MOZ_PROFILER_STARTUP_INTERVAL: '1',
    MOZ_PROFILER_STARTUP_ENTRIES: String(2 ** 26),
    MOZ_PROFILER_SHUTDOWN: geckoProfile,
  };
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxExecutable,
    headless: false,
    env: { ...process.env, ...profilerEnv },
    // Keep Firefox off this machine's closed network and quiet about it.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'network.captive-portal-service.enabled': false,
      // No timer throttling of a page Firefox takes for a background one: the engine polls its fences
      // with setTimeout, and one suite run sat idle for 6 minutes in compact.test.ts (0 % CPU) while
      // the same file takes 42-61 s alone; clamping timers to 1 s per wait would explain it.
      'dom.min_background_timeout_value': 4,
      'dom.min_background_timeout_value_without_budget_throttling': 4,
      'dom.timeout.enable_budget_timer_throttling': false,
    },
  });
  const version = (await browser.version()).replace(/^firefox\//i, '');
  return {
    engine: 'firefox',
    version,
    async newPage({ width = 1440, height = 900 } = {}) {
      const page = await browser.newPage();
      await page.setViewport({ width, height });
      return devtoolsPage(page, {
        waitForFunction: (expression, options) => page.waitForFunction(expression, options),
        async press(selector, key) {
          const element = await page.$(selector);
          if (!element) throw new Error(`no element matches ${selector}`);
          await element.press(key);
        },
      });
    },
    close: () => browser.close(),
  };
}

/** Scrolls the element into view if needed; then its center (viewport pixels, rounded) and what is hit there: 'self', 'inside' it, or 'other'. */
function centerHit(element) {
  let box = element.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
    element.scrollIntoView({ block: 'center', inline: 'center' });
    box = element.getBoundingClientRect();
  }
  const x = Math.round(box.x + box.width / 2);
  const y = Math.round(box.y + box.height / 2);
  const hit = document.elementFromPoint(x, y);
  return { hit: hit === element ? 'self' : hit !== null && element.contains(hit) ? 'inside' : 'other', x, y };
}

/** WebDriver's code points for the keys `press` knows (WebDriver spec, "Keyboard actions"). */
const webDriverKeys = { Enter: '\uE007', Escape: '\uE00C', Tab: '\uE004' };

async function launchWebKit() {
  requireDisplay('webkit');
  const { remote } = await import('webdriverio');
  const port = await freePort();
  // Skia paints the page on the CPU: its GPU painting thread ("SkiaGPUWorker") shares Mesa's
  // llvmpipe with WebGL in the same process, and crashed the web process there (segfaults in
  // swrast_dri.so, 2 of 3 suite runs); WebGL itself still renders through GL.
  const env = { ...process.env, WEBKIT_SKIA_ENABLE_CPU_RENDERING: '1' };
  const driver = spawn(webkitDriverExecutable, [`--port=${port}`], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let driverLog = '';
  /** Called when MiniBrowser (which writes to the driver's stderr) says it could not open the display. */
  let onDisplayFailure = () => {};
  driver.stderr.on('data', (chunk) => {
    driverLog = (driverLog + chunk).slice(-4000);
    if (/cannot open display/.test(String(chunk))) onDisplayFailure();
  });
  // GLCOMPACT_WEBKIT_LOG=file keeps everything the driver and MiniBrowser print (crash diagnosis).
  if (process.env.GLCOMPACT_WEBKIT_LOG) driver.stderr.pipe(createWriteStream(process.env.GLCOMPACT_WEBKIT_LOG, { flags: 'a' }));
  const exited = once(driver, 'exit');
  await waitForPort(port, driver, () => driverLog);
  const sessions = new Set();
  let version = '';
  const capabilities = {
    'wdio:enforceWebDriverClassic': true,
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary: miniBrowserExecutable, args: ['--automation'] },
  };
  const startSession = () =>
    remote({ hostname: '127.0.0.1', port, logLevel: 'error', capabilities, connectionRetryCount: 1, connectionRetryTimeout: 60_000 }).catch((error) => {
      throw new Error(`WebKitWebDriver gave no session: ${error.message}\nWebKitWebDriver's log (tail): ${driverLog}`, { cause: error });
    });
  // Now and then a MiniBrowser fails to open the X display at its start (Gtk: "cannot open
  // display: :99") although the display is up (on this busy 2-core host: about 5 launches in 500,
  // none in one run of 250, while 1500 xdpyinfo in a row never failed; cause not found), and
  // WebKitWebDriver then waits for that browser forever: the new-session request never returns.
  // A second request is served meanwhile, so on that message a session is asked for again (at
  // most 3 times); the abandoned request fails at its timeout, or when the driver is killed.
  const openSession = async () => {
    for (let attempt = 1; ; attempt++) {
      const started = startSession();
      const failed = new Promise((resolve) => (onDisplayFailure = () => resolve(undefined)));
      const session = await Promise.race([started, failed]).finally(() => (onDisplayFailure = () => {}));
      if (session) {
        sessions.add(session);
        version ||= session.capabilities.browserVersion ?? '';
        return session;
      }
      started.then((late) => late.deleteSession().catch(() => {}), () => {}); // should it ever come
      if (attempt === 3) throw new Error(`MiniBrowser could not open the display ${process.env.DISPLAY} 3 times in a row; WebKitWebDriver's log (tail): ${driverLog}`);
    }
  };
  // One session up front: it tells the version, and the first page reuses it.
  let spare = await openSession();
  return {
    engine: 'webkit',
    version,
    async newPage({ width = 1440, height = 900 } = {}) {
      const session = spare ?? (await openSession());
      spare = undefined;
      await session.setWindowSize(width, height).catch(() => {}); // MiniBrowser may refuse under a tiny Xvfb screen
      const execute = (fn, arg) => session.execute(fn, arg);
      return {
        async goto(url) {
          await session.url(url);
        },
        evaluate: execute,
        async waitForFunction(expression, timeout = 90_000) {
          await session.waitUntil(async () => Boolean(await session.execute(`return Boolean(${expression});`)), { timeout, interval: 100, timeoutMsg: `timed out after ${timeout} ms waiting for ${expression}` });
        },
        async click(selector) {
          const element = await session.$(selector);
          // WebKitWebDriver's element click wants the element itself to be the topmost hit at its
          // center, so it calls an SVG <g> (which paints nothing itself: its <rect> and <text> are
          // hit) "not interactable", though a person's click there reaches the <g>'s listeners.
          // Where what is hit at the center is inside the element, click there with the pointer, as
          // a person would (and as Playwright's rule allows); otherwise WebDriver's own click.
          // (Pointer actions with the element as origin are refused the same way: the viewport's.)
          const { hit, x, y } = await session.execute(centerHit, element);
          if (hit !== 'inside') return element.click();
          await session.performActions([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: [{ type: 'pointerMove', duration: 0, origin: 'viewport', x, y }, { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }] }]);
        },
        fill: (selector, value) => execute(fillInPage, { selector, value }),
        async press(selector, key) {
          if (!(key in webDriverKeys)) throw new Error(`press: unknown key '${key}' (known: ${Object.keys(webDriverKeys).join(', ')})`);
          const element = await session.$(selector);
          await session.elementSendKeys(element.elementId, webDriverKeys[key]);
        },
        async mouseMove(x, y) {
          await session.performActions([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: [{ type: 'pointerMove', duration: 0, origin: 'viewport', x: Math.round(x), y: Math.round(y) }] }]);
        },
        screenshot: async (path) => void (await session.saveScreenshot(path)),
        console: () => execute(capturedConsole),
        async close() {
          sessions.delete(session);
          await session.deleteSession().catch(() => {});
        },
      };
    },
    async close() {
      for (const session of sessions) await session.deleteSession().catch(() => {});
      sessions.clear();
      driver.kill();
      await exited;
    },
  };
}

async function waitForPort(port, child, log) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited (${child.exitCode}): ${log()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/status`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`WebKitWebDriver did not listen on port ${port} within 20 s: ${log()}`);
}
