// Radix sort (src/sort.ts): element i of the current order as the pair (sort key, input position).
// The first digit reads the user's keys (FIRST_DIGIT) and makes their sort keys here; later digits
// read the pairs the digit before placed: an RG32UI texture in the keys' layout (radix-move.frag),
// or, with ELEMENT_LAYERS, the select pass's TEXTURE_2D_ARRAY of ELEMENT_LAYERS layers
// (radix-select.frag, WRITE_PAIRS; the layout: radix-pairs.glsl). Digits are DIGIT_BITS wide:
// BUCKETS = 2^DIGIT_BITS of them.
// With CARRY_VALUES (the first digit's select, where the sort's keys can be recovered from their
// sort keys: src/sort.ts SORT_SELECT.carry) a pair's second word is the bits of the element's value
// (u_values, one component, in the keys' layout) instead of its input position, so the pairs the
// last digit places are the sorted keys and values themselves: no gathers.
#include "sort-key.glsl"

#ifdef ELEMENT_LAYERS
#include "radix-pairs.glsl"
uniform usampler2DArray u_elements;
#else
uniform usampler2D u_elements;
#endif
uniform int u_widthLog2;   // the texture's: the keys' (and the moved pairs'), or the selected pairs'
#ifdef CARRY_VALUES
uniform usampler2D u_values;   // the values', in the keys' layout (FIRST_DIGIT only)
#endif
uniform int u_shift;       // the digit's lowest bit

#ifdef ELEMENT_LAYERS
// The texel holding elements i and i ^ 1 (i even: .xy is i, .zw i + 1).
uvec4 pairsAt(uint i) { return pairTexel(u_elements, uint(u_widthLog2), uint(ELEMENT_LAYERS), i); }
#endif

uvec2 elementAt(uint i) {
#ifdef ELEMENT_LAYERS
  return pairIn(pairsAt(i), i);
#else
  uvec4 texel = texelFetch(u_elements, texelOf(i, uint(u_widthLog2)), 0);
#if defined(FIRST_DIGIT) && defined(CARRY_VALUES)
  return uvec2(sortKey(texel.r), texelFetch(u_values, texelOf(i, uint(u_widthLog2)), 0).r);
#elif defined(FIRST_DIGIT)
  return uvec2(sortKey(texel.r), i);
#else
  return texel.rg;
#endif
#endif
}

uint digitOf(uint key) { return (key >> uint(u_shift)) & uint(BUCKETS - 1); }
