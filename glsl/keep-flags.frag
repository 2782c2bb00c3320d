#version 300 es
// Discriminator pass: writes 1 for every element that is NOT kept ("invalid" in the paper, Sec.
// 3.3), 0 for kept ones. Texels past the stream's length are padding and always invalid. The
// keep test is generated from the user's options into the marked line below (keep-function.ts).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"

uniform usampler2D u_values;
uniform int u_widthLog2;
out uvec4 outValue;

#include "keep-value.glsl"

//@KEEP_FUNCTION

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  uint index = indexOf(texel, uint(u_widthLog2));
  bool kept = index < streamLength() && keepElement(texelFetch(u_values, texel, 0), index);
#ifdef KEPT_FLAGS
  outValue = uvec4(kept ? 1u : 0u);   // Horn over the whole stream scans kept flags instead
#else
  outValue = uvec4(kept ? 0u : 1u);
#endif
}
