#version 300 es
// Copies one texel (e.g. the last inclusive sum = the kept count) into a 1x1 texture, so a
// result can keep its count on the GPU without holding on to the big scan textures.
precision highp float;
precision highp int;
precision highp usampler2D;

uniform usampler2D u_source;
uniform ivec2 u_texel;
out uvec4 outValue;

void main() {
  outValue = texelFetch(u_source, u_texel, 0);
}
