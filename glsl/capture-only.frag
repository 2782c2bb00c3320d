#version 300 es
// Fragment shader of the transform-feedback capture pass (block-endpoints.vert). The pass runs with
// the rasterizer off, so this never executes; a program still needs one.
precision highp float;
precision highp int;

out uvec4 outValue;

void main() {
  outValue = uvec4(0u);
}
