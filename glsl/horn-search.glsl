// Horn's compaction (GPU Gems 2 ch. 36; paper Sec. 3.3) within one block; input order is kept.
// Output position c is the first local index f whose kept-prefix (kept elements in 0..f) reaches
// c + 1. The kept-prefix rises monotonically, so a binary search finds f in log2(b) fetches. It is
// recovered from MAS: keptPrefix[f] = (f + 1) - pSumInvalid[f] = MAS[f] + f + 1 - b.
#include "kept-bit.glsl"

uint keptPrefixInBlock(usampler2D maxAllowableSize, ivec2 blockStart, uint f) {
  uint mas = texelFetch(maxAllowableSize, blockStart + ivec2(int(f), 0), 0).r & MAS_MASK;
  return mas + f + 1u - uint(BLOCK_SIZE);
}

uint hornSource(usampler2D maxAllowableSize, ivec2 blockStart, uint c) {
  uint low = 0u, high = uint(BLOCK_SIZE) - 1u;
  for (int step = 0; step < BLOCK_LOG2; ++step) {
    uint middle = (low + high) >> 1;
    if (keptPrefixInBlock(maxAllowableSize, blockStart, middle) >= c + 1u) high = middle; else low = middle + 1u;
  }
  return low;
}
