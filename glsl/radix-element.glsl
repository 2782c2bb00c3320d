// Radix sort (src/sort.ts): element i of the current order as the pair (sort key, input position).
// The first digit reads the user's keys (FIRST_DIGIT) and makes their sort keys here; later digits
// read the pairs the digit before moved (an RG32UI texture in the keys' layout). Digits are
// DIGIT_BITS wide: BUCKETS = 2^DIGIT_BITS of them.
#include "sort-key.glsl"

uniform usampler2D u_elements;
uniform int u_widthLog2;   // the keys' (and the pairs')
uniform int u_shift;       // the digit's lowest bit

uvec2 elementAt(uint i) {
  uvec4 texel = texelFetch(u_elements, texelOf(i, uint(u_widthLog2)), 0);
#ifdef FIRST_DIGIT
  return uvec2(sortKey(texel.r), i);
#else
  return texel.rg;
#endif
}

uint digitOf(uint key) { return (key >> uint(u_shift)) & uint(BUCKETS - 1); }
