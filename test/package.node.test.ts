// The package as a user gets it: `npm pack` (of the dist/ that `npm test` has just built), the
// tarball's file list, and three consumers of the tarball installed into a temporary directory:
//   - a strict TypeScript project (the repo's TypeScript, strict, skipLibCheck false,
//     exactOptionalPropertyTypes; module resolution node16 and bundler): precise read() types,
//     undefined options, and @ts-expect-error lines for what must not compile;
//   - a Node ESM program importing 'glcompact' and 'glcompact/node' that runs a compaction under
//     the display (scripts/with-display.sh);
//   - a Vite browser app built from the tarball and run in Debian's Chromium.
// The tarball's dependencies come from the npm cache (--prefer-offline); `gl` (an optional peer,
// built from source, slow) is linked from this repository's node_modules.
// Node-only: it spawns npm, tsc, node, Vite and a browser.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumExecutable } from '../scripts/chromium.mjs';
import { ENGINE_VERSION } from '../src/tuning.js';

const repo = resolve('.');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };

// The nested npm runs must not inherit `npm test`'s npm_* settings (prefixes, lifecycle event…).
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: cleanEnv, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

interface PackedFile {
  path: string;
}

let work: string;
let consumer: string;
let packed: { filename: string; files: PackedFile[] };

beforeAll(() => {
  if (!existsSync(join(repo, 'dist/index.js'))) throw new Error('dist/ is not built: run `npm run build` first (npm test does)');
  work = mkdtempSync(join(tmpdir(), 'glcompact-package-'));
  // --ignore-scripts: not the prepack build, which would replace dist/ under the other tests' feet.
  [packed] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], repo));
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'glcompact-consumer', private: true, type: 'module' }, null, 2));
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock', join(work, packed.filename)], consumer);
  symlinkSync(join(repo, 'node_modules/gl'), join(consumer, 'node_modules/gl'), 'dir');
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('packs the build, the sources and the docs, and nothing else', () => {
    const files = packed.files.map((file) => file.path).sort();
    for (const required of ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json', 'dist/index.js', 'dist/node.js', 'dist/types/index.d.ts', 'dist/types/node.d.ts']) {
      expect(files, `the tarball must contain ${required}`).toContain(required);
    }
    const allowed = /^(LICENSE|README\.md|CHANGELOG\.md|package\.json|docs\/[\w.-]+\.md|dist\/(index|node)\.js(\.map)?|dist\/types\/[\w/-]+\.d\.ts|src\/[\w/.-]+\.ts|glsl\/[\w-]+\.(frag|vert|glsl))$/;
    expect(files.filter((file) => !allowed.test(file)), 'files outside the allowed set').toEqual([]);
    expect(files.filter((file) => /(^|\/)(test|tests|bench|results|examples|scripts|tools|tmp)\/|\.(log|tgz|png|svg|json)$/.test(file) && file !== 'package.json')).toEqual([]);
    expect(packed.filename).toBe(`${pkg.name}-${pkg.version}.tgz`);
  });

  it('is one version everywhere: package.json, ENGINE_VERSION (tuning profiles), the CHANGELOG and the installed package', () => {
    expect(ENGINE_VERSION).toBe(pkg.version);
    expect(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
    expect(readFileSync(join(consumer, 'node_modules/glcompact/dist/index.js'), 'utf8')).toContain(`ENGINE_VERSION = "${pkg.version}"`);
  });

  it('installs with its dependencies and no others', () => {
    const installed = JSON.parse(readFileSync(join(consumer, 'node_modules/glcompact/package.json'), 'utf8')) as typeof pkg;
    expect(installed.version).toBe(pkg.version);
    for (const dependency of Object.keys(pkg.dependencies)) expect(existsSync(join(consumer, 'node_modules', dependency))).toBe(true);
  });

  it('type-checks a strict consumer (skipLibCheck false, exactOptionalPropertyTypes) with node16 and bundler resolution, with the README\'s `lib`', () => {
    writeFileSync(join(consumer, 'check.ts'), strictConsumerSource);
    const tsc = join(repo, 'node_modules/typescript/bin/tsc');
    // The install section's tsconfig setting: the declarations use the DOM's WebGL types.
    const documented = readFileSync(join(repo, 'README.md'), 'utf8').match(/"lib": (\[[^\]\n]*\])/);
    expect(documented, 'README: the tsconfig "lib" a consumer needs').not.toBeNull();
    const lib = JSON.parse(documented![1]!) as string[];
    const config = (module: string, moduleResolution: string, libs: string[]) => ({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        exactOptionalPropertyTypes: true,
        noUnusedLocals: true,
        noEmit: true,
        target: 'es2022',
        module,
        moduleResolution,
        lib: libs,
        types: [],
      },
      files: ['check.ts'],
    });
    // Without the DOM lib the declarations do not compile, as the README says.
    writeFileSync(join(consumer, 'tsconfig.no-dom.json'), JSON.stringify(config('node16', 'node16', ['es2022']), null, 2));
    const withoutDom = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.no-dom.json'], { cwd: consumer, env: cleanEnv, encoding: 'utf8', timeout: 60_000 });
    expect(withoutDom.status).not.toBe(0);
    expect(withoutDom.stdout).toContain("Cannot find name 'WebGL2RenderingContext'");
    for (const [module, moduleResolution] of [['node16', 'node16'], ['esnext', 'bundler']] as const) {
      const file = `tsconfig.${moduleResolution}.json`;
      writeFileSync(join(consumer, file), JSON.stringify(config(module, moduleResolution, lib), null, 2));
      const listed = run(process.execPath, [tsc, '-p', file, '--listFiles'], consumer);
      const fromPackage = listed.split('\n').filter((line) => line.includes('node_modules/glcompact/'));
      expect(fromPackage.some((line) => line.endsWith('dist/types/index.d.ts')), `${file}: types from the tarball`).toBe(true);
      expect(listed.split('\n').filter((line) => /twgl|gl-matrix/.test(line)), `${file}: files of other packages' typings`).toEqual([]);
    }
  });

  it('runs a Node ESM consumer of glcompact and glcompact/node', () => {
    writeFileSync(join(consumer, 'main.mjs'), nodeConsumerSource);
    const output = run('bash', [join(repo, 'scripts/with-display.sh'), process.execPath, 'main.mjs'], consumer);
    const result = JSON.parse(output.trim().split('\n').at(-1)!);
    expect(result).toEqual({ count: 2, values: [1.5, 2], indices: [1, 3], sums: [0, 3, 4], transformFeedback: true });
    // ESM only: require() finds no CommonJS entry.
    writeFileSync(join(consumer, 'require.cjs'), "try { require('glcompact'); console.log('loaded'); } catch (e) { console.log(e.code); }");
    expect(run(process.execPath, ['require.cjs'], consumer).trim()).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('builds a Vite browser app from the tarball, which runs in Chromium', async () => {
    const app = join(consumer, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><script type="module" src="./main.js"></script></body></html>');
    writeFileSync(join(app, 'main.js'), browserConsumerSource);
    const outDir = join(app, 'dist');
    await build({ root: app, configFile: false, logLevel: 'error', build: { outDir, emptyOutDir: true, target: 'es2022' } });
    const bundle = readFileSync(join(outDir, 'index.html'), 'utf8');
    expect(bundle).toMatch(/<script type="module"[^>]*src="\/assets\/index-[\w-]+\.js"/);

    const server = await preview({ root: app, configFile: false, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
    const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(server.resolvedUrls!.local[0]);
      await page.waitForFunction(() => 'glcompactResult' in window, null, { timeout: 30_000 });
      expect(await page.evaluate(() => (window as unknown as { glcompactResult: unknown }).glcompactResult)).toEqual({ count: 2, values: [1.5, 2], indices: [1, 3] });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});

const strictConsumerSource = `// A strict consumer: what must compile, and (@ts-expect-error) what must not.
import { createEngine, type CompactOptions, type CompactResult, type EngineOptions, type Stream } from 'glcompact';
import { createHeadlessContext, type HeadlessContextOptions } from 'glcompact/node';

const contextOptions: HeadlessContextOptions = { width: undefined, height: 2 };
const engineOptions: EngineOptions = { texturePoolBytes: undefined, debug: undefined, preserveState: undefined };
const engine = createEngine(createHeadlessContext(contextOptions), engineOptions);

// read() returns the type given to engine.stream(); scans keep it; indices are Uint32Array.
export const f: Float32Array = await engine.compact(engine.stream(new Float32Array(4)), { keep: 'nonzero' }).read();
export const u: Uint32Array = await engine.compact(engine.stream(new Uint32Array(4)), { keep: { lessEqual: 3 } }).read();
export const i: Int32Array = await engine.compact(engine.stream(new Int32Array(4)), { keep: { greaterThan: -1 } }).read();
const floats: Stream<Float32Array> = engine.stream(new Float32Array(8), { components: 4 });
export const indices: Uint32Array = await engine.compact(floats, { keep: 'nonzero', output: 'indices' }).read();
export const values: Float32Array = await engine.compact(floats, { keep: 'nonzero', output: 'values' }).read();
export const sums: Float32Array = await engine.scan(floats, { exclusive: true }).read();
export const counts: Uint32Array = await engine.scan(engine.stream(new Uint32Array(4))).read();
export const fromBuffer: Float32Array = await engine.stream(new Float32Array(new ArrayBuffer(16))).read();

// Every optional option accepts undefined (exactOptionalPropertyTypes).
const result: CompactResult<Float32Array> = engine.compact(floats, {
  keep: 'nonzero', algorithm: undefined, blockSize: undefined, global: undefined, concat: undefined,
  output: undefined, scan: undefined, radix: undefined,
});
export const kept: number = await result.count();
engine.scan(floats, { algorithm: undefined, exclusive: undefined, blockSize: undefined, radix: undefined });
engine.stream(new Float32Array(4), { components: undefined });
engine.compact(floats, { keep: { glsl: 'return value.x > minimum;', uniforms: { minimum: 0.5 } } });
engine.compact(floats, { keep: { glsl: 'return value.x > 0.0;', uniforms: undefined } });
// Uniforms: numbers, plain, readonly and typed arrays (gl-matrix's vec3 and mat4 are Float32Arrays).
const centre = [1, 2, 3] as const;
engine.compact(floats, { keep: { glsl: 'return distance(value.xyz, centre) < radius;', uniforms: { centre, radius: 2 } } });
engine.compact(floats, { keep: { glsl: 'return (viewProj * value).w > 0.0;', uniforms: { viewProj: new Float32Array(16) } } });
engine.compact(floats, { keep: { glsl: 'return value.x < limits.y;', uniforms: { limits: new Float32Array([0, 1]) } } });

// Output not known statically: either type.
const options: CompactOptions = { keep: { glsl: 'return value.x > 0.0;' } };
export const either: Float32Array | Uint32Array = await engine.compact(floats, options).read();
export const stream: Stream<Float32Array | Uint32Array> = engine.compact(floats, options).stream;

// @ts-expect-error a float stream does not read back as integers
export const wrongValues: Uint32Array = await engine.compact(floats, { keep: 'nonzero' }).read();
// @ts-expect-error indices are not floats
export const wrongIndices: Float32Array = await engine.compact(floats, { keep: 'nonzero', output: 'indices' }).read();
// @ts-expect-error an unknown output may be indices
export const wrongEither: Float32Array = await engine.compact(floats, options).read();
// @ts-expect-error a scan keeps the stream's type
export const wrongScan: Int32Array = await engine.scan(floats).read();
// @ts-expect-error keep is required
engine.compact(floats, {});
// @ts-expect-error a misspelt option
engine.compact(floats, { keep: 'nonzero', blocksize: 64 });
// @ts-expect-error an unknown algorithm
engine.compact(floats, { keep: 'nonzero', algorithm: 'quicksort' });
// @ts-expect-error a Float64Array cannot be a stream
engine.stream(new Float64Array(4));
// @ts-expect-error 1 or 4 components
engine.stream(new Float32Array(4), { components: 2 });
// @ts-expect-error uniforms are numbers or arrays of numbers
engine.compact(floats, { keep: { glsl: 'return true;', uniforms: { on: true } } });
// @ts-expect-error null is not undefined
engine.compact(floats, { keep: 'nonzero', blockSize: null });
`;

const nodeConsumerSource = `import { createEngine } from 'glcompact';
import { createHeadlessContext, destroyHeadlessContext } from 'glcompact/node';

const gl = createHeadlessContext();
const engine = createEngine(gl);
const stream = engine.stream(new Float32Array([0, 1.5, 0, 2]));
const kept = engine.compact(stream, { keep: 'nonzero' });
const indices = engine.compact(stream, { keep: 'nonzero', output: 'indices', algorithm: 'horn' });
const sums = engine.scan(engine.stream(new Uint32Array([3, 1, 4])), { exclusive: true });
console.log(JSON.stringify({
  count: await kept.count(),
  values: Array.from(await kept.read()),
  indices: Array.from(await indices.read()),
  sums: Array.from(await sums.read()),
  transformFeedback: engine.caps.transformFeedback,
}));
engine.dispose();
destroyHeadlessContext(gl);
`;

const browserConsumerSource = `import { createEngine } from 'glcompact';

const gl = document.createElement('canvas').getContext('webgl2');
const engine = createEngine(gl);
const stream = engine.stream(new Float32Array([0, 1.5, 0, 2]));
const kept = engine.compact(stream, { keep: 'nonzero' });
const indices = engine.compact(stream, { keep: 'nonzero', output: 'indices', algorithm: 'horn' });
window.glcompactResult = { count: await kept.count(), values: Array.from(await kept.read()), indices: Array.from(await indices.read()) };
engine.dispose();
`;
