#version 300 es
// Output side of the bitmask compaction (src/compact/bitmask.ts): output element j is the kept
// element of rank j. The directory brackets the word holding it (entries b and b + 1, b = j >>
// DIRECTORY_SHIFT; without DIRECTORY, for few words, all of them); a binary search finds the word,
// selectBit its bit. Words are in input order and bits in element order, so the output keeps the
// input's order. Drawn over the rows that hold kept elements only (kept-rows.vert); positions past
// the count in the last row write 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "bit-count.glsl"
#include "bitmask-words.glsl"
#include "compacted-element.glsl"

uniform usampler2D u_top;            // 1x1: the kept count
out uvec4 outValue;

#ifdef DIRECTORY
uniform usampler2D u_directory;
uniform int u_directoryWidthLog2;

uint directoryEntry(uint b) {
  return texelFetch(u_directory, texelOf(b, uint(u_directoryWidthLog2)), 0).r;
}
#endif

void main() {
  uint j = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  if (j >= texelFetch(u_top, ivec2(0), 0).r) { outValue = uvec4(0u); return; }
  uint last = uint(u_wordCount) - 1u;
#ifdef DIRECTORY
  // The fetches that depend only on j go out together; the entry after the last one drawn may hold
  // anything, so the last word bounds the search there.
  uint b = j >> DIRECTORY_SHIFT;
  uint low = directoryEntry(b);
  uint next = directoryEntry(b + 1u);
  uint high = (b + 1u) << DIRECTORY_SHIFT < texelFetch(u_top, ivec2(0), 0).r ? next : last;
  // Rank j lies in the entry's word or after it, up to the next entry's: look at the first one,
  // then search the rest (a word or two when half the elements are kept). Checking more words at
  // once measured slower on the H200 (every fetch costs, even in parallel).
  uint w = wordCountUpTo(low) > j ? low : wordHolding(j, min(low + 1u, high), high);
#else
  uint w = wordHolding(j, 0u, last);   // few words: no directory pass
#endif
  uint word = wordAt(w);
  uint element = w * 32u + selectBit(word, j - (wordCountUpTo(w) - bitCount32(word)));
  outValue = compactedElement(texelOf(element, uint(u_widthLog2)));
}
