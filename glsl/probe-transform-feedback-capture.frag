#version 300 es
// Transform feedback probe, pass 1 of 2: never runs (RASTERIZER_DISCARD); a program needs one.
precision highp float;
precision highp int;

flat in uvec4 v_captured;
out uvec4 o_value;

void main() {
  o_value = v_captured;
}
