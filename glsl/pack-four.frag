#version 300 es
// Packs four neighbouring R32UI texels into one RGBA32UI texel before a read-back: RGBA_INTEGER is
// the one integer read format WebGL2 guarantees, so reading an R32UI texture moves 16 bytes per
// 4-byte element; packed, readPixels moves each byte once (H200: ~11 GB/s either way, so 4x faster).
// Texel x of a row holds source texels 4x .. 4x + 3 of the same row (the source width is a multiple of 4).
precision highp float;
precision highp int;
precision highp usampler2D;

uniform usampler2D u_source;
out uvec4 outValue;

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  ivec2 first = ivec2(texel.x * 4, texel.y);
  outValue = uvec4(
      texelFetch(u_source, first, 0).r,
      texelFetch(u_source, first + ivec2(1, 0), 0).r,
      texelFetch(u_source, first + ivec2(2, 0), 0).r,
      texelFetch(u_source, first + ivec2(3, 0), 0).r);
}
