#version 300 es
// Scan step of the reduce-then-scan prefix sum (src/scan/reduce-then-scan.ts): entry i's prefix is
// its group's prefix (entry i / GROUP_SIZE of the level above, already scanned, exclusive) plus
// the entries of its own group before it, added in order inside this fragment, plus itself unless
// EXCLUSIVE. NO_PARENT: the group is a whole segment (or the whole, short, top level) and starts
// from 0. MAX_ALLOWABLE_SIZE turns the inclusive count of invalid flags into MAS
// (max-allowable-size.glsl), fused into this last pass as in Blelloch's. With POPCOUNT_INPUT the
// words' kept counts are scanned.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "value-arithmetic.glsl"
#include "scan-input.glsl"
#include "max-allowable-size.glsl"

uniform usampler2D u_below;        // this level's entries
uniform int u_count;               // entries of this level; the texels past it are written 0
uniform int u_widthLog2;           // this level's layout (input and output share it)
#ifndef NO_PARENT
uniform usampler2D u_groupPrefix;  // exclusive prefix of each group (the level above)
uniform int u_prefixWidthLog2;
#endif
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  uint i = indexOf(texel, uint(u_widthLog2));
  if (i >= uint(u_count)) { outValue = uvec4(0u); return; }
  uint group = i / uint(GROUP_SIZE);
#ifdef NO_PARENT
  uvec4 sum = uvec4(0u);
#else
  uvec4 sum = texelFetch(u_groupPrefix, texelOf(group, uint(u_prefixWidthLog2)), 0);
#endif
  // Groups lie inside one row (as in tree-scan-reduce.frag), or cover a whole one-row level. All
  // GROUP_SIZE - 1 fetches are issued unconditionally, clamped to this texel so they stay in the
  // texture, and their latencies overlap; the select keeps the entries before this one, in order.
  ivec2 start = ivec2(texel.x - int(i % uint(GROUP_SIZE)), texel.y);
  for (int k = 0; k < GROUP_SIZE - 1; ++k) {
    uvec4 entry = scanInput(u_below, ivec2(min(start.x + k, texel.x), texel.y));
    sum = start.x + k < texel.x ? addValues(sum, entry) : sum;
  }
#ifndef EXCLUSIVE
  sum = addValues(sum, scanInput(u_below, texel));
#endif
#if defined(MAX_ALLOWABLE_SIZE)
  outValue = uvec4(packMaxAllowableSize(BLOCK_SIZE, sum.r, texel));
#else
  outValue = sum;
#endif
}
