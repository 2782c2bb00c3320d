#version 300 es
// Up a level of a scan with segments, the starts: entry j of the level above is 1 where a segment
// starts among the 2^GROUP_LOG2 entries jG .. jG + G - 1 of this level.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "segment-flags.glsl"

uniform int u_count;          // entries in this level
uniform int u_widthLog2;      // the level above's (this target's)
out uvec4 outValue;

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2)) << uint(GROUP_LOG2);
  bool starts = false;
  for (int k = 0; k < (1 << GROUP_LOG2); ++k) {
    uint index = first + uint(k);
    if (index >= uint(u_count)) break;
    starts = starts || startsSegment(index);
  }
  outValue = uvec4(starts ? 1u : 0u);
}
