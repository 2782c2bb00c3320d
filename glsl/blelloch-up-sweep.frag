#version 300 es
// Up-sweep of Blelloch's balanced-tree scan (Jumping Jack paper, Fig. 3), work-efficient form:
// tree level l is its own texture, half as wide as level l-1, so this pass shades only the
// n / 2^l nodes of level l (O(n) fragments over all levels, not O(n log n)). Each node is the sum
// of its two children. Blocks are row-aligned and rows are powers of two, so the children of
// texel (x, y) are (2x, y) and (2x + 1, y) and a block's subtree never mixes with its neighbour's.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "value-arithmetic.glsl"

uniform usampler2D u_children;
out uvec4 outValue;

void main() {
  ivec2 left = ivec2(int(gl_FragCoord.x) * 2, int(gl_FragCoord.y));
  outValue = addValues(texelFetch(u_children, left, 0), texelFetch(u_children, left + ivec2(1, 0), 0));
}
