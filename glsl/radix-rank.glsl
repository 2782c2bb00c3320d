// Radix sort, per digit (src/sort.ts): where output position p's element is. The buckets of digits
// 0..3 follow each other (their totals sit at the last block of the scan of the blocks' counts), so
// p's digit and its rank within that digit's bucket follow from the totals; the block holding the
// element is the first whose inclusive count of the digit exceeds the rank.
uniform usampler2D u_blockRanks;  // inclusive scan of radix-block-histogram.frag's counts
uniform int u_blocksWidthLog2;
uniform int u_blocks;             // entries in u_blockRanks (the last holds the totals)

uvec4 ranksOf(uint block) { return texelFetch(u_blockRanks, texelOf(block, uint(u_blocksWidthLog2)), 0); }

// Output position p's digit (its bucket): the buckets of digits 0..3 follow each other.
int digitOf(uint p, uvec4 totals) {
  uint end = totals.x;
  if (p < end) return 0;
  end += totals.y;
  if (p < end) return 1;
  end += totals.z;
  return p < end ? 2 : 3;
}

// Where the bucket of `digit` starts among the outputs.
uint bucketStart(int digit, uvec4 totals) {
  uint start = 0u;
  if (digit > 0) start += totals.x;
  if (digit > 1) start += totals.y;
  if (digit > 2) start += totals.z;
  return start;
}

// The first block in low .. high whose inclusive count of `digit` exceeds `rank` (binary search).
uint blockHolding(int digit, uint rank, uint low, uint high) {
  while (low < high) {
    uint middle = (low + high) >> 1;
    if (ranksOf(middle)[digit] > rank) high = middle; else low = middle + 1u;
  }
  return low;
}
