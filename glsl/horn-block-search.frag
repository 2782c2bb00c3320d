#version 300 es
// Horn's compaction (GPU Gems 2 ch. 36; paper Sec. 3.3), per block; input order is kept. Output
// position c of a block is the first local index f whose kept-prefix (number of kept elements in
// 0..f) reaches c + 1. The kept-prefix rises monotonically, so a binary search finds f in log2(b)
// fetches. It is recovered from MAS: keptPrefix[f] = (f + 1) - pSumInvalid[f] = MAS[f] + f + 1 - b.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "compacted-element.glsl"

uniform usampler2D u_maxAllowableSize;
out uvec4 outValue;

const uint KEPT_BIT = 0x80000000u;

uint keptPrefix(ivec2 blockStart, uint f) {
  uint mas = texelFetch(u_maxAllowableSize, blockStart + ivec2(int(f), 0), 0).r & ~KEPT_BIT;
  return mas + f + 1u - uint(BLOCK_SIZE);
}

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  ivec2 blockStart = ivec2(texel.x & ~(BLOCK_SIZE - 1), texel.y);
  uint c = uint(texel.x - blockStart.x);
  if (c >= keptPrefix(blockStart, uint(BLOCK_SIZE) - 1u)) { outValue = uvec4(0u); return; }

  uint low = 0u, high = uint(BLOCK_SIZE) - 1u;
  for (int step = 0; step < BLOCK_LOG2; ++step) {
    uint middle = (low + high) >> 1;
    if (keptPrefix(blockStart, middle) >= c + 1u) high = middle; else low = middle + 1u;
  }
  outValue = compactedElement(blockStart + ivec2(int(low), 0));
}
