#version 300 es
// Discriminator packed FLAGS_PER_TEXEL (8 or 32) to a texel (src/compact/bitmask.ts): texel t's
// bit k says whether element FLAGS_PER_TEXEL * t + k is kept. For large streams 8, and
// bitmask-pack-words.frag joins four texels into a 32-bit word: on the H200 a fragment reading 32
// consecutive texels ran 5x slower than four fragments reading 8 each, when the flags lay in rows as
// wide as the texture (fragments side by side then read rows of the stream far apart). Row-aligned
// (layout.ts#groupsLayout), whole words here cost the same at 2^24 and more at 2^22 (3.72 and 1.11 ms
// against 3.72 and 1.02 per compaction), so large streams keep the packing. Small streams write
// whole words here, a pass fewer.
// Elements past the stream's length are padding and never kept. The keep test is generated from
// the user's options into the marked line below (keep-function.ts).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "keep-value.glsl"

uniform usampler2D u_values;
uniform int u_widthLog2;        // the stream's
uniform int u_flagsWidthLog2;   // this target's
out uvec4 outValue;

//@KEEP_FUNCTION

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_flagsWidthLog2)) * uint(FLAGS_PER_TEXEL);
  uint length = streamLength();
  // Streams are at least 2048 wide (a power of two), so a texel's elements share one row.
  ivec2 texel = texelOf(first, uint(u_widthLog2));
  uint flags = 0u;
  for (int k = 0; k < FLAGS_PER_TEXEL; ++k) {
    uint index = first + uint(k);
    bool kept = keepElement(texelFetch(u_values, texel + ivec2(k, 0), 0), index);
    flags |= kept && index < length ? 1u << uint(k) : 0u;
  }
  outValue = uvec4(flags);
}
