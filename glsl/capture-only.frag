#version 300 es
// Fragment shader of the transform-feedback capture pass (block-endpoints.vert). The pass runs with
// the rasterizer off, so this never executes; a program still needs one whose inputs match.
precision highp float;
precision highp int;

flat in uvec2 v_block;
out uvec4 outValue;

void main() {
  outValue = uvec4(v_block, 0u, 0u);
}
