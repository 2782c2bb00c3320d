#version 300 es
// Fragment of a concatenation line: the output texel it covers (gl_FragCoord, exact integers)
// minus the block's first output index gives the position inside the compacted block, which is
// fetched from the per-block compaction result. Deriving the source from gl_FragCoord and flat
// per-line values, not from an interpolated texture coordinate, keeps every element exact.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"

uniform usampler2D u_compactedBlocks;
uniform int u_outputWidthLog2;
uniform int u_blockLog2;
uniform int u_blocksPerRowLog2;
flat in uvec2 v_block;
out uvec4 outValue;

void main() {
  uint local = indexOf(ivec2(gl_FragCoord.xy), uint(u_outputWidthLog2)) - v_block.x;
  uint block = v_block.y;
  ivec2 source = ivec2(
      int(((block & ((1u << uint(u_blocksPerRowLog2)) - 1u)) << uint(u_blockLog2)) + local),
      int(block >> uint(u_blocksPerRowLog2)));
  outValue = texelFetch(u_compactedBlocks, source, 0);
}
