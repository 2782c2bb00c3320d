// The bitmask compaction's words (src/compact/bitmask.ts), in input order: u_words holds the keep
// flags (bit k of word w: element 32w + k is kept), u_wordCounts the inclusive kept count of words
// 0 .. w. Two R32UI textures, not one RGBA32UI: the search reads only counts, and a 16-byte texel
// costs about four 4-byte ones to fetch on the H200.
uniform usampler2D u_words;
uniform usampler2D u_wordCounts;
uniform int u_wordCount;
uniform int u_wordsWidthLog2;   // both textures share a layout

uint wordCountUpTo(uint w) {
  return texelFetch(u_wordCounts, texelOf(w, uint(u_wordsWidthLog2)), 0).r;
}

uint wordAt(uint w) {
  return texelFetch(u_words, texelOf(w, uint(u_wordsWidthLog2)), 0).r;
}

// The first word in low .. high whose inclusive count exceeds rank: the word holding the kept
// element of that rank (binary search; counts never decrease). highCount is the count of word high
// on entry (0 if not known) and that of the word found on return, when the search fetched it.
uint wordHolding(uint rank, uint low, uint high, inout uint highCount) {
  while (low < high) {
    uint middle = (low + high) >> 1;
    uint count = wordCountUpTo(middle);
    if (count > rank) {
      high = middle;
      highCount = count;
    } else {
      low = middle + 1u;
    }
  }
  return low;
}
