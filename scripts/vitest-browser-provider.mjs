// A vitest browser provider for the engines vitest's own providers cannot drive from Debian's
// packages: Playwright's Firefox and WebKit are patched builds it downloads (never allowed here),
// and vitest's webdriverio provider would download geckodriver. This provider opens vitest's
// tester page in the page driver of scripts/browsers.mjs (puppeteer-core + Debian's firefox-esr
// over WebDriver BiDi; webdriverio + Debian's WebKitWebDriver + MiniBrowser) and does nothing
// else: the tests run in the page and report to vitest over its own websocket. It offers no
// browser commands (`page`, `userEvent`, screenshots), which glcompact's tests do not use.
import { defineBrowserProvider } from '@vitest/browser';
import { launchBrowser } from './browsers.mjs';

class DebianBrowserProvider {
  name = 'debian-browser';
  supportsParallelism = false;

  /** @param {'firefox' | 'webkit'} engine */
  constructor(engine) {
    this.engine = engine;
    this.browser = undefined;
    this.pages = new Map();
  }

  getCommandsContext() {
    return {};
  }

  async openPage(sessionId, url) {
    this.browser ??= launchBrowser(this.engine);
    const browser = await this.browser;
    await this.pages.get(sessionId)?.close();
    const page = await browser.newPage({ width: 1024, height: 768 });
    this.pages.set(sessionId, page);
    await page.goto(url);
  }

  async close() {
    for (const page of this.pages.values()) await page.close().catch(() => {});
    this.pages.clear();
    const browser = await this.browser;
    this.browser = undefined;
    await browser?.close();
  }
}

/** vitest browser provider for Debian's firefox-esr or WebKitGTK (see the file's head). */
export function debianBrowser(engine) {
  return defineBrowserProvider({
    name: 'debian-browser',
    supportedBrowser: [engine],
    options: {},
    providerFactory: () => new DebianBrowserProvider(engine),
  });
}
