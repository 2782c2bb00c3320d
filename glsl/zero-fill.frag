#version 300 es
// Zeros every texel: the padding a scatter never writes must read as 0, as in every stream.
precision highp float;
precision highp int;

out uvec4 outValue;

void main() {
  outValue = uvec4(0u);
}
