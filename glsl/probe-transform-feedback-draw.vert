#version 300 es
// Transform feedback probe (src/probe-transform-feedback.ts), pass 2 of 2: the captured buffer is
// the vertex input, one point per captured vertex, drawn at the pixel named by its own captured
// index in an 8x1 RGBA32UI target. Data that was not captured lands elsewhere or nowhere.
precision highp float;
precision highp int;

const float WIDTH = 8.0; // = the probe's vertex count

layout(location = 0) in uvec4 a_captured;
flat out uvec4 v_value;

void main() {
  v_value = a_captured;
  gl_Position = vec4((float(a_captured.x) + 0.5) / WIDTH * 2.0 - 1.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
