// The compaction algorithms by name, with what a caller can rely on. No drivers here, so the public
// types (the `algorithm` option, `result.stats.algorithm`) derive from this table without reaching
// the GL internals; src/compact/algorithms.ts gives each name its driver, and the compiler checks
// that both tables name the same algorithms.

/** @internal */
export interface CompactionAlgorithmInfo {
  /** Whether the output keeps the input's order. */
  readonly keepsOrder: boolean;
  /** Works in blocks: `blockSize`, `scan` and `concat` apply (else the stats report concat 'none'). */
  readonly blocks: boolean;
  /** Selectable by name in `options.algorithm` (the others are reached through 'auto' or `global`). */
  readonly selectable: boolean;
}

/** @internal */
export const compactionAlgorithmInfo = {
  'jumping-jack': { keepsOrder: false, blocks: true, selectable: true },
  horn: { keepsOrder: true, blocks: true, selectable: true },
  /** What 'auto' runs with block options: Jumping Jack or Horn per block, by the block's kept count. */
  hybrid: { keepsOrder: false, blocks: true, selectable: false },
  /** Horn with `global: true`: one search over the whole stream. */
  'horn-global': { keepsOrder: true, blocks: false, selectable: false },
  /** A 1D HistoPyramid (Ziegler 2006; Dyken 2008) over the linear index: input order kept. */
  histopyramid: { keepsOrder: true, blocks: false, selectable: true },
  /** Keep flags packed 32 to a word, a reduce-then-scan of their counts, a search per output: input order kept. */
  bitmask: { keepsOrder: true, blocks: false, selectable: true },
} as const satisfies Record<string, CompactionAlgorithmInfo>;

/**
 * The path a compaction took (`result.stats.algorithm`): 'jumping-jack', 'horn', 'histopyramid' or
 * 'bitmask' as requested or as 'auto' chose ('auto' without block options: the bitmask, or what
 * engine.tune() measured fastest), 'hybrid' for 'auto' with block options and `order: 'any'` (Jumping
 * Jack or Horn per block), 'horn-global' for Horn with `global: true`.
 */
export type CompactionAlgorithm = 'jumping-jack' | 'horn' | 'hybrid' | 'horn-global' | 'histopyramid' | 'bitmask';

/** Values of `options.algorithm` (CompactOptions): 'jumping-jack', 'horn', 'histopyramid', 'bitmask' or 'auto' (the default). */
export type RequestedAlgorithm = 'jumping-jack' | 'horn' | 'histopyramid' | 'bitmask' | 'auto';

// The two public unions are spelt out so the reference documents them plainly; the compiler keeps
// them equal to the table.
type Selectable = { [K in keyof typeof compactionAlgorithmInfo]: (typeof compactionAlgorithmInfo)[K]['selectable'] extends true ? K : never }[keyof typeof compactionAlgorithmInfo];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const unionsMatchTable: [Same<CompactionAlgorithm, keyof typeof compactionAlgorithmInfo>, Same<RequestedAlgorithm, Selectable | 'auto'>] = [true, true];
void unionsMatchTable;

/** @internal */
export const requestedAlgorithmNames: RequestedAlgorithm[] = [
  ...(Object.keys(compactionAlgorithmInfo) as CompactionAlgorithm[]).filter((name): name is Selectable => compactionAlgorithmInfo[name].selectable),
  'auto',
];

/**
 * @internal The path for a request. 'auto' runs what engine.tune() measured fastest on this device
 * for the size (`tuned`, already limited to what `order` allows), else the bitmask compaction, the
 * fastest measured at every size and density on the H200 and on llvmpipe (README "Choosing an
 * algorithm"), unless block options (`blockSize`, `scan` or `concat`) ask for the paper's block
 * pipeline: then Horn per block, or with order 'any' the hybrid of Jumping Jack and Horn per block.
 * `global` runs Horn over the whole stream.
 */
export function compactionPath(requested: RequestedAlgorithm, global: boolean, blockOptions: boolean, order: 'keep' | 'any' = 'keep', tuned?: CompactionAlgorithm): CompactionAlgorithm {
  if (global) return 'horn-global';
  if (requested !== 'auto') return requested;
  if (blockOptions) return order === 'any' ? 'hybrid' : 'horn';
  if (tuned && (order === 'any' || compactionAlgorithmInfo[tuned].keepsOrder)) return tuned;
  return 'bitmask';
}
