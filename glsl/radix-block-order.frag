#version 300 es
// Radix sort, per digit (src/sort.ts): each block's SORT_BLOCK element offsets listed by digit, stably
// (the offsets of digit 0 in order, then digit 1's, ...), 4 bits each: offsets 0..7 of the list in
// .x, 8..15 in .y. The search pass then finds the element of rank `local` of digit d in a block with
// one fetch (slot = the block's count of smaller digits + local) instead of reading the block's 16 keys.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "sort-key.glsl"

uniform usampler2D u_keys;
uniform int u_widthLog2;        // the keys' (blocks lie within a row)
uniform int u_blocksWidthLog2;  // this target's: one texel per block
uniform int u_shift;
out uvec4 outValue;

void main() {
  uint block = indexOf(ivec2(gl_FragCoord.xy), uint(u_blocksWidthLog2));
  uint first = block << uint(SORT_BLOCK_LOG2);
  uint length = streamLength();
  ivec2 texel = texelOf(first, uint(u_widthLog2));
  // Each element's digit (4 = padding past the length: listed nowhere), then the stable listing.
  uint digits[16];
  for (int k = 0; k < 16; ++k) {
    uint digit = sortDigit(texelFetch(u_keys, texel + ivec2(k, 0), 0).r, u_shift);
    digits[k] = first + uint(k) < length ? digit : 4u;
  }
  uvec2 list = uvec2(0u);
  uint slot = 0u;
  for (uint d = 0u; d < 4u; ++d) {
    for (int k = 0; k < 16; ++k) {
      if (digits[k] != d) continue;
      if (slot < 8u) list.x |= uint(k) << (4u * slot); else list.y |= uint(k) << (4u * (slot - 8u));
      slot += 1u;
    }
  }
  outValue = uvec4(list, 0u, 0u);
}
