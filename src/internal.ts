// Internal entry point for the project's own tests and benchmarks: the engine's GPU handle and the
// building blocks behind it. Not part of the package's public API (not in package.json exports).
export { gpuOf } from './engine.js';
export { viewOf } from './stream.js';
export { texelFormats, COUNT_FORMAT } from './texel-format.js';
