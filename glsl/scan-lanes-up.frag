#version 300 es
// Up step of the reduce-then-scan prefix sum (src/scan/reduce-then-scan.ts): fragment g adds the
// LANES entries g·LANES .. g·LANES+LANES-1 of the level below in order and writes every running
// sum, one lane each, to its ATTACHMENTS colour attachments (scan-lanes.glsl). The last lane, the
// group's total, is the level above's entry g. Writing all the running sums here (8 attachments:
// 32 one-component entries per fragment; it costs what a copy of the same bytes costs) is what lets
// the way down read one lane per element instead of adding up its group again.
// SEGMENT_LANES: segments shorter than a group; the sum restarts at each (segmented scans).
// FROM_LANES: the level below is itself lanes, and its entries are its groups' totals.
precision highp float;
precision highp int;
precision highp usampler2D;
precision highp usampler2DArray;

#include "texel-index.glsl"
#include "value-arithmetic.glsl"
#include "scan-input.glsl"
#include "scan-lanes.glsl"

#if defined(FROM_LANES) && defined(BELOW_LANES_2D)
uniform usampler2D u_belowLanes;   // lanes of one attachment (scan-lanes.glsl)
#elif defined(FROM_LANES)
uniform usampler2DArray u_belowLanes;
#else
uniform usampler2D u_below;
#endif
uniform int u_belowCount;        // entries of the level below
uniform int u_belowWidthLog2;    // its layout (of its groups' texels with FROM_LANES)
uniform int u_widthLog2;         // this pass's texels: one per group
layout(location = 0) out uvec4 outLanes[ATTACHMENTS];

uvec4 entry(uint e) {
#ifdef FROM_LANES
  // BELOW_LANES: the level below's lanes per group (its last lane is its group's total).
  return laneValue(u_belowLanes, e, uint(BELOW_LANES - 1), uint(u_belowWidthLog2));
#else
  return scanInput(u_below, texelOf(e, uint(u_belowWidthLog2)));
#endif
}

// One lane: entry k of the group added to the running sum (entries past the level's end add
// nothing; the fetch is clamped into the level so that it stays in the texture), its running sum
// stored in `lane`. Written out lane by lane rather than as a loop storing into a local array (H100,
// 2^24: 2.84 ms against 3.05 for the loop; a pass with the same fetches and writes and no running
// sum costs 1.23 ms, bench/lanes-probe.ts).
#ifdef SEGMENT_LANES
#define RESTART(k) if ((k) % SEGMENT_LANES == 0) sum = uvec4(0u);
#else
#define RESTART(k)
#endif
// (One line: headless-gl's ANGLE rejects line continuations.)
#define LANE(k, lane) { uint e = first + uint(k); uvec4 value = entry(min(e, last)); RESTART(k) sum = e <= last ? addValues(sum, value) : sum; lane = LANE_VALUE(sum); }
#if LANES_PER_TEXEL == 4
#define LANE_VALUE(sum) sum.r
// Attachment a's texel: lanes 4a .. 4a+3 in its four components.
#define TEXEL(a, texel) LANE(4 * (a), texel.x) LANE(4 * (a) + 1, texel.y) LANE(4 * (a) + 2, texel.z) LANE(4 * (a) + 3, texel.w)
#else
#define LANE_VALUE(sum) sum
#define TEXEL(a, texel) LANE(a, texel)
#endif

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2)) * uint(LANES);
  uint last = uint(u_belowCount) - 1u;
  uvec4 sum = uvec4(0u);
  uvec4 t0, t1, t2, t3, t4, t5, t6, t7;
  // Fragment outputs take constant indices only (no loop, even an unrolled one, in ANGLE).
  TEXEL(0, t0)
  outLanes[0] = t0;
#if ATTACHMENTS >= 2
  TEXEL(1, t1)
  outLanes[1] = t1;
#endif
#if ATTACHMENTS >= 4
  TEXEL(2, t2)
  TEXEL(3, t3)
  outLanes[2] = t2;
  outLanes[3] = t3;
#endif
#if ATTACHMENTS == 8
  TEXEL(4, t4)
  TEXEL(5, t5)
  TEXEL(6, t6)
  TEXEL(7, t7)
  outLanes[4] = t4;
  outLanes[5] = t5;
  outLanes[6] = t6;
  outLanes[7] = t7;
#endif
}
