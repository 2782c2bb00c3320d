#version 300 es
// Radix sort, per digit: output position p finds the element that moves there (a gather; drawing
// one point per element to scatter it measured ~0.6 G points/s on an H100, bench/scatter-probe.ts).
// p's digit d and its rank r within d's bucket come from the buckets' totals; the block holding
// rank r of d is found (with DIRECTORY; without it, few blocks, by a binary search) from the directory (radix-directory.frag: the block of the first position of
// p's group of 2^DIRECTORY_SHIFT): where that position has the same digit, p's block is that one or a
// later one, reached by a gallop (blocks b, b+1, b+3, ...) and a search of the last stride; where the
// digit changes inside the group, by a binary search over all blocks (radix-rank.glsl). Then the
// block's SORT_BLOCK keys, fetched together, give the element. Elements of one digit keep their
// order (stable). Writes the element's position in the current order; positions past the keys'
// length are padding (0).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "radix-rank.glsl"

#ifdef BLOCK_ORDER
uniform usampler2D u_blockOrder;  // radix-block-order.frag's listing of each block's offsets by digit
#else
#include "sort-key.glsl"
uniform usampler2D u_keys;
uniform int u_shift;
#endif
#ifdef DIRECTORY
uniform usampler2D u_directory;
uniform int u_directoryWidthLog2;
#endif
uniform int u_widthLog2;          // the keys' (and this target's)
out uvec4 outValue;

void main() {
  uint p = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  if (p >= streamLength()) { outValue = uvec4(0u); return; }
  uvec4 totals = ranksOf(uint(u_blocks) - 1u);
  int digit = digitOf(p, totals);
  uint rank = p - bucketStart(digit, totals);
  uint last = uint(u_blocks) - 1u;
  uint block;
#ifdef DIRECTORY
  uint groupStart = (p >> DIRECTORY_SHIFT) << DIRECTORY_SHIFT;
  if (digitOf(groupStart, totals) == digit) {
    uint low = texelFetch(u_directory, texelOf(p >> DIRECTORY_SHIFT, uint(u_directoryWidthLog2)), 0).r;
    uint stride = 1u;
    uint high = low;
    // The fetch stays out of the loop's condition: with it there, the H100 (ANGLE on the driver's
    // OpenGL ES) returned wrong blocks that llvmpipe did not (bench/sort-probe.ts).
    uint count = ranksOf(high)[digit];
    while (count <= rank && high < last) {
      low = high + 1u;
      high = min(high + stride, last);
      stride <<= 1;
      count = ranksOf(high)[digit];
    }
    block = blockHolding(digit, rank, low, high);
  } else {
    block = blockHolding(digit, rank, 0u, last);
  }
#else
  block = blockHolding(digit, rank, 0u, last);   // few blocks: no directory pass
#endif
#ifdef BLOCK_ORDER
  // The block's counts of each digit (its inclusive ranks minus the block before's), so the element's
  // slot in the block's listing by digit (radix-block-order.frag): smaller digits first, then `local`.
  uvec4 before = block == 0u ? uvec4(0u) : ranksOf(block - 1u);
  uvec4 counts = ranksOf(block) - before;
  uint slot = rank - before[digit];
  for (int d = 0; d < 3; ++d) slot += d < digit ? counts[d] : 0u;
  uvec4 listing = texelFetch(u_blockOrder, texelOf(block, uint(u_blocksWidthLog2)), 0);
  uint offset = ((slot < 8u ? listing.x >> (4u * slot) : listing.y >> (4u * (slot - 8u)))) & 15u;
  uint found = (block << uint(SORT_BLOCK_LOG2)) + offset;
#else
  // Few elements: the block's SORT_BLOCK keys, fetched together, give the element (the local-th of
  // the digit), with no listing pass.
  uint local = rank - (block == 0u ? 0u : ranksOf(block - 1u)[digit]);
  uint first = block << uint(SORT_BLOCK_LOG2);
  ivec2 texel = texelOf(first, uint(u_widthLog2));
  uint found = first;
  uint seen = 0u;
  for (int k = 0; k < (1 << SORT_BLOCK_LOG2); ++k) {
    if (int(sortDigit(texelFetch(u_keys, texel + ivec2(k, 0), 0).r, u_shift)) == digit) {
      if (seen == local) found = first + uint(k);
      seen += 1u;
    }
  }
#endif
  outValue = uvec4(found);
}
