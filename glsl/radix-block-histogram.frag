#version 300 es
// Radix sort, per digit: how many of the SORT_BLOCK consecutive elements of one block have each
// 2-bit digit (an RGBA texel of counts per block; padding past the keys' length counts nowhere).
// A 4-component scan of these per-block counts then gives every block its start within each digit's
// bucket, at 1/SORT_BLOCK of the cost of scanning one flag per element.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "sort-key.glsl"

uniform usampler2D u_keys;
uniform int u_widthLog2;        // the keys' (blocks lie within a row: the width is a multiple of SORT_BLOCK)
uniform int u_blocksWidthLog2;  // this target's: one entry per block, rows of up to 2048 (blocks past the keys count 0)
uniform int u_shift;
out uvec4 outValue;

void main() {
  uint block = indexOf(ivec2(gl_FragCoord.xy), uint(u_blocksWidthLog2));
  uint first = block << uint(SORT_BLOCK_LOG2);
  uint length = streamLength();
  ivec2 texel = texelOf(first, uint(u_widthLog2));
  uvec4 counts = uvec4(0u);
  // A constant trip count and unconditional fetches (issued together), padding dropped by a select:
  // an early exit at the length had kept the fetches one after another.
  for (int k = 0; k < (1 << SORT_BLOCK_LOG2); ++k) {
    uint digit = sortDigit(texelFetch(u_keys, texel + ivec2(k, 0), 0).r, u_shift);
    counts += first + uint(k) < length ? uvec4(equal(uvec4(digit), uvec4(0u, 1u, 2u, 3u))) : uvec4(0u);
  }
  outValue = counts;
}
