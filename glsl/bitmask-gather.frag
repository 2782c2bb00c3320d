#version 300 es
// Output side of the bitmask compaction (src/compact/bitmask.ts): output element j is the kept
// element of rank j. A binary search over the words' inclusive kept counts finds the word holding
// it (the first word whose count exceeds j), then selectBit finds its bit. Words are in input
// order and bits in element order, so the output keeps the input's order. Drawn over the rows
// that hold kept elements only (kept-rows.vert); positions past the count in the last row write 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "bit-count.glsl"
#include "compacted-element.glsl"

uniform usampler2D u_top;            // 1x1: the kept count
uniform usampler2D u_words;          // keep flags, 32 to a word
uniform usampler2D u_wordPrefix;     // inclusive kept count of words 0 .. w
uniform int u_wordCount;
uniform int u_wordsWidthLog2;        // both word textures share a layout
out uvec4 outValue;

uint wordPrefix(uint w) {
  return texelFetch(u_wordPrefix, texelOf(w, uint(u_wordsWidthLog2)), 0).r;
}

void main() {
  uint j = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  if (j >= texelFetch(u_top, ivec2(0), 0).r) { outValue = uvec4(0u); return; }
  uint low = 0u, high = uint(u_wordCount) - 1u;
  while (low < high) {
    uint middle = (low + high) >> 1;
    if (wordPrefix(middle) > j) high = middle; else low = middle + 1u;
  }
  uint before = low == 0u ? 0u : wordPrefix(low - 1u);
  uint word = texelFetch(u_words, texelOf(low, uint(u_wordsWidthLog2)), 0).r;
  uint element = low * 32u + selectBit(word, j - before);
  outValue = compactedElement(texelOf(element, uint(u_widthLog2)));
}
