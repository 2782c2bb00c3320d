// Per-block compaction (paper Sec. 3.4, stage 2), asked per output element: which local position
// of the block holds the block's `local`-th kept element? A block that keeps everything needs no
// search. Otherwise, by variant (defines):
//   JUMPING_JACK   jumping-jack.glsl (any order)
//   HORN           horn-search.glsl (input order)
//   otherwise      hybrid, per block: Jumping Jack where the block keeps between u_jumpingJackFrom
//                  and u_jumpingJackTo elements, Horn outside that range (measured on an H200:
//                  Jumping Jack's jumps cost more than Horn's log2(b) fetches in sparse blocks, and,
//                  drawn as lines, also in nearly full ones; README "Performance")
#include "kept-bit.glsl"
#include "jumping-jack.glsl"
#include "horn-search.glsl"

uniform usampler2D u_maxAllowableSize;   // MAS | KEPT_BIT, see max-allowable-size.glsl
uniform int u_jumpingJackFrom;
uniform int u_jumpingJackTo;

uint findKeptElement(ivec2 blockStart, uint local) {
  uint keptInBlock = texelFetch(u_maxAllowableSize, blockStart + ivec2(BLOCK_SIZE - 1, 0), 0).r & MAS_MASK;
  if (keptInBlock == uint(BLOCK_SIZE)) return local;
#if defined(JUMPING_JACK)
  return jumpingJackSource(u_maxAllowableSize, blockStart, local);
#elif defined(HORN)
  return hornSource(u_maxAllowableSize, blockStart, local);
#else
  bool jump = keptInBlock >= uint(u_jumpingJackFrom) && keptInBlock <= uint(u_jumpingJackTo);
  return jump ? jumpingJackSource(u_maxAllowableSize, blockStart, local) : hornSource(u_maxAllowableSize, blockStart, local);
#endif
}
