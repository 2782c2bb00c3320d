#version 300 es
// Transform feedback probe (src/probe-transform-feedback.ts), pass 1 of 2: one point per vertex,
// rasterizer off. The ONE captured varying (headless-gl can capture only one) holds the vertex
// index and bit patterns that a float path would change: all ones, a NaN payload, -0, a denormal,
// +-Infinity, 2^24 + 1 (not a float32). The probe computes the same values on the CPU.
precision highp float;
precision highp int;

const uint patterns[8] = uint[8](0xFFFFFFFFu, 0x7FC00001u, 0x80000000u, 0x00000001u,
                                 0x7F800000u, 0xFF800000u, 16777217u, 0x12345678u);

flat out uvec4 v_captured;

void main() {
  uint i = uint(gl_VertexID);
  uint bits = patterns[i & 7u];
  v_captured = uvec4(i, bits, ~bits, bits ^ (i * 0x01010101u));
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
