#version 300 es
// Radix sort, per digit (src/sort.ts): how many elements of one group of 2^GROUP_LOG2 blocks have
// each of four digits (4·quad .. 4·quad + 3), counted from the blocks' masks (radix-digit-masks.frag).
// The target holds the quads one after another (quad q's group g at q·u_groups + g), so one
// 4-component scan of it gives every group its running count of each digit, plus the totals of the
// quads before (which radix-rank.glsl takes off again). Counting groups rather than blocks makes the
// scan 2^GROUP_LOG2 times smaller; the searches count the few masks within a group themselves.
// Groups past the keys' length count nothing.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "radix-masks.glsl"

uniform int u_groups;            // groups per quad
uniform int u_countsWidthLog2;   // this target's
out uvec4 outValue;

void main() {
  uint entry = indexOf(ivec2(gl_FragCoord.xy), uint(u_countsWidthLog2));
  uint quad = entry / uint(u_groups);
  uint group = entry - quad * uint(u_groups);
  uint start = group << GROUP_LOG2;
  if (quad >= uint(QUADS) || (start << 6) >= streamLength()) { outValue = uvec4(0u); return; }   // padding
  uvec4 counts = uvec4(0u);
  for (int k = 0; k < (1 << GROUP_LOG2); ++k) {
    uint block = start + uint(k);
    if (block >= uint(u_blocks)) break;
    // The quad's four digits are the masks' pairs 2·quad and 2·quad + 1.
    uvec4 a = pairMasks(block, 2u * quad);
    uvec4 b = pairMasks(block, 2u * quad + 1u);
    counts += uvec4(bits64(a.xy), bits64(a.zw), bits64(b.xy), bits64(b.zw));
  }
  outValue = counts;
}
