#version 300 es
// Up a level of a scan with segments: entry j of the level above holds, for the 2^GROUP_LOG2 entries
// jG .. jG + G - 1 of this level, the sum of those after the last segment start among them (from
// that start on), or of all of them where none starts: what the group hands on to the entries after
// it. Each group reads its entries once, so the whole way up reads every element once; their starts
// only where segment-flags-up.frag (run first) found one in the group (with a start every 256th
// element, 3 % of groups of 8).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "value-arithmetic.glsl"
#include "segment-flags.glsl"

uniform usampler2D u_values;
uniform int u_valuesWidthLog2;
uniform int u_count;          // entries in this level (the group of the last may be partial)
uniform int u_widthLog2;      // the level above's (this target's)
uniform usampler2D u_groupFlags;  // the level above's starts (same layout as this target)
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  uint first = indexOf(texel, uint(u_widthLog2)) << uint(GROUP_LOG2);
  bool groupHasStart = texelFetch(u_groupFlags, texel, 0).r != 0u;
  uvec4 tail = uvec4(0u);
  for (int k = 0; k < (1 << GROUP_LOG2); ++k) {
    uint index = first + uint(k);
    if (index >= uint(u_count)) break;
    uvec4 value = texelFetch(u_values, texelOf(index, uint(u_valuesWidthLog2)), 0);
    tail = groupHasStart && startsSegment(index) ? value : addValues(tail, value);
  }
  outValue = tail;
}
