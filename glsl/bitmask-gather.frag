#version 300 es
// Output side of the bitmask compaction (src/compact/bitmask.ts): output element j is the kept
// element of rank j. The directory brackets the word holding it (entries b and b + 1, b = j >>
// DIRECTORY_SHIFT); a binary search between them finds the word, selectBit its bit. Words are in
// input order and bits in element order, so the output keeps the input's order. Drawn over the rows
// that hold kept elements only (kept-rows.vert); positions past the count in the last row write 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "bit-count.glsl"
#include "bitmask-words.glsl"
#include "compacted-element.glsl"

uniform usampler2D u_top;            // 1x1: the kept count
uniform usampler2D u_directory;
uniform int u_directoryWidthLog2;
out uvec4 outValue;

uint directoryEntry(uint b) {
  return texelFetch(u_directory, texelOf(b, uint(u_directoryWidthLog2)), 0).r;
}

void main() {
  uint j = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  // The fetches that depend only on j go out together: memory latency, paid once per round of
  // dependent fetches, is what this pass waits on.
  uint count = texelFetch(u_top, ivec2(0), 0).r;
  uint b = j >> DIRECTORY_SHIFT;
  uint low = directoryEntry(b);
  uint next = directoryEntry(b + 1u);
  if (j >= count) { outValue = uvec4(0u); return; }
  // The entry after the last one was not drawn: the last word bounds the search there.
  uint high = (b + 1u) << DIRECTORY_SHIFT < count ? next : uint(u_wordCount) - 1u;
  // Rank j lies in the directory entry's word or after it, up to the next entry's: look at the
  // first one, then search the rest (a word or two when half the elements are kept). Checking
  // more words at once measured slower on the H200 (every fetch costs, even in parallel).
  uint w = low;
  uvec2 word = wordAt(low);
  if (word.x <= j) {
    w = wordHolding(j, min(low + 1u, high), high);
    word = wordAt(w);
  }
  uint element = w * 32u + selectBit(word.y, j - (word.x - bitCount32(word.y)));
  outValue = compactedElement(texelOf(element, uint(u_widthLog2)));
}
