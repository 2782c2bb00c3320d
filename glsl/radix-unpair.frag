#version 300 es
// Radix sort's outputs where the pairs carried the values (src/sort.ts SORT_SELECT.carry): the
// last digit's select placed the pairs (sort key, value bits) in the layers of a TEXTURE_2D_ARRAY,
// PAIR_LAYERS layers, two pairs to a texel of each (radix-element.glsl, ELEMENT_LAYERS); this copies
// one word of each into the keys' layout, one per texel: KEYS the key itself (the sort key turned
// back, sort-key.glsl), otherwise the value. A copy in output order where a gather fetched
// each output's key and value from wherever it had been (H200 egl, 2^24: the two gathers ~4 ms).
// Zeros past the length.
precision highp float;
precision highp int;
precision highp usampler2D;
precision highp usampler2DArray;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "sort-key.glsl"

uniform usampler2DArray u_pairs;
uniform int u_pairsWidthLog2;   // the select's texels'
uniform int u_widthLog2;        // the keys' (this target's)
out uvec4 outValue;

void main() {
  uint j = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  outValue = uvec4(0u);
  if (j >= streamLength()) return;
  uint k = j % uint(2 * PAIR_LAYERS);
  uvec4 texel = texelFetch(u_pairs, ivec3(texelOf(j / uint(2 * PAIR_LAYERS), uint(u_pairsWidthLog2)), int(k >> 1)), 0);
  uvec2 pair = (k & 1u) == 0u ? texel.xy : texel.zw;
#ifdef KEYS
  outValue.r = keyOfSortKey(pair.x);
#else
  outValue.r = pair.y;
#endif
}
