#version 300 es
// Radix sort, per digit: a one-hot RGBA texel of the element's 2-bit digit (component d is 1 for
// digit d), so that one 4-component scan ranks every element within its bucket at once. Padding
// past the keys' length belongs to no bucket.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "sort-key.glsl"

uniform usampler2D u_keys;
uniform int u_widthLog2;
uniform int u_shift;
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  if (indexOf(texel, uint(u_widthLog2)) >= streamLength()) { outValue = uvec4(0u); return; }
  uint digit = sortDigit(texelFetch(u_keys, texel, 0).r, u_shift);
  outValue = uvec4(equal(uvec4(digit), uvec4(0u, 1u, 2u, 3u)));
}
