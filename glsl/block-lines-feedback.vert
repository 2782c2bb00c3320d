#version 300 es
// Line vertices captured by the transform-feedback pass (block-endpoints.vert), projected from
// output pixels to clip space.
precision highp float;
precision highp int;

uniform mat4 u_pixelToClip;
in vec2 a_position;
in uvec2 a_block;
flat out uvec2 v_block;

void main() {
  v_block = a_block;
  gl_Position = u_pixelToClip * vec4(a_position, 0.0, 1.0);
}
