// engine.scan(stream, { segments }): a scan that restarts wherever segments[i] is not zero, at any
// positions (not only at fixed blocks). A reduce-then-scan over groups of 2^SEGMENTED_SCAN.groupLog2
// entries, each level carrying what a segmented sum needs: the way up writes, per group, whether a
// segment starts in it (glsl/segment-flags-up.frag) and the sum after its last start
// (glsl/segmented-scan-up.frag); the way down gives each entry its group's entries back to its
// segment's start, plus the group's carry from the level above where no start intervenes
// (glsl/segmented-scan-down.frag). The sums, up and down, read an entry's start only in groups that
// hold one (the flags pass reads them all). Every value is read about 1 + (G + 1) / 2 times in all
// (5.5 with G = 8), where recursive doubling (this file until 2026-11-28) read each about 4 times per
// pass over 2·⌈log4 n⌉ passes: docs/performance.md "The family on the H200, the sort's targets again,
// and a work-efficient scan with segments".
import segmentFlagsUp from '../../glsl/segment-flags-up.frag';
import segmentedScanDown from '../../glsl/segmented-scan-down.frag';
import segmentedScanUp from '../../glsl/segmented-scan-up.frag';
import type { Gpu } from '../gpu.js';
import { groupsLayout, type Layout } from '../layout.js';
import type { RenderTarget } from '../render-target.js';
import { lengthUniforms, type StreamView } from '../stream.js';
import { COUNT_FORMAT } from '../texel-format.js';

/**
 * groupLog2: log2 of the entries a group of one level sums into one entry of the next. A larger group
 * means fewer levels but more entries walked per element on the way down (2^groupLog2 / 2 values and
 * as many starts on average). Mutable for bench/segments-probe.ts.
 */
export const SEGMENTED_SCAN = { groupLog2: 3 };

/** A level of the scan: its entries' values and starts, as textures laid out by `layout`. */
interface Level {
  values: WebGLTexture;
  flags: WebGLTexture;
  /** segments' layout at the first level; the level's own above it. */
  flagsWidthLog2: number;
  /** The first level's flags are the user's segments, which may be float32. */
  floatFlags: boolean;
  layout: Layout;
  count: number;
}

export function segmentedScan(gpu: Gpu, stream: StreamView, segments: StreamView, exclusive: boolean): RenderTarget {
  const { groupLog2 } = SEGMENTED_SCAN;
  const common = { GROUP_LOG2: groupLog2 };
  return gpu.scope((scope) => {
    const first: Level = {
      values: stream.target.texture,
      flags: segments.target.texture,
      flagsWidthLog2: segments.layout.widthLog2,
      floatFlags: segments.type === 'float32',
      layout: stream.layout,
      count: stream.layout.capacity,
    };
    // Up: a level per 2^groupLog2-fold reduction, until one group holds them all.
    const levels = [first];
    for (let level = first; level.count > 2 ** groupLog2; ) {
      const layout = groupsLayout(level.count, level.layout.widthLog2, groupLog2);
      const values = scope.target(layout.width, layout.height, stream.format);
      const flags = scope.target(layout.width, layout.height, COUNT_FORMAT);
      const inputs = { u_flags: level.flags, u_flagsWidthLog2: level.flagsWidthLog2, u_count: level.count, u_widthLog2: layout.widthLog2 };
      const floatDefines = { ...common, FLOAT_SEGMENTS: level.floatFlags };
      // The starts first: the sums read them only in groups that hold one.
      gpu.pass(gpu.program({ name: 'segment-flags-up.frag', fragment: segmentFlagsUp, defines: floatDefines }), flags, inputs);
      gpu.pass(gpu.program({ name: 'segmented-scan-up.frag', fragment: segmentedScanUp, defines: { ...floatDefines, FLOAT_VALUES: stream.type === 'float32' } }), values, {
        ...inputs,
        u_values: level.values,
        u_valuesWidthLog2: level.layout.widthLog2,
        u_groupFlags: flags.texture,
      });
      level = { values: values.texture, flags: flags.texture, flagsWidthLog2: layout.widthLog2, floatFlags: false, layout, count: layout.length };
      levels.push(level);
    }
    // Down: each level's running sums, from the top (no carry) to the first (the result), each level
    // taking its groups' carries from the level above's sums.
    let above: RenderTarget | undefined;
    for (let depth = levels.length - 1; depth >= 0; depth--) {
      const level = levels[depth]!;
      const isResult = depth === 0;
      const target = scope.target(level.layout.width, level.layout.height, stream.format);
      const program = gpu.program({
        name: 'segmented-scan-down.frag',
        fragment: segmentedScanDown,
        defines: {
          ...common,
          FLOAT_VALUES: stream.type === 'float32',
          FLOAT_SEGMENTS: level.floatFlags,
          CARRY: above !== undefined,
          RESULT: isResult,
          EXCLUSIVE: isResult && exclusive,
          LENGTH_FROM_TEXTURE: isResult && stream.length === undefined,
        },
      });
      const levelAbove = levels[depth + 1];
      gpu.pass(program, target, {
        u_values: level.values,
        u_flags: level.flags,
        u_flagsWidthLog2: level.flagsWidthLog2,
        u_widthLog2: level.layout.widthLog2,
        ...(above && levelAbove ? { u_carry: above.texture, u_groupFlags: levelAbove.flags, u_carryWidthLog2: levelAbove.layout.widthLog2 } : {}),
        ...(isResult ? lengthUniforms(stream) : {}),
      });
      above = target;
    }
    return scope.keep(above!);
  });
}
