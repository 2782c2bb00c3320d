#version 300 es
// Transform-feedback pass of the block concatenation: one vertex per line endpoint (4 per block,
// see block-endpoints.glsl), drawn as points with the rasterizer off; the endpoint is captured
// into a buffer that then feeds the gl.LINES draw (block-lines-feedback.vert). This is the
// paper's render-to-vertex-array step, done the WebGL2 way. The whole endpoint travels in ONE
// uvec4 varying (position bits, first output index, block number): headless-gl captures only one
// varying correctly (two or more hit a dangling pointer in its native layer), and one is enough.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "block-endpoints.glsl"

flat out uvec4 v_endpoint;

void main() {
  LineVertex lineVertex = blockLineVertex(gl_VertexID);
  v_endpoint = uvec4(floatBitsToUint(lineVertex.position), lineVertex.block);
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
