#version 300 es
// Joins four 8-flag texels (keep-bitmask.frag) into one 32-bit word of keep flags: bit k of word w
// says whether element 32w + k is kept, in input order (src/compact/bitmask.ts).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"

uniform usampler2D u_flags;
uniform int u_flagsWidthLog2;
uniform int u_widthLog2;   // this target's
out uvec4 outValue;

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2)) * 4u;
  // Rows of the flags texture hold a multiple of four texels (power-of-two widths), or one row.
  ivec2 texel = texelOf(first, uint(u_flagsWidthLog2));
  uint word = 0u;
  for (int k = 0; k < 4; ++k) word |= texelFetch(u_flags, texel + ivec2(k, 0), 0).r << (8 * k);
  outValue = uvec4(word);
}
