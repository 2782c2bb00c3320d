// Radix sort (src/sort.ts): the digits of 128 / DIGIT_BITS consecutive elements, first packed
// DIGIT_BITS to a field (PER_UINT = 32 / DIGIT_BITS fields per uint, element k in uint k / PER_UINT at
// bit (k % PER_UINT) · DIGIT_BITS), then turned into bit planes: plane j holds bit j of every
// element's digit, one bit per element, so a digit's mask of 32 elements is DIGIT_BITS word
// operations (radix-digit-masks.frag) instead of a comparison per field.
#if DIGIT_BITS == 4
#define FIELD_LOWS 0x11111111u
#else
#define FIELD_LOWS 0x55555555u
#endif
// Words per plane in a texel: (128 / DIGIT_BITS) elements, 32 to a word.
#define PLANE_WORDS (4 / DIGIT_BITS)

// Field k's low bit (of a word masked with FIELD_LOWS) moved to bit k: PER_UINT bits.
uint squeezeFields(uint x) {
#if DIGIT_BITS == 4
  x = (x | (x >> 3)) & 0x03030303u;
  x = (x | (x >> 6)) & 0x000f000fu;
  return (x | (x >> 12)) & 0xffu;
#else
  x = (x | (x >> 1)) & 0x33333333u;
  x = (x | (x >> 2)) & 0x0f0f0f0fu;
  x = (x | (x >> 4)) & 0x00ff00ffu;
  return (x | (x >> 8)) & 0xffffu;
#endif
}

// The packed fields as bit planes: word j · PLANE_WORDS + h is plane j of elements 32·h .. 32·h + 31.
uvec4 bitPlanes(uvec4 packed) {
  uvec4 planes = uvec4(0u);
  for (int w = 0; w < 4; ++w) {
    for (int j = 0; j < DIGIT_BITS; ++j) {
      uint first = uint(w * PER_UINT);   // the uint's first element
      planes[j * PLANE_WORDS + int(first >> 5)] |= squeezeFields((packed[w] >> uint(j)) & FIELD_LOWS) << (first & 31u);
    }
  }
  return planes;
}
