#version 300 es
// Writes the moved element's words (radix-scatter.vert placed the point).
precision highp float;
precision highp int;

flat in uvec4 v_value;
out uvec4 outValue;

void main() {
  outValue = v_value;
}
