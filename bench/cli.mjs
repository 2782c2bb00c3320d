#!/usr/bin/env node
// glcompact benchmark CLI (`npm run bench -- --help`). Times compactions and scans of the built
// package on a headless-gl context, verifies every GPU result against the CPU, and writes
// bench/results/<renderer>-<date>.json plus one SVG chart per sweep.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { createEngine } from 'glcompact';
import { createHeadlessContext, destroyHeadlessContext, headlessRenderer } from 'glcompact/node';
import { autoCheck, contractCost, densityCrossover, familyRatios } from './lib/analyze.mjs';
import { chartSpec, renderSvg } from './lib/charts.mjs';
import { BenchContext, VerificationError } from './lib/runner.mjs';
import { SWEEP_NAMES, SWEEPS } from './lib/sweeps.mjs';
import { summaryText } from './lib/summary.mjs';
import { formatJson, rendererShort, rendererSlug } from './lib/format.mjs';

const USAGE = `Usage: npm run bench -- [options]
       (or: bash scripts/with-display.sh node bench/cli.mjs [options], after npm run build)

Times glcompact compactions and prefix sums on a headless-gl WebGL2 context and writes
<out>/<renderer-slug>-<YYYY-MM-DD>[-quick][-<sweep>].json plus one SVG chart per sweep.
Every GPU result is checked against the CPU first; a mismatch aborts the run.

Options:
  --quick          reduced sweep: 2^20 elements instead of 2^22, densities in steps of 10 (5 from
                   70 %) plus 99, sizes up to 2^20 instead of 2^24; 1-2 minutes on a 2-core
                   llvmpipe machine
  --sweep NAME     run one sweep only: ${SWEEP_NAMES.join(', ')} (repeatable; default all)
  --repeats N      timed runs per point after 1 warm-up (default 5; at least 5 unless --quick, at least 3)
  --out DIR        output folder (default bench/results)
  --gpu-warm-ms MS before each timed sample of a GPU point, run its operation untimed for MS ms
                   (default 0): a real GPU idle during the host baselines drops its clocks
                   (bench/README.md "Running on a headless NVIDIA GPU server")
  --help           this text

Sweeps:
  density      paper Fig. 11: invalid density 0..100 % (step 5, plus 99), block 256;
               jumping-jack vs horn (block) vs horn (global) vs histopyramid vs auto, plus the
               CPU filter loop; reports the density where Jumping Jack stops being faster than
               Horn (block)
  block-size   paper Figs. 9/10: block 16..2048 at 50 % kept; compaction with each block scan
               (recursive-doubling, blelloch) and the segmented scan alone
  sizes        n = 2^10..2^24 at 50 % kept: compaction (jumping-jack, horn, histopyramid), global scans
               (both algorithms), CPU filter and prefix-sum loops
  state-contract  the GL state contract's cost: a 2^16 compaction on an engine with the contract
               (default) vs one with preserveState: false, per call (loops of 20 calls, quick: 10,
               between engine.finish() calls; median of 31 runs, quick: 15; ignores --repeats)
  family       n = 2^16..2^24 (quick: up to 2^20): engine.sort (uint32 keys with index values and
               alone, 16-bit keys with bits: 16, float32 keys) against a JS stable LSD counting sort
               and TypedArray.prototype.sort; unique, runLengthEncode, reduce sum/min/max, scan with
               segments and partition against plain JS loops; all checked bit-exactly in the warm-up
               (quick: the GPU sorts are timed 3 times whatever --repeats says)

Timing: wall time around the operation plus a one-texel sync (await result.count() and then
await engine.finish() for compactions, await engine.finish() for scans), median and
min/max/IQR of the repeats.`;

class UsageError extends Error {}

function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        help: { type: 'boolean', default: false },
        quick: { type: 'boolean', default: false },
        sweep: { type: 'string', multiple: true },
        repeats: { type: 'string' },
        out: { type: 'string', default: 'bench/results' },
        'gpu-warm-ms': { type: 'string', default: '0' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError(error.message);
  }
  const { values } = parsed;
  const repeats = values.repeats === undefined ? 5 : Number(values.repeats);
  const minimum = values.quick ? 3 : 5;
  if (!Number.isInteger(repeats) || repeats < minimum) {
    throw new UsageError(`--repeats must be an integer >= ${minimum}${values.quick ? ' with --quick' : ' for a full run (>= 3 with --quick)'}; got ${values.repeats}`);
  }
  const gpuWarmMs = Number(values['gpu-warm-ms']);
  if (values['gpu-warm-ms'].trim() === '' || !Number.isFinite(gpuWarmMs) || gpuWarmMs < 0) {
    throw new UsageError(`--gpu-warm-ms must be a number of ms >= 0; got "${values['gpu-warm-ms']}"`);
  }
  const sweeps = (values.sweep ?? SWEEP_NAMES).flatMap((s) => s.split(','));
  for (const s of sweeps) {
    if (!SWEEP_NAMES.includes(s)) throw new UsageError(`--sweep: unknown sweep "${s}"; choose from ${SWEEP_NAMES.join(', ')}`);
  }
  return { help: values.help, quick: values.quick, repeats, sweeps: [...new Set(sweeps)], out: values.out, partial: values.sweep !== undefined, gpuWarmMs };
}

/** Consecutive points with the same x value (sweeps list them x-major). */
function groupByX(points) {
  const groups = [];
  for (const point of points) {
    const last = groups.at(-1);
    if (last && JSON.stringify(last[0].x) === JSON.stringify(point.x)) last.push(point);
    else groups.push([point]);
  }
  return groups;
}

async function readJson(path) {
  return JSON.parse(await readFile(path, 'utf8'));
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const require = createRequire(import.meta.url);
  const pkg = await readJson(new URL('../package.json', import.meta.url));
  const glVersion = (await readJson(require.resolve('gl/package.json'))).version;

  const gl = createHeadlessContext();
  // The sweeps go to 2^24 elements: one such R32UI target is 64 MiB, the default pool's whole budget.
  const engine = createEngine(gl, { texturePoolBytes: 512 * 2 ** 20 });
  const renderer = headlessRenderer(gl);
  const now = new Date();
  const date = now.toISOString().slice(0, 10);
  // headless-gl exposes no GPU timer queries (engine.gpuTime() returns undefined there), so every
  // figure here is wall time plus a one-texel sync.
  const timing = 'wall+sync';
  const meta = {
    renderer,
    rendererShort: rendererShort(renderer),
    rendererSlug: rendererSlug(renderer),
    package: pkg.name,
    packageVersion: pkg.version,
    gl: `gl@${glVersion} (headless-gl)`,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    loadAverageAtStart: loadavg().map((x) => Math.round(x * 100) / 100),
    date,
    startedAt: now.toISOString(),
    quick: options.quick,
    repeats: options.repeats,
    warmupRuns: 1,
    gpuWarmMs: options.gpuWarmMs,
    timing,
    timingNote: 'wall time (performance.now) around the operation followed by a one-texel sync: `await result.count()` then `await engine.finish()` for compactions (count() alone waits only for the passes the count depends on), `await engine.finish()` for scans; CPU baselines: wall time of the loop. engine.caps.timerQuery is ' +
      `${engine.caps.timerQuery} on this context (headless-gl has no GPU timer queries). engine.caps.asyncReadback is ${engine.caps.asyncReadback}: ` +
      (engine.caps.asyncReadback ? 'the sync polls a fence with setTimeout(0), so small operations include timer latency.' : 'the sync is a blocking one-texel readPixels.'),
    caps: engine.caps,
    engineOptions: {}, // defaults, including the texture pool (EngineOptions.texturePoolBytes); warm-ups fill it
    dataSeeds: BenchContext.seeds,
  };

  const plans = options.sweeps.map((name) => {
    const def = SWEEPS[name];
    const config = def.config(options.quick);
    return { name, def, config, points: def.points(config) };
  });
  const totalRuns = plans.reduce((sum, p) => sum + p.points.reduce((runs, point) => runs + (point.repeats ?? options.repeats) + 1, 0), 0);

  console.log(`glcompact ${pkg.version} bench — renderer: ${renderer}; node ${process.version}; ${options.quick ? 'quick' : 'full'} run, sweeps: ${options.sweeps.join(', ')}; ${options.repeats} repeats + 1 warm-up per point${options.gpuWarmMs > 0 ? `, each GPU sample after ${options.gpuWarmMs} ms of untimed calls` : ''}`);

  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: '{bar} {percentage}% | {value}/{total} runs | elapsed {duration_formatted} | ETA {eta_formatted} | {label}',
      hideCursor: true,
      etaBuffer: 200,
      noTTYOutput: !process.stderr.isTTY, // in logs: one line every notTTYSchedule ms
      notTTYSchedule: 10000,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(totalRuns, 0, { label: 'starting' });
  // After each run: advance the bar and yield to the event loop (outside the timed region), so the
  // bar's timer can redraw; awaited GL reads resolve as microtasks and would otherwise starve it.
  const onRun = () => {
    bar.increment();
    return new Promise((resolve) => setImmediate(resolve));
  };
  const context = new BenchContext(engine, { repeats: options.repeats, onRun, makeEngine: (engineOptions) => createEngine(gl, engineOptions), gl, gpuWarmMs: options.gpuWarmMs });
  const results = [];
  try {
    for (const plan of plans) {
      const sweepStart = performance.now();
      const points = [];
      for (const group of groupByX(plan.points)) {
        const x = Object.entries(group[0].x).map(([k, v]) => `${k} ${v}`).join(', ');
        bar.update({ label: `${plan.name}: ${x}` });
        points.push(...(await context.runGroup(group)));
      }
      context.release();
      const sweep = {
        name: plan.name,
        title: plan.def.title,
        description: plan.def.describe(plan.config),
        config: plan.config,
        seconds: Math.round((performance.now() - sweepStart) / 100) / 10,
        points,
      };
      if (plan.name === 'density') {
        sweep.crossover = densityCrossover(points);
        sweep.autoCheck = autoCheck(points);
      }
      if (plan.name === 'state-contract') sweep.contractCost = contractCost(points);
      if (plan.name === 'family') sweep.sortRatios = familyRatios(points);
      results.push(sweep);
    }
  } finally {
    bar.stop();
    context.release();
    engine.dispose();
    destroyHeadlessContext(gl);
  }
  const seconds = (performance.now() - started) / 1000;

  const outDir = resolve(options.out);
  await mkdir(outDir, { recursive: true });
  const base = `${meta.rendererSlug}-${date}${options.quick ? '-quick' : ''}${options.partial ? `-${options.sweeps.join('+')}` : ''}`;
  const files = [];
  meta.loadAverageAtEnd = loadavg().map((x) => Math.round(x * 100) / 100);
  const document = { tool: 'glcompact bench/cli.mjs', schemaVersion: 1, ...meta, seconds: Math.round(seconds * 10) / 10, sweeps: Object.fromEntries(results.map((s) => [s.name, s])) };
  const jsonPath = join(outDir, `${base}.json`);
  await writeFile(jsonPath, formatJson(document));
  files.push(jsonPath);
  for (const sweep of results) {
    const single = options.partial && results.length === 1; // base already names the sweep
    const svgPath = join(outDir, single ? `${base}.svg` : `${base}-${sweep.name}.svg`);
    await writeFile(svgPath, await renderSvg(chartSpec(meta, sweep)));
    files.push(svgPath);
  }

  console.log();
  console.log(summaryText(results));
  console.log(`all GPU results matched the CPU; ${seconds.toFixed(1)} s of measurement; load average (1 min) ${meta.loadAverageAtStart[0]} at start, ${meta.loadAverageAtEnd[0]} at end on ${cpus().length} cores (other processes add noise)`);
  console.log(`wrote:\n${files.map((f) => `  ${f}`).join('\n')}`);
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
  } else if (error instanceof VerificationError) {
    console.error(`\nbench aborted: a GPU result did not match the CPU reference — a benchmark of a wrong answer is worthless.\n${error.message}`);
  } else {
    console.error(`\nbench failed: ${error?.stack ?? error}`);
  }
  process.exit(1);
});
