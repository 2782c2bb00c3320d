#version 300 es
// A compaction's output pass (HistoPyramid, bitmask) covers only the output rows that hold kept
// elements: rows 0 .. ceil(count / width) - 1, with the count read from the top texel on the GPU (no
// readback). With COUNT_SHIFT, a texel stands for 2^COUNT_SHIFT kept elements (the bitmask
// compaction's directory). Like fullscreen.vert, one triangle
// larger than that rectangle covers each of its pixels exactly once; a count of 0 gives an empty one.
// The rows above are padding, written 0 by a pass of their own (zero-padding.ts) or, with ALL_ROWS,
// by this pass itself (the bitmask's output pass: one pass writing every row instead of two).
precision highp float;
precision highp int;
precision highp usampler2D;

uniform usampler2D u_top;    // 1x1: the kept count
uniform int u_widthLog2;     // the output's
uniform int u_height;        // the output's, in texels

#ifndef COUNT_SHIFT
#define COUNT_SHIFT 0
#endif

// The kept count, for fragment shaders that check it: fetched here three times per draw instead of
// once per fragment.
flat out uint v_keptCount;

void main() {
  v_keptCount = texelFetch(u_top, ivec2(0), 0).r;
  uint count = (v_keptCount + (1u << COUNT_SHIFT) - 1u) >> COUNT_SHIFT;
#ifdef ALL_ROWS
  // Every row: the pass writes the padding too (0 past the count).
  uint rows = uint(u_height);
#else
  uint rows = (count + (1u << uint(u_widthLog2)) - 1u) >> uint(u_widthLog2);
#endif
  float top = -1.0 + 2.0 * float(rows) / float(u_height);   // the rectangle's top edge (clip space)
  vec2 corner = gl_VertexID == 0 ? vec2(-1.0, -1.0) : gl_VertexID == 1 ? vec2(3.0, -1.0) : vec2(-1.0, 2.0 * top + 1.0);
  gl_Position = vec4(corner, 0.0, 1.0);
}
