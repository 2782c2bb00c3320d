#version 300 es
// Radix sort, per digit: output position p finds the element that moves there (a gather; drawing
// one point per element to scatter it measured ~0.6 G points/s on an H100, bench/scatter-probe.ts).
// The buckets of digits 0..3 follow each other (their totals are at the last block of the scan), so
// p's digit d and its rank r within d's bucket are known; a binary search over the blocks' inclusive
// counts of d finds the block holding that rank, and a walk over the block's SORT_BLOCK keys finds
// the element. Elements of one digit keep their order (stable). Writes the element's position in
// the current order; positions past the keys' length are padding (0).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "sort-key.glsl"

uniform usampler2D u_keys;
uniform usampler2D u_blockRanks;  // inclusive scan of radix-block-histogram.frag's counts
uniform int u_widthLog2;          // the keys' (and this target's)
uniform int u_blocksWidthLog2;
uniform int u_blocks;             // entries in u_blockRanks (the last holds the totals)
uniform int u_shift;
out uvec4 outValue;

uvec4 ranksOf(uint block) { return texelFetch(u_blockRanks, texelOf(block, uint(u_blocksWidthLog2)), 0); }

void main() {
  uint p = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  if (p >= streamLength()) { outValue = uvec4(0u); return; }
  uvec4 totals = ranksOf(uint(u_blocks) - 1u);
  int digit = 0;
  uint rank = p;
  for (int d = 0; d < 3; ++d) {
    if (rank < totals[d]) break;
    rank -= totals[d];
    digit = d + 1;
  }
  // The first block whose inclusive count of the digit exceeds the rank.
  uint low = 0u, high = uint(u_blocks) - 1u;
  while (low < high) {
    uint middle = (low + high) >> 1;
    if (ranksOf(middle)[digit] > rank) high = middle; else low = middle + 1u;
  }
  uint before = low == 0u ? 0u : ranksOf(low - 1u)[digit];
  uint local = rank - before;
  uint first = low << uint(SORT_BLOCK_LOG2);
  ivec2 texel = texelOf(first, uint(u_widthLog2));
  uint found = first;
  for (int k = 0; k < (1 << SORT_BLOCK_LOG2); ++k) {
    if (int(sortDigit(texelFetch(u_keys, texel + ivec2(k, 0), 0).r, u_shift)) != digit) continue;
    if (local == 0u) { found = first + uint(k); break; }
    local -= 1u;
  }
  outValue = uvec4(found);
}
