// Debian's Chromium for every headless browser run (vitest's chromium project, the demo page tests,
// bench/browser.mjs): installed by scripts/setup-system.sh, never downloaded. SwiftShader gives full
// WebGL2 with timer queries; the networking/update switches keep it off this machine's closed network.
export const chromiumExecutable = '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox', // CI runs as root
  '--headless=new',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];
