// Bundles bench/perf-probe.ts (or bench/<name>.ts: node bench/build-probe.mjs <name>) into one file (gl external) for the GPU machine (bench/gpu/README.md).
import { bundleBenchScript } from './lib/bundle.mjs';

console.log(await bundleBenchScript(process.argv[2] ?? 'perf-probe'));
