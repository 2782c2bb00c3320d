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

#ifdef FROM_LANES
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

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2)) * uint(LANES);
  uint last = uint(u_belowCount) - 1u;
  uvec4 sum = uvec4(0u);
  uvec4 texels[ATTACHMENTS];
  // A constant trip count and unconditional fetches (clamped into the level) let the compiler issue
  // them together; the select drops entries past the level's end.
  for (int k = 0; k < LANES; ++k) {
    uint e = first + uint(k);
    uvec4 value = entry(min(e, last));
#ifdef SEGMENT_LANES
    if (k % SEGMENT_LANES == 0) sum = uvec4(0u);
#endif
    sum = e <= last ? addValues(sum, value) : sum;
#if LANES_PER_TEXEL == 4
    texels[k / 4][k % 4] = sum.r;
#else
    texels[k] = sum;
#endif
  }
  // Fragment outputs take constant indices only (no loop, even an unrolled one, in ANGLE).
  outLanes[0] = texels[0];
#if ATTACHMENTS >= 2
  outLanes[1] = texels[1];
#endif
#if ATTACHMENTS >= 4
  outLanes[2] = texels[2];
  outLanes[3] = texels[3];
#endif
#if ATTACHMENTS == 8
  outLanes[4] = texels[4];
  outLanes[5] = texels[5];
  outLanes[6] = texels[6];
  outLanes[7] = texels[7];
#endif
}
