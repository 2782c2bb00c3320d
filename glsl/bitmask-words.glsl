// The bitmask compaction's words (src/compact/bitmask.ts): texel w of u_words is (inclusive kept
// count of words 0 .. w, the word itself: bit k = element 32w + k is kept), in input order.
uniform usampler2D u_words;
uniform int u_wordCount;
uniform int u_wordsWidthLog2;

uvec2 wordAt(uint w) {
  return texelFetch(u_words, texelOf(w, uint(u_wordsWidthLog2)), 0).rg;
}

// The first word in low .. high whose inclusive count exceeds rank: the word holding the kept
// element of that rank (binary search; counts never decrease).
uint wordHolding(uint rank, uint low, uint high) {
  while (low < high) {
    uint middle = (low + high) >> 1;
    if (wordAt(middle).x > rank) high = middle; else low = middle + 1u;
  }
  return low;
}
