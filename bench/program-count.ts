// How many GPU programs the engine compiles when an app uses every path at one stream type (uint32):
// each compaction path, each scan and the segmented scan, unique, run-length encoding, the three
// reductions and the sort with values, at each length given; `engine.resources.programs` after each
// length (the cache holds PROGRAM_CACHE_SIZE, 128: docs/how-it-works.md "Keep snippets").
// Usage: node bench/build-bundle.mjs program-count && bash scripts/with-display.sh node bench/tmp/program-count.mjs [--lengths 1000,100000,1048576]
import { parseArgs } from 'node:util';
import { createEngine, type CompactOptions, type ScanAlgorithm } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';
import { compactCandidates, optionsForPath } from '../src/tuning.js';

const { values } = parseArgs({ options: { lengths: { type: 'string', default: '1000,100000,1048576' } } });
const lengths = values.lengths.split(',').map(Number);
if (!lengths.every((n) => Number.isInteger(n) && n >= 1 && n <= 2 ** 24)) {
  console.error(`program-count: --lengths takes stream lengths 1..2^24, comma-separated; got ${values.lengths}`);
  process.exit(2);
}
const gl = createHeadlessContext();
const engine = createEngine(gl);
console.log(`renderer: ${headlessRenderer(gl)}; ${engine.caps.drawBuffers} attachment(s) per pass`);
for (const n of lengths) {
  const stream = engine.stream(Uint32Array.from({ length: n }, (_, i) => (i * 7919) % 1000));
  for (const { path } of compactCandidates) engine.compact(stream, { keep: { lessEqual: 500 }, ...optionsForPath(path) } as CompactOptions).dispose();
  for (const algorithm of ['reduce-then-scan', 'blelloch', 'recursive-doubling'] as ScanAlgorithm[]) engine.scan(stream, { algorithm }).dispose();
  engine.scan(stream, { segments: stream }).dispose();
  engine.unique(stream).dispose();
  engine.runLengthEncode(stream).dispose();
  for (const op of ['sum', 'min', 'max'] as const) engine.reduce(stream, { op }).dispose();
  engine.sort(stream, { values: stream }).dispose();
  await engine.finish();
  console.log(`after every path at ${n} elements: ${engine.resources.programs} programs`);
  stream.dispose();
}
engine.dispose();
