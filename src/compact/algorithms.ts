// The compaction algorithms, one entry each. The `algorithm` option, its validation and the
// stats' `algorithm` field are derived from this table: a new algorithm is one driver file (a
// CompactionDriver, see plan.ts), its shader files in glsl/, and one line here.
import { blockCompaction } from './block-compaction.js';
import { histopyramidCompaction } from './histopyramid.js';
import { hornGlobalCompaction } from './horn-global.js';
import type { CompactionDriver } from './plan.js';

/** @internal */
export interface CompactionAlgorithmEntry {
  run: CompactionDriver;
  /** Whether the output keeps the input's order. */
  keepsOrder: boolean;
  /** Works in blocks: `blockSize`, `scan` and `concat` apply (else the stats report concat 'none'). */
  blocks: boolean;
  /** Selectable by name in `options.algorithm` (the others are reached through 'auto' or `global`). */
  selectable: boolean;
}

/** @internal The table (kept off the public declarations: its drivers reach the GL internals). */
export const compactionAlgorithms = {
  'jumping-jack': { run: blockCompaction('jumping-jack'), keepsOrder: false, blocks: true, selectable: true },
  horn: { run: blockCompaction('horn'), keepsOrder: true, blocks: true, selectable: true },
  /** What 'auto' runs: Jumping Jack or Horn per block, by the block's kept count. */
  hybrid: { run: blockCompaction('hybrid'), keepsOrder: false, blocks: true, selectable: false },
  /** Horn with `global: true`: one search over the whole stream. */
  'horn-global': { run: hornGlobalCompaction, keepsOrder: true, blocks: false, selectable: false },
  /** A 1D HistoPyramid (Ziegler 2006; Dyken 2008) over the linear index: input order kept. */
  histopyramid: { run: histopyramidCompaction, keepsOrder: true, blocks: false, selectable: true },
} as const satisfies Record<string, CompactionAlgorithmEntry>;

/**
 * The path a compaction took (`result.stats.algorithm`): 'jumping-jack', 'horn' or 'histopyramid'
 * as requested, 'hybrid' for 'auto' (Jumping Jack or Horn per block), 'horn-global' for Horn with
 * `global: true`.
 */
export type CompactionAlgorithm = 'jumping-jack' | 'horn' | 'hybrid' | 'horn-global' | 'histopyramid';

type Selectable = { [K in CompactionAlgorithm]: (typeof compactionAlgorithms)[K]['selectable'] extends true ? K : never }[CompactionAlgorithm];

/** Values of `options.algorithm` (CompactOptions): 'jumping-jack', 'horn', 'histopyramid' or 'auto' (the default). */
export type RequestedAlgorithm = 'jumping-jack' | 'horn' | 'histopyramid' | 'auto';

// The public unions above are spelt out (the table's types reach the GL internals); they must match it.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const tableMatchesTypes: [Same<CompactionAlgorithm, keyof typeof compactionAlgorithms>, Same<RequestedAlgorithm, Selectable | 'auto'>] = [true, true];
void tableMatchesTypes;

/** @internal */
export const requestedAlgorithmNames: RequestedAlgorithm[] = [
  ...(Object.keys(compactionAlgorithms) as CompactionAlgorithm[]).filter((name): name is Selectable => compactionAlgorithms[name].selectable),
  'auto',
];

/** @internal The path for a request: 'auto' runs the hybrid; `global` runs Horn over the whole stream. */
export function compactionPath(requested: RequestedAlgorithm, global: boolean): CompactionAlgorithm {
  if (global) return 'horn-global';
  return requested === 'auto' ? 'hybrid' : requested;
}
