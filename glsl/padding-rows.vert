#version 300 es
// The padding of a compaction's output: rows floor(count / width) .. height - 1, with the kept count
// read from its 1x1 texture on the GPU (no readback). One triangle larger than that rectangle
// covers each of its pixels exactly once (fullscreen.vert's trick); a full output gives an empty
// one. Drawn with write-zero.frag before the pass that writes the kept elements, which then
// overwrites the kept part of the first of these rows.
precision highp float;
precision highp int;
precision highp usampler2D;

uniform usampler2D u_top;    // 1x1: the kept count
uniform int u_widthLog2;     // the output's
uniform int u_height;        // the output's, in texels

void main() {
  uint firstRow = texelFetch(u_top, ivec2(0), 0).r >> uint(u_widthLog2);
  float bottom = -1.0 + 2.0 * float(firstRow) / float(u_height);   // the rectangle's bottom edge (clip space)
  vec2 corner = gl_VertexID == 0 ? vec2(-1.0, bottom) : gl_VertexID == 1 ? vec2(3.0, bottom) : vec2(-1.0, 2.0 - bottom);
  gl_Position = vec4(corner, 0.0, 1.0);
}
