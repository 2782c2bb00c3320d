#version 300 es
// Builds one HistoPyramid level from the one below: each entry is the sum of FAN_IN consecutive
// entries below (consecutive in the linear index, so the order of elements is kept). The level
// below is the kept flags (one per texel) unless BELOW_PACKED (four per texel); this level is
// packed, four entries per texel, unless TOP (the single-entry top: the kept count, in a 1x1 R32UI
// texture, the result's count). Texels below past u_belowTexels read as 0, so padding stays 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "histopyramid-level.glsl"

uniform usampler2D u_below;
uniform int u_belowTexels;   // texels of the level below that hold entries (its texture may be larger)
uniform int u_widthLog2;     // this level's texture
out uvec4 outValue;

uint belowWidthLog2;

uint entrySum(uint e) {
  uint sum = 0u;
#ifdef BELOW_PACKED
  uint first = e * uint(FAN_IN / 4);
  for (int i = 0; i < FAN_IN / 4; ++i) {
    uint t = first + uint(i);
    if (t < uint(u_belowTexels)) sum += sum4(levelTexel(u_below, belowWidthLog2, t));
  }
#else
  uint first = e * uint(FAN_IN);
  for (int i = 0; i < FAN_IN; ++i) {
    uint t = first + uint(i);
    if (t < uint(u_belowTexels)) sum += levelTexel(u_below, belowWidthLog2, t).r;
  }
#endif
  return sum;
}

void main() {
  belowWidthLog2 = levelWidthLog2(u_below);
  uint t = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
#ifdef TOP
  outValue = uvec4(entrySum(0u));
#else
  outValue = uvec4(entrySum(4u * t), entrySum(4u * t + 1u), entrySum(4u * t + 2u), entrySum(4u * t + 3u));
#endif
}
