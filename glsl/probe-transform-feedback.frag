#version 300 es
// Start-up probe: never rasterized (RASTERIZER_DISCARD), present because a program needs one.
precision highp float;

in float v_value;
out vec4 color;

void main() {
  color = vec4(v_value);
}
