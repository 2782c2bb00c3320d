#version 300 es
// Radix sort, per digit: one point per element, drawn at the element's new position (a scatter,
// which fragment passes cannot do): all elements of smaller digits first (the scan's totals), then
// its rank among the elements of its own digit (the inclusive scan at its position, minus 1), so
// equal digits keep their order (stable). u_source is the stream being moved: the keys, or the
// values that travel with them. Elements past the length are moved outside clip space.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "sort-key.glsl"

uniform usampler2D u_keys;
uniform usampler2D u_source;
uniform usampler2D u_ranks;     // inclusive scan of radix-digit-flags.frag's one-hot texels
uniform int u_widthLog2;        // keys, ranks, source and the output share one layout
uniform int u_heightTexels;
uniform int u_lastTexel;        // capacity - 1: the scan's totals per digit
uniform int u_shift;
flat out uvec4 v_value;

void main() {
  uint i = uint(gl_VertexID);
  gl_PointSize = 1.0;
  if (i >= streamLength()) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
  ivec2 texel = texelOf(i, uint(u_widthLog2));
  uint digit = sortDigit(texelFetch(u_keys, texel, 0).r, u_shift);
  uvec4 totals = texelFetch(u_ranks, texelOf(uint(u_lastTexel), uint(u_widthLog2)), 0);
  uvec4 rank = texelFetch(u_ranks, texel, 0);
  uint position = rank[int(digit)] - 1u;
  for (int d = 0; d < int(digit); ++d) position += totals[d];
  ivec2 to = texelOf(position, uint(u_widthLog2));
  vec2 size = vec2(float(1 << u_widthLog2), float(u_heightTexels));
  gl_Position = vec4((vec2(to) + 0.5) / size * 2.0 - 1.0, 0.0, 1.0);
  v_value = texelFetch(u_source, texel, 0);
}
