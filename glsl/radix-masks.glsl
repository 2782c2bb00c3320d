// Radix sort (src/sort.ts): each block of 64 elements' bit masks of its digits
// (radix-digit-masks.frag), two digits per RGBA32UI texel: bit k of .x (.z) is element 64·block + k
// having the even (odd) digit, k < 32; .y (.w) the elements 32 .. 63. The texels of one pair of
// digits follow each other block after block (texel pair·u_blocks + block): a walk along one digit's
// masks reads neighbouring texels.
uniform usampler2D u_masks;
uniform int u_masksWidthLog2;

uvec2 digitMask(uint block, int digit) {
  uvec4 masks = texelFetch(u_masks, texelOf(uint(digit >> 1) * uint(u_blocks) + block, uint(u_masksWidthLog2)), 0);
  return (digit & 1) == 0 ? masks.xy : masks.zw;
}

// The element of the block whose digit is place.digit, of rank place.target among those of the
// blocks before and this one (radix-rank.glsl): its set bit of the right rank in the block's mask.
uint elementOf(Place place, uint block) {
  uint local = place.target - (block == 0u ? place.offset : runningCount(place.digit, block - 1u));
  uvec2 mask = digitMask(block, place.digit);
  uint lowCount = bitCount32(mask.x);
  return (block << 6) + (local < lowCount ? selectBit(mask.x, local) : 32u + selectBit(mask.y, local - lowCount));
}
