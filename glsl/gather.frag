#version 300 es
// Gather: output element j is source[indices[j]] (all components, as raw bits), for j below the
// indices' length; an index at or past the source's length reads as zeros, and texels past the
// indices' length are padding (zeros), as in every stream. Either length may still be on the GPU
// (a compaction's output), so the output can be chained without a readback.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"

uniform usampler2D u_source;
uniform int u_sourceWidthLog2;
uniform usampler2D u_indices;        // one uint per texel, in the output's layout
uniform int u_widthLog2;
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
  if (indexOf(texel, uint(u_widthLog2)) >= indicesLength()) return;
  uint i = texelFetch(u_indices, texel, 0).r;
  if (i < sourceLength()) outValue = texelFetch(u_source, texelOf(i, uint(u_sourceWidthLog2)), 0);
}
