// Bundles one bench script into bench/tmp/NAME.mjs (gl left external), for this machine or the GPU one
// (bench/gpu/README.md): node bench/build-bundle.mjs call-cost|pool-probe|program-count|tune-probe|tune-repeat|tuned-sweep
import { bundleBenchScript } from './lib/bundle.mjs';

const name = process.argv[2];
const scripts = ['call-cost', 'pool-probe', 'program-count', 'single-vs-batch', 'tune-probe', 'tune-repeat', 'tuned-sweep'];
if (!scripts.includes(name)) {
  console.error(`usage: node bench/build-bundle.mjs ${scripts.join('|')}`);
  process.exit(2);
}
console.log(await bundleBenchScript(name));
