// Radix sort (src/sort.ts): each block of 64 elements' bit masks of its digits
// (radix-digit-masks.frag), two digits per RGBA32UI texel: bit k of .x (.z) is element 64·block + k
// having the even (odd) digit, k < 32; .y (.w) the elements 32 .. 63. Pair p of digits lies in layer
// p % MASK_LAYERS (one per attachment of the masks pass; a plain 2D texture with one), at texel
// (p / MASK_LAYERS)·u_blocks + block: the texels of one pair follow each other block after block, so
// a walk along one digit's masks reads neighbouring texels.
#include "bit-count.glsl"

#if MASK_LAYERS > 1
precision highp usampler2DArray;
uniform usampler2DArray u_masks;
#else
uniform usampler2D u_masks;
#endif
uniform int u_masksWidthLog2;
uniform int u_blocks;            // blocks of the stream (texels per pair and layer in u_masks)

// The masks of digits 2·pair and 2·pair + 1 in `block`.
uvec4 pairMasks(uint block, uint pair) {
#if MASK_LAYERS > 1
  return texelFetch(u_masks, ivec3(texelOf((pair / uint(MASK_LAYERS)) * uint(u_blocks) + block, uint(u_masksWidthLog2)), int(pair % uint(MASK_LAYERS))), 0);
#else
  return texelFetch(u_masks, texelOf(pair * uint(u_blocks) + block, uint(u_masksWidthLog2)), 0);
#endif
}

uvec2 digitMask(uint block, int digit) {
  uvec4 masks = pairMasks(block, uint(digit >> 1));
  return (digit & 1) == 0 ? masks.xy : masks.zw;
}

uint bits64(uvec2 mask) { return bitCount32(mask.x) + bitCount32(mask.y); }
