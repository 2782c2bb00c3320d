// glcompact: stream compaction and prefix sums on the WebGL2 graphics pipeline.
export { createEngine, Engine } from './engine.js';
export type { ScanStats } from './engine.js';
export type { CompactOptions, EngineOptions, ScanOptions, StreamOptions } from './options.js';
export { CompactResult } from './compact/result.js';
export type { CompactStats } from './compact/result.js';
export type { CompactionAlgorithm, RequestedAlgorithm } from './compact/algorithms.js';
export type { ConcatMode } from './compact/concatenate.js';
export type { KeepOption } from './compact/keep-function.js';
export type { ScanAlgorithm } from './scan/algorithms.js';
export type { Capabilities } from './capabilities.js';
export type { ResourceCounts } from './resources.js';
export type { PassStats } from './stats.js';
export type { Layout } from './layout.js';
export { Stream } from './stream.js';
export type { ElementType, StreamData } from './stream.js';
export { streamGlsl } from './stream-access.js';
