// Radix sort, per digit (src/sort.ts): where output position p's element is, from the scan of the
// blocks' counts (radix-block-counts.frag). The buckets of digits 0, 1, ... follow each other among
// the outputs; the scan's last block of each quad holds the running totals, so p's digit, its rank
// within the digit's bucket and the digit's offset in the scan (the totals of the quads before) come
// from QUADS fetches. The block holding the element is the first whose running count of the digit
// exceeds rank + offset.
uniform usampler2D u_ranks;      // inclusive scan of the counts, quad after quad
uniform int u_ranksWidthLog2;
uniform int u_blocks;            // blocks per quad in u_ranks (and per pair of digits in radix-masks.glsl's masks)

uint runningCount(int digit, uint block) {
  return texelFetch(u_ranks, texelOf(uint(digit >> 2) * uint(u_blocks) + block, uint(u_ranksWidthLog2)), 0)[digit & 3];
}

struct Place {
  int digit;
  uint target;   // rank within the digit's bucket + the digit's offset in u_ranks
  uint offset;   // the running count of the digit before the first block
};

// p < the keys' length.
Place placeOf(uint p) {
  uint start = 0u;
  uvec4 before = uvec4(0u);
  for (int quad = 0; quad < QUADS; ++quad) {
    uvec4 end = texelFetch(u_ranks, texelOf(uint(quad + 1) * uint(u_blocks) - 1u, uint(u_ranksWidthLog2)), 0);
    uvec4 totals = end - before;
    for (int c = 0; c < 4; ++c) {
      if (p < start + totals[c]) return Place(4 * quad + c, p - start + before[c], before[c]);
      start += totals[c];
    }
    before = end;
  }
  return Place(BUCKETS - 1, 0u, 0u);   // not reached
}

// The first block in low .. high whose running count of the digit exceeds `target` (binary search).
uint blockHolding(Place place, uint low, uint high) {
  while (low < high) {
    uint middle = (low + high) >> 1;
    if (runningCount(place.digit, middle) > place.target) high = middle; else low = middle + 1u;
  }
  return low;
}
