#version 300 es
// Radix sort, per digit (src/sort.ts): entry e notes the counted group of blocks holding the element
// that moves to output position e · 2^DIRECTORY_SHIFT (a binary search over all groups,
// radix-rank.glsl). The move pass (every 2^3 outputs) and the select pass (every 2^6, from 2^20
// elements) then start from an output's entry and gallop forward a few groups (radix-rank.glsl
// groupFromDirectory) instead of searching all groups, as the bitmask compaction's directory does.
// Compiled without DIRECTORY: radix-rank.glsl declares the directory's uniforms under it.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "radix-rank.glsl"

uniform int u_directoryWidthLog2;   // this target's
out uvec4 outValue;

void main() {
  uint p = indexOf(ivec2(gl_FragCoord.xy), uint(u_directoryWidthLog2)) << DIRECTORY_SHIFT;
  if (p >= streamLength()) { outValue = uvec4(0u); return; }
  outValue = uvec4(groupHolding(placeOf(p), 0u, uint(u_groups) - 1u));
}
