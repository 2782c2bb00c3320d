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

// The element's words: only the stream's own components, the others 0.
uvec4 componentBits(uvec4 bits) {
#if COMPONENTS == 1
  return uvec4(bits.r, 0u, 0u, 0u);
#else
  return bits;
#endif
}

// The element as the user's keep() sees it, in the stream's own type (exact for every 32-bit value).
#if defined(FLOAT_VALUES)
vec4 decodeValue(uvec4 bits) { return uintBitsToFloat(componentBits(bits)); }
#elif defined(INT_VALUES)
ivec4 decodeValue(uvec4 bits) { return ivec4(componentBits(bits)); }
#else
uvec4 decodeValue(uvec4 bits) { return componentBits(bits); }
#endif

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
