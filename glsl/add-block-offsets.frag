#version 300 es
// Last pass of a global scan: element i's sum is its block-local inclusive sum plus the exclusive
// prefix of all earlier blocks (computed one level up). EXCLUSIVE shifts by one element: i gets
// element i-1's sum, found in whichever block i-1 lies in, so no separate shift pass is needed.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "value-arithmetic.glsl"

uniform usampler2D u_blockScan;
uniform usampler2D u_blockPrefix;
uniform int u_blockLog2;
uniform int u_widthLog2;
uniform int u_prefixWidthLog2;
out uvec4 outValue;

void main() {
  uint index = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
#ifdef EXCLUSIVE
  if (index == 0u) { outValue = uvec4(0u); return; }
  index -= 1u;
#endif
  uvec4 local = texelFetch(u_blockScan, texelOf(index, uint(u_widthLog2)), 0);
  uvec4 before = texelFetch(u_blockPrefix, texelOf(index >> uint(u_blockLog2), uint(u_prefixWidthLog2)), 0);
  outValue = addValues(local, before);
}
