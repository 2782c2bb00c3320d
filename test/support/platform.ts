// Which engine a test file runs in: headless-gl in the 'node' project, else the browser engine of
// the 'chromium', 'firefox' or 'webkit' project (told by the user agent: WebKit masks its renderer
// string, and an engine's quirks are what a test names, not its GPU).
export type TestPlatform = 'headless-gl' | 'chromium' | 'firefox' | 'webkit';

export function testPlatform(): TestPlatform {
  if (typeof navigator === 'undefined' || typeof document === 'undefined') return 'headless-gl';
  const agent = navigator.userAgent;
  if (/Firefox\//.test(agent)) return 'firefox';
  if (/Chrome\//.test(agent)) return 'chromium';
  if (/AppleWebKit\//.test(agent)) return 'webkit';
  throw new Error(`unknown browser engine: ${agent}`);
}
