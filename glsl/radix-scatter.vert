#version 300 es
// Radix sort, per digit: one point per element, drawn at the element's new position (a scatter,
// which fragment passes cannot do). The position: all elements of smaller digits (the scan's totals,
// at the last block), then those of the element's digit in earlier blocks (its block's inclusive
// scan minus its own block's count), then those of its digit before it in its own block (counted
// here over the block's SORT_BLOCK keys), so equal digits keep their order (stable). u_source is the
// stream being moved: the keys, or the values that travel with them. Elements past the length are
// moved outside clip space.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "sort-key.glsl"

uniform usampler2D u_keys;
uniform usampler2D u_source;
uniform usampler2D u_blockRanks;  // inclusive scan of radix-block-histogram.frag's counts
uniform int u_widthLog2;          // keys, source and the output share one layout
uniform int u_blocksWidthLog2;    // the block ranks' layout
uniform int u_heightTexels;
uniform int u_lastBlock;          // the scan's totals per digit are at this block
uniform int u_shift;
flat out uvec4 v_value;

void main() {
  uint i = uint(gl_VertexID);
  gl_PointSize = 1.0;
  uint length = streamLength();
  if (i >= length) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
  uint blocksLog2 = uint(u_blocksWidthLog2);
  uint block = i >> uint(SORT_BLOCK_LOG2);
  uint first = block << uint(SORT_BLOCK_LOG2);
  ivec2 firstTexel = texelOf(first, uint(u_widthLog2));
  uint digit = sortDigit(texelFetch(u_keys, texelOf(i, uint(u_widthLog2)), 0).r, u_shift);
  uint before = 0u, inBlock = 0u;
  for (int k = 0; k < (1 << SORT_BLOCK_LOG2); ++k) {
    uint j = first + uint(k);
    if (j >= length) break;
    bool same = sortDigit(texelFetch(u_keys, firstTexel + ivec2(k, 0), 0).r, u_shift) == digit;
    inBlock += same ? 1u : 0u;
    before += same && j < i ? 1u : 0u;
  }
  uvec4 totals = texelFetch(u_blockRanks, texelOf(uint(u_lastBlock), blocksLog2), 0);
  uint position = texelFetch(u_blockRanks, texelOf(block, blocksLog2), 0)[int(digit)] - inBlock + before;
  for (int d = 0; d < int(digit); ++d) position += totals[d];
  ivec2 to = texelOf(position, uint(u_widthLog2));
  vec2 size = vec2(float(1 << u_widthLog2), float(u_heightTexels));
  gl_Position = vec4((vec2(to) + 0.5) / size * 2.0 - 1.0, 0.0, 1.0);
  v_value = texelFetch(u_source, texelOf(i, uint(u_widthLog2)), 0);
}
