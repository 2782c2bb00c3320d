#version 300 es
// One level of engine.reduce(): output texel t combines the TILE x TILE tile of the level below
// whose corner is TILE·t, left to right, row by row (so float sums have one fixed order). The first
// level reads the stream: elements past its length count as the operation's identity for sums
// (-0.0 for floats, which leaves every float sum unchanged, 0 for integers) and as a copy of
// element 0 for min and max (both ignore duplicates, and no identity exists for NaN-aware float
// order). Texels past a level's size never enter a tile. LAST: the result goes to texel (0, 0) of a
// stream-shaped target, whose other texels are padding (0).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "value-arithmetic.glsl"
#include "element-order.glsl"
#ifdef FIRST_LEVEL
#include "stream-length.glsl"
uniform int u_widthLog2;
#endif

uniform usampler2D u_input;
uniform ivec2 u_inputSize;
out uvec4 outValue;

#if defined(OP_MIN) || defined(OP_MAX)
uvec4 combine(uvec4 a, uvec4 b) {
  uvec4 ka = uvec4(orderKey(a.x), orderKey(a.y), orderKey(a.z), orderKey(a.w));
  uvec4 kb = uvec4(orderKey(b.x), orderKey(b.y), orderKey(b.z), orderKey(b.w));
#ifdef OP_MIN
  bvec4 takeB = lessThan(kb, ka);
#else
  bvec4 takeB = greaterThan(kb, ka);
#endif
  return uvec4(takeB.x ? b.x : a.x, takeB.y ? b.y : a.y, takeB.z ? b.z : a.z, takeB.w ? b.w : a.w);
}
#else
uvec4 combine(uvec4 a, uvec4 b) { return addValues(a, b); }
#endif

uvec4 fetch(ivec2 texel) {
#ifdef FIRST_LEVEL
  if (indexOf(texel, uint(u_widthLog2)) >= streamLength()) {
#if defined(OP_MIN) || defined(OP_MAX)
    return texelFetch(u_input, ivec2(0), 0);
#elif defined(FLOAT_VALUES)
    return uvec4(0x80000000u);
#else
    return uvec4(0u);
#endif
  }
#endif
  return texelFetch(u_input, texel, 0);
}

void main() {
  ivec2 tile = ivec2(gl_FragCoord.xy);
#ifdef LAST
  if (tile != ivec2(0)) { outValue = uvec4(0u); return; }
#endif
  ivec2 corner = tile * TILE;
  uvec4 result = fetch(corner);   // the corner is always inside the level (its size is rounded up)
  for (int y = 0; y < TILE; ++y) {
    for (int x = 0; x < TILE; ++x) {
      ivec2 texel = corner + ivec2(x, y);
      if ((x == 0 && y == 0) || texel.x >= u_inputSize.x || texel.y >= u_inputSize.y) continue;
      result = combine(result, fetch(texel));
    }
  }
  outValue = result;
}
