// Max-allowable-size (Jumping Jack paper, Eq. 1): MAS[i] = b - pSumInvalid[i], where pSumInvalid is
// the inclusive count of invalid (not kept) elements up to i within its block. It is the first
// local index at which a still-unplaced kept element can be; MAS[b-1] is the block's kept count.
// We pack "element i is kept" into bit 31 so the jump loop reads one texel per step
// (MAS <= b <= 2048 never reaches bit 31).
#ifdef MAX_ALLOWABLE_SIZE
uniform usampler2D u_invalidFlags;
#include "kept-bit.glsl"

uint packMaxAllowableSize(uint blockSize, uint invalidPrefix, ivec2 texel) {
  uint kept = texelFetch(u_invalidFlags, texel, 0).r == 0u ? KEPT_BIT : 0u;
  return (blockSize - invalidPrefix) | kept;
}
#endif
