#version 300 es
// Directory of the bitmask compaction (src/compact/bitmask.ts): entry b holds the word that contains
// the kept element of rank b * 2^DIRECTORY_SHIFT, found by a binary search over all the words'
// inclusive counts. The output pass then searches only between two neighbouring entries (a word or
// two when half the elements are kept) instead of over every word.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "bitmask-words.glsl"

uniform int u_widthLog2;   // this directory's
out uvec4 outValue;

void main() {
  uint rank = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2)) << DIRECTORY_SHIFT;
  uint unused = 0u;
  outValue = uvec4(wordHolding(rank, 0u, uint(u_wordCount) - 1u, unused));
}
