// `npm run docs`: the HTML API reference of the public entry points (src/index.ts, src/node.ts)
// into dist-docs/ (git-ignored), with ../../typedoc.json. TypeDoc lives in this workspace with its own
// TypeScript (see package.json here); it is resolved from here so that it finds that TypeScript.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, 'package.json'));
const typedocBin = join(dirname(require.resolve('typedoc/package.json')), 'bin', 'typedoc');
const root = join(here, '..', '..');
const run = spawnSync(process.execPath, [typedocBin, '--options', join(root, 'typedoc.json'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
