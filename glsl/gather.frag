#version 300 es
// Gather: output element j is source[indices[j]] (all components, as raw bits), for j below the
// indices' length; an index at or past the source's length reads as zeros, and texels past the
// indices' length are padding (zeros), as in every stream. Either length may still be on the GPU
// (a compaction's output), so the output can be chained without a readback.
// With INDEX_LANES (the radix sort's last digit, src/sort.ts): the indices are read where the last
// select wrote them, INDEX_LANES to a texel of a TEXTURE_2D_ARRAY (index-lanes.glsl), not from a
// texture in the output's layout: the sort gathers from there without first copying them into its
// keys' layout.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"

uniform usampler2D u_source;
uniform int u_sourceWidthLog2;
#ifdef INDEX_LANES
#include "index-lanes.glsl"
uniform usampler2DArray u_indices;
uniform int u_indicesWidthLog2;      // its texels'
#else
uniform usampler2D u_indices;        // one uint per texel, in the output's layout
#endif
uniform int u_widthLog2;             // the output's
#ifdef SOURCE_LENGTH_FROM_TEXTURE
uniform usampler2D u_sourceLengthTexture;
uint sourceLength() { return texelFetch(u_sourceLengthTexture, ivec2(0), 0).r; }
#else
uniform int u_sourceLength;
uint sourceLength() { return uint(u_sourceLength); }
#endif
#ifdef INDICES_LENGTH_FROM_TEXTURE
uniform usampler2D u_indicesLengthTexture;
uint indicesLength() { return texelFetch(u_indicesLengthTexture, ivec2(0), 0).r; }
#else
uniform int u_indicesLength;
uint indicesLength() { return uint(u_indicesLength); }
#endif
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  outValue = uvec4(0u);
  uint j = indexOf(texel, uint(u_widthLog2));
  if (j >= indicesLength()) return;
#ifdef INDEX_LANES
  uint i = laneAt(u_indices, uint(u_indicesWidthLog2), uint(INDEX_LANES), j);
#else
  uint i = texelFetch(u_indices, texel, 0).r;
#endif
  if (i < sourceLength()) outValue = texelFetch(u_source, texelOf(i, uint(u_sourceWidthLog2)), 0);
}
