#version 300 es
// Output side of the bitmask compaction (src/compact/bitmask.ts): output element j is the kept
// element of rank j. With POSITIONS, bitmask-select.frag found its input position. Else the
// directory gives the word holding rank j rounded down to a multiple of 2^DIRECTORY_SHIFT; a short
// gallop and search from there find j's word (without DIRECTORY, for few words, a binary search
// over all of them), selectBit its bit. Words are in input order and bits
// in element order, so the output keeps the input's order. Drawn over the rows that hold kept
// elements only (kept-rows.vert); positions past the count in the last row write 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "bit-count.glsl"
#include "bitmask-words.glsl"
#include "compacted-element.glsl"

out uvec4 outValue;

#ifdef POSITIONS
// bitmask-select.frag's output: the input position of rank j in lane j % RANKS of texel j / RANKS.
precision highp usampler2DArray;
uniform usampler2DArray u_positions;
uniform int u_positionsWidthLog2;
#define RANKS (4 * ATTACHMENTS)
#endif

#ifdef DIRECTORY
uniform usampler2D u_directory;
uniform int u_directoryWidthLog2;

uint directoryEntry(uint b) {
  return texelFetch(u_directory, texelOf(b, uint(u_directoryWidthLog2)), 0).r;
}
#endif

flat in uint v_keptCount;   // kept-rows.vert

void main() {
  uint j = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  if (j >= v_keptCount) { outValue = uvec4(0u); return; }
#ifdef POSITIONS
  uint lane = j % uint(RANKS);
  uvec4 positions = texelFetch(u_positions, ivec3(texelOf(j / uint(RANKS), uint(u_positionsWidthLog2)), int(lane / 4u)), 0);
#ifdef SELECTED_ELEMENTS
  // The select wrote the element itself: its value (one component), or with OUTPUT_INDICES its position.
  outValue = uvec4(positions[lane % 4u]);
#else
  outValue = compactedElement(texelOf(positions[lane % 4u], uint(u_widthLog2)));
#endif
#else
  uint last = uint(u_wordCount) - 1u;
#ifdef DIRECTORY
  // Rank j lies in the directory entry's word or after it. Look at that word, then gallop: words
  // low+1, low+2, low+4, ... until one's count exceeds j, and search the last stride. When half the
  // elements are kept that is one to three fetches, with no upper bound to fetch first: on the H200
  // each fetch costs, even in parallel.
  uint w = directoryEntry(j >> DIRECTORY_SHIFT);
  uint count = wordCountUpTo(w);
  if (count <= j) {
    uint low = w + 1u;
    uint stride = 1u;
    uint high = min(low, last);
    count = wordCountUpTo(high);
    while (count <= j && high < last) {
      low = high + 1u;
      stride <<= 1;
      high = min(high + stride, last);
      count = wordCountUpTo(high);
    }
    w = wordHolding(j, low, high, count);
  }
#else
  uint count = 0u;
  uint w = wordHolding(j, 0u, last, count);   // few words: no directory pass
  if (count == 0u) count = wordCountUpTo(w);
#endif
  // Fetching the word together with the directory entry's count measured no faster (6.27 vs 5.99 ms).
  uint word = wordAt(w);
  uint element = w * 32u + selectBit(word, j - (count - bitCount32(word)));
  outValue = compactedElement(texelOf(element, uint(u_widthLog2)));
#endif
}
