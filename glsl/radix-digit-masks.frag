#version 300 es
// Radix sort, per digit (src/sort.ts): for one block of 64 consecutive elements and two digits,
// 2·pair and 2·pair + 1, which of its elements have each, as bit masks: bit k of .x is element
// 64·block + k, of .y element 64·block + 32 + k (the first digit); .z and .w the same for the second.
// Counting their bits gives the blocks' counts (radix-block-counts.frag); selecting the r-th set bit
// finds the r-th element of a digit in the block with one fetch (radix-move.frag). Elements past the
// keys' length are in no mask.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "radix-element.glsl"

uniform int u_masksWidthLog2;   // this target's: texel block·PAIRS + pair
out uvec4 outValue;

void main() {
  uint entry = indexOf(ivec2(gl_FragCoord.xy), uint(u_masksWidthLog2));
  uint first = (entry >> PAIRS_LOG2) << 6;   // the block's first element
  uint digit = (entry & uint((1 << PAIRS_LOG2) - 1)) * 2u;
  uint length = streamLength();
  uvec4 masks = uvec4(0u);
  // A constant trip count and unconditional fetches (issued together); padding dropped by a select.
  for (int k = 0; k < 32; ++k) {
    uint low = first + uint(k);
    uint high = low + 32u;
    uint lowDigit = low < length ? digitOf(elementAt(low).x) : uint(BUCKETS);
    uint highDigit = high < length ? digitOf(elementAt(high).x) : uint(BUCKETS);
    uint bit = 1u << uint(k);
    masks |= uvec4(lowDigit == digit ? bit : 0u, highDigit == digit ? bit : 0u,
                   lowDigit == digit + 1u ? bit : 0u, highDigit == digit + 1u ? bit : 0u);
  }
  outValue = masks;
}
