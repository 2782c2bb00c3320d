#version 300 es
// One triangle larger than the viewport covers every pixel exactly once (a quad's diagonal would
// be rasterised by two triangles). The viewport is the target: a pass covers all of its texels.
void main() {
  vec2 corner = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  gl_Position = vec4(corner, 0.0, 1.0);
}
