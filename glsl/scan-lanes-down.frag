#version 300 es
// Down step of the reduce-then-scan prefix sum (src/scan/reduce-then-scan.ts): entry i of a level
// is the sum of the groups before its own in its segment (the level above's inclusive prefix of
// group - 1, unless the group starts the segment) plus its own lane (scan-lanes.glsl): two fetches
// per element, whatever the group size. EXCLUSIVE takes the lane before it instead (0 at the start
// of a group or segment). The level above is either already scanned into a texture
// (u_parent) or, where it was the top of the tree, its lanes are its scan (PARENT_LANES, in groups of
// PARENT_GROUP_LANES: each level has its own group size); with
// NO_PARENT every segment fits in a group. MAX_ALLOWABLE_SIZE turns the inclusive count of invalid
// flags into MAS (max-allowable-size.glsl), fused into this last pass as in Blelloch's.
precision highp float;
precision highp int;
precision highp usampler2D;
precision highp usampler2DArray;

#include "texel-index.glsl"
#include "value-arithmetic.glsl"
#include "scan-lanes.glsl"
#include "max-allowable-size.glsl"

#ifdef LANES_2D
uniform usampler2D u_lanes;        // this level's lanes (one attachment: scan-lanes.glsl)
#else
uniform usampler2DArray u_lanes;   // this level's lanes
#endif
uniform int u_lanesWidthLog2;
uniform int u_count;               // entries of this level; the texels past it are written 0
uniform int u_widthLog2;           // this level's scanned layout (what this pass writes)
#if defined(PARENT_LANES)
#ifdef PARENT_LANES_2D
uniform usampler2D u_parentLanes;
#else
uniform usampler2DArray u_parentLanes;
#endif
uniform int u_parentLanesWidthLog2;
#elif !defined(NO_PARENT)
uniform usampler2D u_parent;       // the level above, scanned (inclusive)
uniform int u_parentWidthLog2;
#endif
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  uint i = indexOf(texel, uint(u_widthLog2));
  if (i >= uint(u_count)) { outValue = uvec4(0u); return; }
  uint group = i / uint(LANES);
  uint lane = i % uint(LANES);
  uvec4 sum = uvec4(0u);
#ifndef NO_PARENT
  // PARENT_SEGMENT_MASK: the level above's entries per segment, minus one (all ones: one segment).
  if ((group & PARENT_SEGMENT_MASK) != 0u) {
#ifdef PARENT_LANES
    uint g = group - 1u;
    sum = laneValue(u_parentLanes, g / uint(PARENT_GROUP_LANES), g % uint(PARENT_GROUP_LANES), uint(u_parentLanesWidthLog2));
#else
    sum = texelFetch(u_parent, texelOf(group - 1u, uint(u_parentWidthLog2)), 0);
#endif
  }
#endif
#ifdef EXCLUSIVE
  // LANE_SEGMENT_MASK: lanes per segment within a group, minus one.
  if ((lane & LANE_SEGMENT_MASK) != 0u) sum = addValues(sum, laneValue(u_lanes, group, lane - 1u, uint(u_lanesWidthLog2)));
#else
  sum = addValues(sum, laneValue(u_lanes, group, lane, uint(u_lanesWidthLog2)));
#endif
#if defined(MAX_ALLOWABLE_SIZE)
  outValue = uvec4(packMaxAllowableSize(BLOCK_SIZE, sum.r, texel));
#else
  outValue = sum;
#endif
}
