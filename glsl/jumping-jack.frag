#version 300 es
// Jumping Jack (paper Sec. 4, Algorithm 2), per block; input order is not kept. Output position i
// of a block with v kept elements (i < v) starts at idx = i; while element idx is not kept it jumps
// to idx = MAS[idx], the first place where a kept element not yet claimed can be. Every i < v ends
// on a different kept element (a bijection), so the block's first v texels receive all of them.
// Total work per block is at most b - v jumps, but one position may need up to b - 1 (a lone kept
// element mid-block), so the static loop bound is the block size.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "compacted-element.glsl"

uniform usampler2D u_maxAllowableSize;   // MAS | KEPT_BIT, see max-allowable-size.glsl
out uvec4 outValue;

const uint KEPT_BIT = 0x80000000u;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  ivec2 blockStart = ivec2(texel.x & ~(BLOCK_SIZE - 1), texel.y);
  uint keptInBlock = texelFetch(u_maxAllowableSize, blockStart + ivec2(BLOCK_SIZE - 1, 0), 0).r & ~KEPT_BIT;
  uint local = uint(texel.x - blockStart.x);
  if (local >= keptInBlock) { outValue = uvec4(0u); return; }

  uint idx = local;
  for (int jump = 0; jump < BLOCK_SIZE; ++jump) {
    uint mas = texelFetch(u_maxAllowableSize, blockStart + ivec2(int(idx), 0), 0).r;
    if ((mas & KEPT_BIT) != 0u) break;
    idx = mas;
  }
  outValue = compactedElement(blockStart + ivec2(int(idx), 0));
}
