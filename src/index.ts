/**
 * glcompact: stream compaction and prefix sums on the WebGL2 graphics pipeline, in the browser
 * and (with `glcompact/node`) headless in Node. Start with {@link createEngine}.
 *
 * @example
 * ```ts
 * import { createEngine } from 'glcompact';
 *
 * const engine = createEngine(canvas.getContext('webgl2')!);
 * const stream = engine.stream(new Float32Array([0.1, 0.9, 0.4, 0.7]));
 * const high = engine.compact(stream, { keep: { greaterThan: 0.5 }, algorithm: 'horn' });
 * console.log(await high.count(), await high.read()); // 2, Float32Array [0.9, 0.7]
 * engine.dispose();
 * ```
 * @module glcompact
 */
export { createEngine, Engine } from './engine.js';
export type { ScanStats } from './engine.js';
export type { ArgsortOptions, CompactOptions, EngineOptions, PartitionOptions, ReduceOptions, ScanOptions, SortOptions, StreamOptions, WarmUpCall } from './options.js';
export { SortResult } from './sort-result.js';
export { ReduceResult } from './reduce-result.js';
export type { ReduceOp } from './reduce-result.js';
export { RunLengthResult } from './run-length-result.js';
export { CompactResult } from './compact/result.js';
export type { CompactStats } from './compact/result.js';
export type { CompactionAlgorithm, RequestedAlgorithm } from './compact/algorithm-names.js';
export type { ConcatMode } from './compact/concatenate.js';
export type { KeepOption, KeepTexture, KeepUniforms } from './compact/keep-function.js';
export type { ScanAlgorithm } from './scan/algorithms.js';
export { PROGRAM_CACHE_SIZE } from './resources.js';
export type { BitmaskPadding, PathWork, TuneBatch, TuneOptions, TuneProgress, TuneSampling, TuningProfile } from './tuning.js';
export { serveTuning } from './tune-worker.js';
export type { TuningScope } from './tune-worker.js';
export type { TuneWorker } from './tune-in-worker.js';
export type { Capabilities } from './capabilities.js';
export type { ResourceCounts } from './resources.js';
export type { PassStats } from './stats.js';
export type { Layout } from './layout.js';
export { Stream } from './stream.js';
export type { ElementType, StreamData, StreamDataOf } from './stream.js';
export { streamGlsl } from './stream-access.js';
