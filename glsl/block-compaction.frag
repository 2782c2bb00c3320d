#version 300 es
// Per-block compaction (paper Sec. 3.4, stage 2): the first v texels of every block receive the
// block's v kept elements (their values, or with OUTPUT_INDICES their input positions); texels
// past v are written 0 and never read. Which search finds the element for output position i:
//   JUMPING_JACK   jumping-jack.glsl (any order)
//   HORN           horn-search.glsl (input order)
//   HYBRID         per block: Horn where the block is sparse (fewer than u_hornBelowKept kept
//                  elements, where Jumping Jack's jumps get long), Jumping Jack elsewhere
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "compacted-element.glsl"
#include "jumping-jack.glsl"
#include "horn-search.glsl"

uniform usampler2D u_maxAllowableSize;   // MAS | KEPT_BIT, see max-allowable-size.glsl
uniform int u_hornBelowKept;
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  ivec2 blockStart = ivec2(texel.x & ~(BLOCK_SIZE - 1), texel.y);
  uint keptInBlock = texelFetch(u_maxAllowableSize, blockStart + ivec2(BLOCK_SIZE - 1, 0), 0).r & ~KEPT_BIT;
  uint local = uint(texel.x - blockStart.x);
  if (local >= keptInBlock) { outValue = uvec4(0u); return; }
#if defined(JUMPING_JACK)
  uint source = jumpingJackSource(u_maxAllowableSize, blockStart, local);
#elif defined(HORN)
  uint source = hornSource(u_maxAllowableSize, blockStart, local);
#else
  uint source = keptInBlock < uint(u_hornBelowKept)
      ? hornSource(u_maxAllowableSize, blockStart, local)
      : jumpingJackSource(u_maxAllowableSize, blockStart, local);
#endif
  outValue = compactedElement(blockStart + ivec2(int(source), 0));
}
