// Radix sort (src/sort.ts): each block of 64 elements' bit masks of its digits
// (radix-digit-masks.frag), two digits per RGBA32UI texel: bit k of .x (.z) is element 64·block + k
// having the even (odd) digit, k < 32; .y (.w) the elements 32 .. 63. The texels of one pair of
// digits follow each other block after block (texel pair·u_blocks + block): a walk along one digit's
// masks reads neighbouring texels.
#include "bit-count.glsl"

uniform usampler2D u_masks;
uniform int u_masksWidthLog2;
uniform int u_blocks;            // blocks per pair of digits in u_masks

uvec2 digitMask(uint block, int digit) {
  uvec4 masks = texelFetch(u_masks, texelOf(uint(digit >> 1) * uint(u_blocks) + block, uint(u_masksWidthLog2)), 0);
  return (digit & 1) == 0 ? masks.xy : masks.zw;
}

uint bits64(uvec2 mask) { return bitCount32(mask.x) + bitCount32(mask.y); }
