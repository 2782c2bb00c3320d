// Bit counting for keep flags packed 32 to a word (bit k = element 32w + k is kept). GLSL ES 3.00
// has no bitCount or findLSB, so both are spelt out with shifts, masks and a float's exponent (exact
// for every word).

// Set bits of a word (the classic SWAR population count: pairs, nibbles, bytes, then a sum).
uint bitCount32(uint v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  v = (v + (v >> 4)) & 0x0F0F0F0Fu;
  return (v * 0x01010101u) >> 24;
}

// Position of the set bit of rank r (0 = the lowest set bit; r < bitCount32(word)): halve the
// window five times, stepping into the upper half when the lower one holds r set bits or fewer.
uint selectBit(uint word, uint r) {
  uint position = 0u;
  for (uint width = 16u; width > 0u; width >>= 1) {
    uint low = bitCount32(word & ((1u << width) - 1u));
    if (r >= low) {
      r -= low;
      word >>= width;
      position += width;
    }
  }
  return position;
}

// The position of the lowest set bit of a non-zero word: that bit alone is a power of two, 2^k,
// which a float holds exactly, with k + 127 in its exponent field (5 operations; counting the set
// bits below it took 13, once per output in the select passes).
uint lowestBit(uint word) {
  return (floatBitsToUint(float(word & (~word + 1u))) >> 23) - 127u;
}
