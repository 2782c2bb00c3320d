#version 300 es
// A step of recursive doubling that stops at segment starts: element i adds the elements
// k·u_offset to its left (k = 1 .. RADIX - 1) while they lie in its own segment (position ≥
// heads[i], where its segment starts). By induction, after the step with offset r^s element i sums
// (max(heads[i] - 1, i - r^(s+1)), i], so after ceil(log_r n) steps each segment's inclusive scan.
// LAST: padding past the stream's length is written as 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "value-arithmetic.glsl"
#ifdef LAST
#include "stream-length.glsl"
#endif

uniform usampler2D u_input;
uniform usampler2D u_heads;
uniform int u_offset;
uniform int u_widthLog2;
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  uint i = indexOf(texel, uint(u_widthLog2));
#ifdef LAST
  if (i >= streamLength()) { outValue = uvec4(0u); return; }
#endif
  uint head = texelFetch(u_heads, texel, 0).r;
  uvec4 sum = texelFetch(u_input, texel, 0);
  for (int k = 1; k < RADIX; ++k) {
    uint back = uint(k) * uint(u_offset);
    if (back > i - head) break;   // that element is in an earlier segment
    sum = addValues(sum, texelFetch(u_input, texelOf(i - back, uint(u_widthLog2)), 0));
  }
  outValue = sum;
}
