// Radix sort, per digit (src/sort.ts): where output position p's element is, from the scan of the
// groups' counts (radix-block-counts.frag; a group is 2^GROUP_LOG2 consecutive blocks of 64
// elements). The buckets of digits 0, 1, ... follow each other among the outputs; the scan's last
// group of each quad holds the running totals, so p's digit, its rank within the digit's bucket and
// the digit's offset in the scan (the totals of the quads before) come from QUADS fetches. The group
// holding the element is the first whose running count of the digit exceeds rank + offset; within
// it, the blocks' masks are counted one after another.
#include "radix-masks.glsl"

uniform usampler2D u_ranks;      // inclusive scan of the counts, quad after quad
uniform int u_ranksWidthLog2;
uniform int u_groups;            // groups per quad in u_ranks

uint runningCount(int digit, uint group) {
  return texelFetch(u_ranks, texelOf(uint(digit >> 2) * uint(u_groups) + group, uint(u_ranksWidthLog2)), 0)[digit & 3];
}

struct Place {
  int digit;
  uint target;   // rank within the digit's bucket + the digit's offset in u_ranks
  uint offset;   // the running count of the digit before the first group
};

// p < the keys' length. The quads' totals are fetched together, before any is compared (fetched in
// the loop, each waited for the comparisons before it: H100 egl, 2^24 uint32 keys + values 64.0-64.2
// -> 60.7-60.8 ms, 2^22 17.1-17.3 -> 16.5-16.6).
Place placeOf(uint p) {
  uvec4 ends[QUADS];
  for (int quad = 0; quad < QUADS; ++quad) ends[quad] = texelFetch(u_ranks, texelOf(uint(quad + 1) * uint(u_groups) - 1u, uint(u_ranksWidthLog2)), 0);
  uint start = 0u;
  uvec4 before = uvec4(0u);
  for (int quad = 0; quad < QUADS; ++quad) {
    uvec4 end = ends[quad];
    uvec4 totals = end - before;
    for (int c = 0; c < 4; ++c) {
      if (p < start + totals[c]) return Place(4 * quad + c, p - start + before[c], before[c]);
      start += totals[c];
    }
    before = end;
  }
  return Place(BUCKETS - 1, 0u, 0u);   // not reached
}

// The first group in low .. high whose running count of the digit exceeds `target` (binary search).
uint groupHolding(Place place, uint low, uint high) {
  while (low < high) {
    uint middle = (low + high) >> 1;
    if (runningCount(place.digit, middle) > place.target) high = middle; else low = middle + 1u;
  }
  return low;
}

struct Found {
  uint block;
  uint before;   // the digit's running count before the block (place.offset before the first)
};

// The block of `group` holding place's element. The masks of the group's blocks but its last are
// fetched together (their addresses do not depend on one another), then taken while the count stays
// at most place.target.
Found blockIn(Place place, uint group) {
  uint before = group == 0u ? place.offset : runningCount(place.digit, group - 1u);
  uint start = group << GROUP_LOG2;
  uint block = start;
  for (int k = 0; k < (1 << GROUP_LOG2) - 1; ++k) {
    uint b = start + uint(k);
    uint count = b + 1u < uint(u_blocks) ? bits64(digitMask(b, place.digit)) : 0u;
    if (block == b && b + 1u < uint(u_blocks) && before + count <= place.target) {
      before += count;
      block = b + 1u;
    }
  }
  return Found(block, before);
}

// The block holding place's element, searched for among all groups.
Found blockHolding(Place place) {
  return blockIn(place, groupHolding(place, 0u, uint(u_groups) - 1u));
}

// The element of found.block whose digit is place.digit, of rank place.target among those of the
// blocks before and this one: its set bit of the right rank in the block's mask.
uint elementOf(Place place, Found found) {
  uint local = place.target - found.before;
  uvec2 mask = digitMask(found.block, place.digit);
  uint lowCount = bitCount32(mask.x);
  bool inLow = local < lowCount;
  return (found.block << 6) + (inLow ? 0u : 32u) + selectBit(inLow ? mask.x : mask.y, inLow ? local : local - lowCount);
}

#ifdef DIRECTORY
// radix-directory.frag's entries: the group holding the element of every 2^DIRECTORY_SHIFT-th output.
uniform usampler2D u_directory;
uniform int u_directoryWidthLog2;

// The directory entry of output p's 2^DIRECTORY_SHIFT outputs. Its address depends on p alone, so
// the callers fetch it before placeOf(p), and the two fetches wait together (H100 egl, 2^24 uint32
// keys + values 60.90-60.91 -> 60.55-60.59 ms, 16-bit keys 34.97-35.11 -> 34.77-34.81).
uint directoryEntry(uint p) {
  return texelFetch(u_directory, texelOf(p >> DIRECTORY_SHIFT, uint(u_directoryWidthLog2)), 0).r;
}

// The group holding output p's element (place = placeOf(p), entry = directoryEntry(p)): from the
// directory entry where that entry's output has p's digit (it lies in p's bucket, which starts at
// p - rank), by a gallop (groups g, g+1, g+3, ...) and a search of the last stride; otherwise by a
// binary search over all groups.
uint groupFromDirectory(Place place, uint p, uint entry) {
  uint last = uint(u_groups) - 1u;
  uint entryStart = (p >> DIRECTORY_SHIFT) << DIRECTORY_SHIFT;
  if (entryStart + (place.target - place.offset) < p) return groupHolding(place, 0u, last);
  uint low = entry;
  uint stride = 1u;
  uint high = low;
  // The fetch stays out of the loop's condition: with it there, the H100 (ANGLE on the driver's
  // OpenGL ES) returned wrong blocks that llvmpipe did not (docs/adding-an-algorithm.md).
  uint count = runningCount(place.digit, high);
  while (count <= place.target && high < last) {
    low = high + 1u;
    high = min(high + stride, last);
    stride <<= 1;
    count = runningCount(place.digit, high);
  }
  return groupHolding(place, low, high);
}
#endif
