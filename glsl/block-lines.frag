#version 300 es
// Fragment of a concatenation line (paper Sec. 3.4 and 5, stage 3), fused with the per-block
// compaction (stage 2): the output texel it covers (gl_FragCoord, exact integers) minus the
// block's first output index is the position `local` inside the compacted block; the block search
// (block-search.glsl) finds which input element goes there, and the fragment writes it. The paper
// writes stage 2 to a texture and textures the lines with it; searching here saves that texture
// and a full-screen pass, since only the output texels that exist are shaded.
// Deriving the source from gl_FragCoord and flat per-line values, not from an interpolated
// texture coordinate, keeps every element exact.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "compacted-element.glsl"
#include "block-search.glsl"

uniform int u_outputWidthLog2;
uniform int u_blocksPerRowLog2;
flat in uvec2 v_block;   // (first output index of the block, block number)
out uvec4 outValue;

void main() {
  uint local = indexOf(ivec2(gl_FragCoord.xy), uint(u_outputWidthLog2)) - v_block.x;
  // Lines are one pixel tall, but GPUs shade 2x2 quads: the helper invocation in the row above
  // or below gets a `local` outside the block. Stop it here, before it walks a jump chain.
  if (local >= uint(BLOCK_SIZE)) { outValue = uvec4(0u); return; }
  uint block = v_block.y;
  ivec2 blockStart = ivec2(
      int((block & ((1u << uint(u_blocksPerRowLog2)) - 1u)) * uint(BLOCK_SIZE)),
      int(block >> uint(u_blocksPerRowLog2)));
  outValue = compactedElement(blockStart + ivec2(int(findKeptElement(blockStart, local)), 0));
}
