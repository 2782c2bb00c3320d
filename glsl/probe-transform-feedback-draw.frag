#version 300 es
// Transform feedback probe, pass 2 of 2: writes the captured words unchanged.
precision highp float;
precision highp int;

flat in uvec4 v_value;
out uvec4 o_value;

void main() {
  o_value = v_value;
}
