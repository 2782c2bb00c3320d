// Per-block compaction (paper Sec. 3.4, stage 2), asked per output element: which local position
// of the block holds the block's `local`-th kept element? Variants (defines):
//   JUMPING_JACK   jumping-jack.glsl (any order)
//   HORN           horn-search.glsl (input order)
//   otherwise      hybrid, per block: Horn where the block keeps fewer than u_hornBelowKept
//                  elements (there Jumping Jack's jumps get long), Jumping Jack elsewhere
#include "jumping-jack.glsl"
#include "horn-search.glsl"

uniform usampler2D u_maxAllowableSize;   // MAS | KEPT_BIT, see max-allowable-size.glsl
uniform int u_hornBelowKept;

uint findKeptElement(ivec2 blockStart, uint local) {
#if defined(JUMPING_JACK)
  return jumpingJackSource(u_maxAllowableSize, blockStart, local);
#elif defined(HORN)
  return hornSource(u_maxAllowableSize, blockStart, local);
#else
  uint keptInBlock = texelFetch(u_maxAllowableSize, blockStart + ivec2(BLOCK_SIZE - 1, 0), 0).r & ~KEPT_BIT;
  return keptInBlock < uint(u_hornBelowKept)
      ? hornSource(u_maxAllowableSize, blockStart, local)
      : jumpingJackSource(u_maxAllowableSize, blockStart, local);
#endif
}
