#version 300 es
// Radix sort, per digit (src/sort.ts): how many elements of one block have each of four digits
// (4·quad .. 4·quad + 3), counted from the block's masks (radix-digit-masks.frag). The target holds
// the quads one after another (quad q's block b at q·u_blocks + b), so one 4-component scan of it
// gives every block its running count of each digit, plus the totals of the quads before (which
// radix-rank.glsl takes off again). Blocks past the keys' length count nothing.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "bit-count.glsl"

uniform usampler2D u_masks;
uniform int u_masksWidthLog2;
uniform int u_blocks;            // blocks per quad
uniform int u_countsWidthLog2;   // this target's
out uvec4 outValue;

uint bits64(uvec2 mask) { return bitCount32(mask.x) + bitCount32(mask.y); }

void main() {
  uint entry = indexOf(ivec2(gl_FragCoord.xy), uint(u_countsWidthLog2));
  uint quad = entry / uint(u_blocks);
  uint block = entry - quad * uint(u_blocks);
  if (quad >= uint(QUADS) || (block << 6) >= streamLength()) { outValue = uvec4(0u); return; }   // padding
  // The quad's four digits are the masks' pairs 2·quad and 2·quad + 1.
  uint pairs = 2u * quad * uint(u_blocks) + block;   // texel pair·u_blocks + block (radix-masks.glsl)
  uvec4 a = texelFetch(u_masks, texelOf(pairs, uint(u_masksWidthLog2)), 0);
  uvec4 b = texelFetch(u_masks, texelOf(pairs + uint(u_blocks), uint(u_masksWidthLog2)), 0);
  outValue = uvec4(bits64(a.xy), bits64(a.zw), bits64(b.xy), bits64(b.zw));
}
