#version 300 es
// One pass of recursive doubling (Hillis & Steele; Jumping Jack paper, Algorithm 1), segmented
// per block: every element adds the element u_offset to its left, unless that one lies in an
// earlier block. log2(b) passes with offsets 1, 2, 4, ... leave each block's inclusive prefix sum.
// Blocks are row-aligned (b divides the row width), so "to the left" never leaves the row.
//
// RADIX generalises the step: each element adds the RADIX - 1 elements at u_offset, 2·u_offset, ...
// to its left, and offsets grow by RADIX per pass, so log_RADIX(b) passes suffice. RADIX 2 is the
// paper's algorithm. Larger radices trade passes (each one shades every texel) for fetches from
// the same row (cheap, cached): on GPUs where per-fragment cost dominates, fewer passes win.
//
// Variants (defines):
//  EXCLUSIVE             the last pass writes element i-1's sum at i (0 at a block start), which
//                        turns the inclusive scan into an exclusive one without an extra pass.
//  MAX_ALLOWABLE_SIZE    the last pass of a scan of "invalid" flags writes MAS = b - pSum (paper
//                        Eq. 1) with bit 31 set when the element itself is kept; see max-allowable-size.glsl.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "value-arithmetic.glsl"
#include "max-allowable-size.glsl"

uniform usampler2D u_input;
uniform int u_offset;
uniform int u_blockLog2;
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  uint local = uint(texel.x) & ((1u << uint(u_blockLog2)) - 1u);
#ifdef EXCLUSIVE
  if (local == 0u) { outValue = uvec4(0u); return; }
  texel.x -= 1;
  local -= 1u;
#endif
  uvec4 sum = texelFetch(u_input, texel, 0);
  for (int k = 1; k < RADIX; ++k) {
    int back = k * u_offset;
    if (local < uint(back)) break;   // that element is in an earlier block
    sum = addValues(sum, texelFetch(u_input, texel - ivec2(back, 0), 0));
  }
#ifdef MAX_ALLOWABLE_SIZE
  outValue = uvec4(packMaxAllowableSize(1u << uint(u_blockLog2), sum.r, ivec2(gl_FragCoord.xy)));
#else
  outValue = sum;
#endif
}
