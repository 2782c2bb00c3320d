#version 300 es
// Start-up probe (capabilities.ts): does transform feedback capture this varying?
out float v_value;

void main() {
  v_value = float(gl_VertexID) + 0.5;
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
