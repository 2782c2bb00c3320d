#version 300 es
// Radix sort, per digit (src/sort.ts): each block of 64 elements' bit masks of its digits, made from
// the block's bit planes (radix-digits.frag): the mask of digit d is the AND of the planes (inverted
// where d's bit is 0), two words per 32 elements and plane. A fragment writes the masks of
// MASK_LAYERS pairs of digits, one pair per layer (attachment), for one block: with 8 attachments
// and 4-bit digits all 16 digits' masks in one fragment (radix-masks.glsl has the layout).
// PLANES_FROM_SELECT (the select's attachment): after the first digit, the planes come from the
// previous digit's select (radix-select.frag NEXT_PLANES), 8 elements to a texel, byte j of .x plane
// j, instead of a digits pass: with PLANES_TEXTURE (as shipped) in the R32UI companion texture of
// the select's pairs target, otherwise in that layer of the pairs' array (src/sort.ts
// SORT_SELECT.planesTexture).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "radix-digit-fields.glsl"

#if defined(PLANES_FROM_SELECT) && !defined(PLANES_TEXTURE)
precision highp usampler2DArray;
uniform usampler2DArray u_digits;   // the select's layers
#else
uniform usampler2D u_digits;
#endif
uniform int u_digitsWidthLog2;
uniform int u_masksWidthLog2;   // this target's: texel (pair / MASK_LAYERS)·u_blocks + block
uniform int u_blocks;
layout(location = 0) out uvec4 outMasks[MASK_LAYERS];

// Bits of the 32 elements from `first` that lie before `length`.
uint validBits(uint first, uint length) {
  if (first >= length) return 0u;
  uint n = length - first;
  return n >= 32u ? ~0u : (1u << n) - 1u;
}

// Plane j of the block's elements 0 .. 31 (.x) and 32 .. 63 (.y).
uvec2 planes[DIGIT_BITS];
uvec2 valid;

uvec2 maskOf(uint digit) {
  uvec2 mask = valid;
  for (int j = 0; j < DIGIT_BITS; ++j) mask &= planes[j] ^ uvec2(((digit >> uint(j)) & 1u) - 1u);
  return mask;
}

uvec4 pairMasks(uint pair) { return uvec4(maskOf(2u * pair), maskOf(2u * pair + 1u)); }

void main() {
  uint entry = indexOf(ivec2(gl_FragCoord.xy), uint(u_masksWidthLog2));
  uint part = entry / uint(u_blocks);
  uint block = entry - part * uint(u_blocks);
  if (part >= uint((1 << PAIRS_LOG2) / MASK_LAYERS)) {   // padding
    for (int j = 0; j < DIGIT_BITS; ++j) planes[j] = uvec2(0u);
    valid = uvec2(0u);
  } else {
    uint first = block << 6;
    uint length = streamLength();
    valid = uvec2(validBits(first, length), validBits(first + 32u, length));
#ifdef PLANES_FROM_SELECT
    // 8 texels per block: byte j of texel i's .x is plane j of the block's elements 8·i .. 8·i + 7.
    for (int j = 0; j < DIGIT_BITS; ++j) planes[j] = uvec2(0u);
    for (int i = 0; i < 8; ++i) {
#ifdef PLANES_TEXTURE
      uint x = texelFetch(u_digits, texelOf(block * 8u + uint(i), uint(u_digitsWidthLog2)), 0).x;
#else
      uint x = texelFetch(u_digits, ivec3(texelOf(block * 8u + uint(i), uint(u_digitsWidthLog2)), PLANES_FROM_SELECT), 0).x;
#endif
      for (int j = 0; j < DIGIT_BITS; ++j) {
        uint bits = ((x >> uint(8 * j)) & 0xffu) << uint(8 * (i & 3));
        if (i < 4) planes[j].x |= bits; else planes[j].y |= bits;
      }
    }
#else
    // The planes' layout is radix-digit-fields.glsl#bitPlanes': word j · PLANE_WORDS + h of a texel is
    // plane j of its elements 32·h .. 32·h + 31 (4-bit digits: one word per plane, two texels per block).
    uvec4 low = texelFetch(u_digits, texelOf(block * uint(DIGIT_BITS / 2), uint(u_digitsWidthLog2)), 0);
#if DIGIT_BITS == 4
    uvec4 high = texelFetch(u_digits, texelOf(block * 2u + 1u, uint(u_digitsWidthLog2)), 0);
    for (int j = 0; j < 4; ++j) planes[j] = uvec2(low[j], high[j]);
#else
    for (int j = 0; j < 2; ++j) planes[j] = uvec2(low[2 * j], low[2 * j + 1]);
#endif
#endif
  }
  uint pair = part * uint(MASK_LAYERS);
  // Fragment outputs take constant indices only (no loop, even an unrolled one, in ANGLE).
  outMasks[0] = pairMasks(pair);
#if MASK_LAYERS > 1
  outMasks[1] = pairMasks(pair + 1u);
#endif
#if MASK_LAYERS > 2
  outMasks[2] = pairMasks(pair + 2u);
  outMasks[3] = pairMasks(pair + 3u);
#endif
#if MASK_LAYERS > 4
  outMasks[4] = pairMasks(pair + 4u);
  outMasks[5] = pairMasks(pair + 5u);
  outMasks[6] = pairMasks(pair + 6u);
  outMasks[7] = pairMasks(pair + 7u);
#endif
}
