#version 300 es
// Discriminator packed 32 to a word (src/compact/bitmask.ts): word w's bit k says whether element
// 32w + k is kept, so one fragment runs the keep test 32 times and writes one texel, and the scan
// that follows reads a 32nd of the texels (counting each word's bits, glsl/scan-input.glsl).
// Elements past the stream's length are padding and never kept. The keep test is generated from
// the user's options into the marked line below (keep-function.ts).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "keep-value.glsl"

uniform usampler2D u_values;
uniform int u_widthLog2;        // the stream's
uniform int u_wordsWidthLog2;   // this target's
out uvec4 outValue;

//@KEEP_FUNCTION

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_wordsWidthLog2)) * 32u;
  uint length = streamLength();
  // Streams are at least 2048 wide (a power of two), so a word's 32 elements share one row.
  ivec2 texel = texelOf(first, uint(u_widthLog2));
  uint word = 0u;
  for (int k = 0; k < 32; ++k) {
    uint index = first + uint(k);
    if (index < length && keepElement(texelFetch(u_values, texel + ivec2(k, 0), 0), index)) word |= 1u << uint(k);
  }
  outValue = uvec4(word);
}
