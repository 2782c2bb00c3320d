#version 300 es
// Horn's compaction over the whole stream (the 2005 original, no blocks and no concatenation):
// output c binary-searches the global inclusive scan of kept flags for the first index f with
// keptPrefix[f] >= c + 1; log2(n) fetches per output element. Positions past the kept count
// stay 0 (padding).
// PARTITION (engine.partition): positions past the kept count hold the rejected elements in input
// order instead: output c = count + r searches the rejected prefix f + 1 - keptPrefix[f] (also
// non-decreasing) for its (r + 1)-th element. Padding is never kept, so it counts as rejected, but
// it lies after every element: searches for r below length - count land on elements.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "compacted-element.glsl"

uniform usampler2D u_keptPrefix;     // global inclusive scan of kept flags, same layout as values
uniform int u_searchSize;           // texels in the texture (SEARCH_LOG2 = ceil(log2 of it))
out uvec4 outValue;

uint keptPrefix(uint f) { return texelFetch(u_keptPrefix, texelOf(f, uint(u_widthLog2)), 0).r; }

#ifdef PARTITION
#include "stream-length.glsl"
uint rejectedPrefix(uint f) { return f + 1u - keptPrefix(f); }
#endif

void main() {
  uint c = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  uint kept = keptPrefix(uint(u_searchSize) - 1u);
  uint low = 0u, high = uint(u_searchSize) - 1u;
  if (c < kept) {
    for (int step = 0; step < SEARCH_LOG2; ++step) {
      uint middle = (low + high) >> 1;
      if (keptPrefix(middle) >= c + 1u) high = middle; else low = middle + 1u;
    }
#ifdef PARTITION
  } else if (c < streamLength()) {
    uint r = c - kept;
    for (int step = 0; step < SEARCH_LOG2; ++step) {
      uint middle = (low + high) >> 1;
      if (rejectedPrefix(middle) >= r + 1u) high = middle; else low = middle + 1u;
    }
#endif
  } else {
    outValue = uvec4(0u);
    return;
  }
  outValue = compactedElement(texelOf(low, uint(u_widthLog2)));
}
