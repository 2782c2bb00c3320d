#version 300 es
// Transform-feedback pass of the block concatenation: one vertex per line endpoint (4 per block,
// see block-endpoints.glsl), drawn as points with the rasterizer off; the varyings are captured
// into a buffer that then feeds the gl.LINES draw (block-lines-feedback.vert). This is the
// paper's render-to-vertex-array step, done the WebGL2 way.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "block-endpoints.glsl"

out vec2 v_position;
flat out uvec2 v_block;

void main() {
  LineVertex lineVertex = blockLineVertex(gl_VertexID);
  v_position = lineVertex.position;
  v_block = lineVertex.block;
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
