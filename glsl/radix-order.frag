#version 300 es
// Radix sort's order (engine.argsort(), src/sort.ts): output j is the input position of the element
// sorted to j. Where passes write 4 or more attachments the last digit's select wrote those
// positions in lanes, LANES to a texel (index-lanes.glsl); this copies them into the keys' layout,
// one per texel (the gathers of engine.sort() read them where they lie instead). Zeros past the length.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "index-lanes.glsl"

uniform usampler2DArray u_lanes;
uniform int u_lanesWidthLog2;   // the select's texels'
uniform int u_widthLog2;        // the keys' (this target's)
out uvec4 outValue;

void main() {
  uint j = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  outValue = uvec4(0u);
  if (j >= streamLength()) return;
  outValue.r = laneAt(u_lanes, uint(u_lanesWidthLog2), uint(LANES), j);
}
