// Jumping Jack (paper Sec. 4, Algorithm 2) within one block; input order is not kept. Output
// position i of a block with v kept elements (i < v) starts at idx = i; while element idx is not
// kept it jumps to idx = MAS[idx], the first place where a kept element not yet claimed can be.
// Every i < v ends on a different kept element (a bijection), so the block's first v texels get
// all of them. Total work per block is at most b - v jumps, but one position may need up to b - 1
// (a lone kept element mid-block), so the static loop bound is the block size.
#include "kept-bit.glsl"

uint jumpingJackSource(usampler2D maxAllowableSize, ivec2 blockStart, uint local) {
  uint idx = local;
  for (int jump = 0; jump < BLOCK_SIZE; ++jump) {
    uint mas = texelFetch(maxAllowableSize, blockStart + ivec2(int(idx), 0), 0).r;
    if ((mas & KEPT_BIT) != 0u) break;
    idx = mas;
  }
  return idx;
}
