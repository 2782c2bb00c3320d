// Radix sort (src/sort.ts): digits packed DIGIT_BITS to a field, PER_UINT = 32 / DIGIT_BITS fields per
// uint, four uints per RGBA32UI texel (radix-digits.frag); element k of a texel sits in uint
// k / PER_UINT at bit (k % PER_UINT) · DIGIT_BITS. Comparing a whole uint's fields with one digit takes
// a few bit operations, and so does squeezing the result into one bit per element.
#if DIGIT_BITS == 4
#define FIELD_LOWS 0x11111111u
#else
#define FIELD_LOWS 0x55555555u
#endif

// The low bit of each field of `word` that equals `digit`.
uint equalFields(uint word, uint digit) {
  uint x = word ^ (digit * FIELD_LOWS);
  uint nonzero = x;
  for (int s = 1; s < DIGIT_BITS; ++s) nonzero |= x >> uint(s);
  return ~nonzero & FIELD_LOWS;
}

// The low bit of each field holding an element before `length`, for the uint whose first element is `first`.
uint fieldsBefore(uint first, uint length) {
  if (first >= length) return 0u;
  uint n = length - first;
  return n >= uint(PER_UINT) ? FIELD_LOWS : FIELD_LOWS & ((1u << (n * uint(DIGIT_BITS))) - 1u);
}

// Field k's low bit (of a result of equalFields) moved to bit k: PER_UINT bits.
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
