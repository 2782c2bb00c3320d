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

// Element bits as the user sees them: only the stream's own components, in its own number type.
vec4 decodeValue(uvec4 bits) {
#if COMPONENTS == 1
  bits = uvec4(bits.r, 0u, 0u, 0u);
#endif
#if defined(FLOAT_VALUES)
  return uintBitsToFloat(bits);
#elif defined(INT_VALUES)
  return vec4(ivec4(bits));
#else
  return vec4(bits);
#endif
}

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
