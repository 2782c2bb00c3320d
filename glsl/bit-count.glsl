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

// Position of the set bit of rank r (0 = the lowest set bit; r < bitCount32(word)), without a loop:
// the population count's partial sums (bits per pair, nibble and byte) are kept, a multiply turns
// the bytes' counts into running counts, and one subtraction compares all four with r at once (each
// byte's running count is at most 32, so setting its top bit and subtracting r + 1 borrows from no
// other byte): the bytes whose running count is at most r lie wholly before the bit. Then a step
// each into the byte's nibble, pair and bit. ~40 operations, where halving the window five times
// with a population count each took ~90: H200 egl, the radix sort of 2^24 uint32 keys + values (its
// select calls this once per fragment, now on the one word holding the bit), A B B A, 59.98 / 60.11
// -> 59.43 / 59.45 ms, 16-bit keys 33.96 / 33.97 -> 33.18 / 33.19; the bitmask compaction at 50 %
// unchanged (2^24 3.45 ms either way). test/bit-count.test.ts checks every rank of ~1700 words.
uint selectBit(uint word, uint r) {
  uint pairs = word - ((word >> 1) & 0x55555555u);
  uint nibbles = (pairs & 0x33333333u) + ((pairs >> 2) & 0x33333333u);
  uint running = ((nibbles + (nibbles >> 4)) & 0x0F0F0F0Fu) * 0x01010101u;
  uint past = ((running | 0x80808080u) - (r + 1u) * 0x01010101u) & 0x80808080u;
  // At most byte 3 for r < bitCount32(word); callers may compute dead ranks past it (a tail
  // fragment's skip, both sides of a select), which the min keeps from shifting by 32 (undefined).
  uint position = min(8u * ((((~past & 0x80808080u) >> 7) * 0x01010101u) >> 24), 24u);
  r -= ((running << 8) >> position) & 0xFFu;
  uint low = (nibbles >> position) & 0xFu;
  if (r >= low) { r -= low; position += 4u; }
  low = (pairs >> position) & 3u;
  if (r >= low) { r -= low; position += 2u; }
  return position + (r >= ((word >> position) & 1u) ? 1u : 0u);
}

// The position of the lowest set bit of a non-zero word: that bit alone is a power of two, 2^k,
// which a float holds exactly, with k + 127 in its exponent field (5 operations; counting the set
// bits below it took 13, once per output in the select passes).
uint lowestBit(uint word) {
  return (floatBitsToUint(float(word & (~word + 1u))) >> 23) - 127u;
}
