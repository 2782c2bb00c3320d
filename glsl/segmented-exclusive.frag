#version 300 es
// Turns a scan with segments from inclusive to exclusive: element i takes element i - 1's sum, and
// 0 where its segment starts. Padding past the stream's length is 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"

uniform usampler2D u_input;
uniform usampler2D u_heads;
uniform int u_widthLog2;
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  uint i = indexOf(texel, uint(u_widthLog2));
  bool starts = i >= streamLength() || texelFetch(u_heads, texel, 0).r == i;
  outValue = starts ? uvec4(0u) : texelFetch(u_input, texelOf(i - 1u, uint(u_widthLog2)), 0);
}
