#version 300 es
// Radix sort, per digit (src/sort.ts): the digits of 128 / DIGIT_BITS consecutive elements as bit
// planes in one RGBA32UI texel (radix-digit-fields.glsl), so the masks pass reads a block's digits in
// DIGIT_BITS / 2 fetches instead of 64, and makes each digit's mask from them in a few word
// operations. Elements past the keys' length read as digit 0; the masks pass leaves them out.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "radix-element.glsl"
#include "radix-digit-fields.glsl"

uniform int u_digitsWidthLog2;   // this target's
out uvec4 outValue;

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_digitsWidthLog2)) * uint(4 * PER_UINT);
  uint length = streamLength();
  uvec4 packed = uvec4(0u);
  // A constant trip count and unconditional fetches (issued together); padding dropped by a select.
#ifdef ELEMENT_LAYERS
  // The select's pairs, two to a texel: a fetch per two elements (H200 egl, 2^20 uint32 keys, all
  // digits: 1.04 ms fenced with a fetch per element).
  for (int k = 0; k < 4 * PER_UINT; k += 2) {
    uint i = first + uint(k);
    uvec4 pairs = pairsAt(i);
    uint even = i < length ? digitOf(pairs.x) : 0u;
    uint odd = i + 1u < length ? digitOf(pairs.z) : 0u;
    packed[k / PER_UINT] |= (even | (odd << uint(DIGIT_BITS))) << uint((k % PER_UINT) * DIGIT_BITS);
  }
#else
  for (int k = 0; k < 4 * PER_UINT; ++k) {
    uint i = first + uint(k);
    uint digit = i < length ? digitOf(elementAt(i).x) : 0u;
    packed[k / PER_UINT] |= digit << uint((k % PER_UINT) * DIGIT_BITS);
  }
#endif
  outValue = bitPlanes(packed);
}
