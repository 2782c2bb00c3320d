#version 300 es
// Vertex-fetch form of the concatenation's line vertices: the same endpoints as the
// transform-feedback pass, computed here from gl_VertexID and the block textures. concat 'auto'
// takes this path (measured faster on the H200, see AUTO_CONCAT in concatenate.ts), and so does any
// context whose transform feedback fails the start-up probe.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "block-endpoints.glsl"

uniform mat4 u_pixelToClip;
flat out uvec2 v_block;

void main() {
  LineVertex lineVertex = blockLineVertex(gl_VertexID);
  v_block = lineVertex.block;
  gl_Position = u_pixelToClip * vec4(lineVertex.position, 0.0, 1.0);
}
