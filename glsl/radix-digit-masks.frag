#version 300 es
// Radix sort, per digit (src/sort.ts): for one block of 64 consecutive elements and two digits,
// 2·pair and 2·pair + 1, which of its elements have each, as bit masks: bit k of .x is element
// 64·block + k, of .y element 64·block + 32 + k (the first digit); .z and .w the same for the second.
// Counting their bits gives the blocks' counts (radix-block-counts.frag); selecting the r-th set bit
// finds the r-th element of a digit in the block with one fetch (radix-move.frag). Read from the
// block's packed digits (radix-digits.frag: 64 · DIGIT_BITS / 128 texels), not from its 64 elements:
// at 2^22 elements on an H100 reading the elements cost 2.25 ms per digit. Elements past the keys'
// length are in no mask.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "radix-digit-fields.glsl"

uniform usampler2D u_digits;
uniform int u_digitsWidthLog2;
uniform int u_masksWidthLog2;   // this target's: texel pair·u_blocks + block (radix-masks.glsl)
uniform int u_blocks;
out uvec4 outValue;

void main() {
  uint entry = indexOf(ivec2(gl_FragCoord.xy), uint(u_masksWidthLog2));
  uint pair = entry / uint(u_blocks);
  uint block = entry - pair * uint(u_blocks);
  if (pair >= uint(1 << PAIRS_LOG2)) { outValue = uvec4(0u); return; }   // padding
  uint digit = pair * 2u;
  uint first = block << 6;
  uint length = streamLength();
  uvec4 masks = uvec4(0u);
  for (int t = 0; t < DIGIT_BITS / 2; ++t) {
    uvec4 packed = texelFetch(u_digits, texelOf(block * uint(DIGIT_BITS / 2) + uint(t), uint(u_digitsWidthLog2)), 0);
    for (int u = 0; u < 4; ++u) {
      uint offset = uint((4 * t + u) * PER_UINT);   // of the uint's first element in the block
      uint valid = fieldsBefore(first + offset, length);
      uint shift = offset & 31u;
      uint low = squeezeFields(equalFields(packed[u], digit) & valid) << shift;
      uint high = squeezeFields(equalFields(packed[u], digit + 1u) & valid) << shift;
      if (offset < 32u) { masks.x |= low; masks.z |= high; } else { masks.y |= low; masks.w |= high; }
    }
  }
  outValue = masks;
}
