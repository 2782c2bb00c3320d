#version 300 es
// Writes 0: the padding of a compaction's output (padding-rows.vert).
precision highp float;
precision highp int;

out uvec4 outValue;

void main() {
  outValue = uvec4(0u);
}
