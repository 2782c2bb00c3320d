// layout.ts#groupsLayout: where the helper textures' texels lie, each standing for a run of 2^groupLog2
// consecutive entries. The GPU tests check the results of every pass that uses it (scan-lanes,
// bitmask-select, sort, compact); this checks the layout's own promises, for shapes those tests do
// not reach: every group has a texel, no taller than the level, rows at least minWidth wide (or one
// row), and the groups of one row of entries in one row of texels wherever rows are wide enough.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { groupsLayout } from '../src/layout.js';

it('groupsLayout: a texel per group, no taller than the level, row-aligned where rows allow, at least minWidth wide', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 13 }), // the level's rows: 2^levelWidthLog2 entries wide
      fc.integer({ min: 0, max: 6 }), // groups of 2^groupLog2 entries
      fc.integer({ min: 1, max: 300 }), // rows of the level
      fc.integer({ min: 0, max: 2 ** 13 }), // entries short of the last row
      fc.constantFrom(1, 4, 256),
      (levelWidthLog2, groupLog2, rows, short, minWidth) => {
        const levelWidth = 2 ** levelWidthLog2;
        const count = Math.max(1, levelWidth * rows - Math.min(short, levelWidth - 1));
        const layout = groupsLayout(count, levelWidthLog2, groupLog2, minWidth);
        const groups = Math.ceil(count / 2 ** groupLog2);
        expect(layout.length).toBe(groups);
        expect(layout.width).toBe(2 ** layout.widthLog2);
        expect(layout.capacity).toBe(layout.width * layout.height);
        expect(layout.capacity).toBeGreaterThanOrEqual(groups);
        expect(layout.height - 1).toBeLessThan(Math.ceil(groups / layout.width)); // no empty row
        expect(layout.height).toBeLessThanOrEqual(rows);
        expect(layout.width >= minWidth || layout.height === 1).toBe(true);
        if (levelWidth >= 2 ** groupLog2 && levelWidth / 2 ** groupLog2 >= Math.min(minWidth, groups)) {
          // Row r of texels holds exactly the groups of row r of entries.
          for (const group of [0, groups - 1, Math.floor(groups / 2)]) {
            expect(Math.floor(group / layout.width)).toBe(Math.floor((group * 2 ** groupLog2) / levelWidth));
          }
        }
      },
    ),
    { numRuns: 2000 },
  );
});
