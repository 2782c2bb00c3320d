#version 300 es
// Radix sort's outputs where the pairs carried the values (src/sort.ts SORT_SELECT.carry): the
// last digit's select placed the pairs (sort key, value bits) in the layers of a TEXTURE_2D_ARRAY,
// PAIR_LAYERS layers, two pairs to a texel of each (radix-pairs.glsl); this copies
// one word of each into the keys' layout, one per texel: KEYS the key itself (the sort key turned
// back, sort-key.glsl), otherwise the value. A copy in output order where a gather fetched
// each output's key and value from wherever it had been (H200 egl, 2^24 uint32 keys + values:
// 66.5 -> 64.7 ms).
// Zeros past the length.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "sort-key.glsl"
#include "radix-pairs.glsl"

uniform usampler2DArray u_pairs;
uniform int u_pairsWidthLog2;   // the select's texels'
uniform int u_widthLog2;        // the keys' (this target's)
out uvec4 outValue;

void main() {
  uint j = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  outValue = uvec4(0u);
  if (j >= streamLength()) return;
  uvec2 pair = pairIn(pairTexel(u_pairs, uint(u_pairsWidthLog2), uint(PAIR_LAYERS), j), j);
#ifdef KEYS
  outValue.r = keyOfSortKey(pair.x);
#else
  outValue.r = pair.y;
#endif
}
