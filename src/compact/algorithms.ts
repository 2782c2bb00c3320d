// Each compaction algorithm's driver (its names and properties are in algorithm-names.ts, where
// the public types come from). A new algorithm is one driver file (a CompactionDriver, see
// plan.ts), its shader files in glsl/, a line in algorithm-names.ts and a line here; the
// `satisfies` below fails to compile until both lines exist.
import { bitmaskCompaction } from './bitmask.js';
import { blockCompaction } from './block-compaction.js';
import { histopyramidCompaction } from './histopyramid.js';
import { hornGlobalCompaction } from './horn-global.js';
import type { CompactionAlgorithm } from './algorithm-names.js';
import type { CompactionDriver } from './plan.js';

/** @internal */
export const compactionDrivers = {
  'jumping-jack': blockCompaction('jumping-jack'),
  horn: blockCompaction('horn'),
  hybrid: blockCompaction('hybrid'),
  'horn-global': hornGlobalCompaction,
  histopyramid: histopyramidCompaction,
  bitmask: bitmaskCompaction,
} as const satisfies Record<CompactionAlgorithm, CompactionDriver>;
