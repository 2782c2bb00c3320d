#version 300 es
// Radix sort's outputs where the pairs carried the values (src/sort.ts SORT_SELECT.carry): the
// last digit's select placed the pairs (sort key, value bits) in the layers of a TEXTURE_2D_ARRAY,
// PAIR_LAYERS layers, two pairs to a texel of each (radix-pairs.glsl); this copies them into the
// keys' layout, one per texel: the key itself (the sort key turned back, sort-key.glsl) and, with
// VALUES, the value into a second target of the same layout (src/gpu.ts passInto: one fragment
// per output for both, where a copy each ran every output twice; H100 egl, 2^24 16-bit keys +
// values 34.7 -> 34.4-34.5 ms, 32-bit keys within the runs' spread, 60.4-60.7 either way). A copy
// in output order where a gather fetched each output's key and value from wherever it had been
// (H200, 2^24: 66.5 -> 64.7 ms).
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
uniform int u_widthLog2;        // the keys' (both targets')
layout(location = 0) out uvec4 outKey;
#ifdef VALUES
layout(location = 1) out uvec4 outValue;
#endif

void main() {
  uint j = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  outKey = uvec4(0u);
#ifdef VALUES
  outValue = uvec4(0u);
#endif
  if (j >= streamLength()) return;
  uvec2 pair = pairIn(pairTexel(u_pairs, uint(u_pairsWidthLog2), uint(PAIR_LAYERS), j), j);
  outKey.r = keyOfSortKey(pair.x);
#ifdef VALUES
  outValue.r = pair.y;
#endif
}
