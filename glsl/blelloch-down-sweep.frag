#version 300 es
// Down-sweep of Blelloch's balanced-tree scan: a node's exclusive prefix is its parent's for a
// left child, and the parent's plus the left sibling's subtree sum (from the up-sweep) for a right
// child. At a block's root the prefix is 0 (ROOT: no parent texture is read). On level 0 the result
// is the exclusive scan; INCLUSIVE adds the element itself, MAX_ALLOWABLE_SIZE turns the inclusive
// count of invalid flags into MAS (max-allowable-size.glsl), both fused into this last pass.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "value-arithmetic.glsl"
#include "max-allowable-size.glsl"

uniform usampler2D u_parentPrefix;   // exclusive prefixes of level l + 1 (unused with ROOT)
uniform usampler2D u_subtreeSums;    // up-sweep sums of level l (level 0: the input itself)
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
#ifdef ROOT
  uvec4 prefix = uvec4(0u);
#else
  uvec4 prefix = texelFetch(u_parentPrefix, ivec2(texel.x >> 1, texel.y), 0);
#endif
  if ((texel.x & 1) == 1) prefix = addValues(prefix, texelFetch(u_subtreeSums, texel - ivec2(1, 0), 0));
#if defined(INCLUSIVE) || defined(MAX_ALLOWABLE_SIZE)
  prefix = addValues(prefix, texelFetch(u_subtreeSums, texel, 0));
#endif
#ifdef MAX_ALLOWABLE_SIZE
  outValue = uvec4(packMaxAllowableSize(BLOCK_SIZE, prefix.r, texel));
#else
  outValue = prefix;
#endif
}
