#version 300 es
// Line vertices captured by the transform-feedback pass (block-endpoints.vert), one uvec4 each:
// (position bits in output pixels, first output index, block number); projected to clip space.
precision highp float;
precision highp int;

uniform mat4 u_pixelToClip;
layout(location = 0) in uvec4 a_endpoint; // ENDPOINT_LOCATION in concatenate.ts
flat out uvec2 v_block;

void main() {
  v_block = a_endpoint.zw;
  gl_Position = u_pixelToClip * vec4(uintBitsToFloat(a_endpoint.xy), 0.0, 1.0);
}
