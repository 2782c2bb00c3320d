#version 300 es
// A max-scan step of recursive doubling over the whole stream (linear positions, across rows):
// head[i] = max(head[i], head[i - k·u_offset]) for k = 1 .. RADIX - 1. After ceil(log_RADIX n)
// steps every element holds the position where its segment starts.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"

uniform usampler2D u_heads;
uniform int u_offset;
uniform int u_widthLog2;
out uvec4 outValue;

void main() {
  uint i = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  uint head = texelFetch(u_heads, ivec2(gl_FragCoord.xy), 0).r;
  for (int k = 1; k < RADIX; ++k) {
    uint back = uint(k) * uint(u_offset);
    if (back > i) break;
    head = max(head, texelFetch(u_heads, texelOf(i - back, uint(u_widthLog2)), 0).r);
  }
  outValue = uvec4(head);
}
