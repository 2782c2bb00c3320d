#version 300 es
// Radix sort, per digit (src/sort.ts), where a pass writes 4 or more attachments: fragment f finds
// where the elements moving to output positions f·RANKS .. f·RANKS + RANKS - 1 are and writes, to
// the layers of a TEXTURE_2D_ARRAY (one per attachment):
// - WRITE_PAIRS: the elements themselves, the pairs (sort key, input position; with CARRY_VALUES from
//   the first digit, sort key and value bits: radix-element.glsl), two per RGBA32UI
//   texel (RANKS = 2 · ATTACHMENTS: 16 with 8), which the next digit reads as they lie
//   (radix-element.glsl, ELEMENT_LAYERS): no move pass; with NEXT_PLANES (4 attachments of pairs,
//   8 outputs), a fifth attachment (an R32UI texture, or a fifth layer: src/sort.ts
//   SORT_SELECT.planesTexture) holds the next digit's bit planes of the 8 outputs, byte j of .x
//   plane j, which the next digit's masks pass reads (radix-digit-masks.frag PLANES_FROM_SELECT):
//   no digits pass after the first digit; the last digit's, where the pairs carry the values, are
//   the sorted keys and values, which radix-unpair.frag copies out;
// - WRITE_INDICES (the last digit, where the pairs carry positions): their input positions, four per texel (RANKS = 4 · ATTACHMENTS),
//   from which the gathers read the keys and values (gather.frag, INDEX_LANES);
// - otherwise their positions in the current order, four per texel, and the move pass fetches the
//   element at each (radix-move.frag, POSITIONS).
// One search places the first position (its digit, its block, its bit in the block's mask, as
// radix-move.frag does; with DIRECTORY, a gallop from the directory entry of its 2^DIRECTORY_SHIFT
// outputs, radix-directory.frag, where that entry's output has its digit, else a search over all
// groups); the next ones follow in the digit's masks, block after block: outputs of
// one digit take its elements in input order (stable).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "radix-rank.glsl"
#if defined(WRITE_PAIRS) || defined(WRITE_INDICES)
#include "radix-element.glsl"
#endif

#ifdef WRITE_PAIRS
#define RANKS (2 * ATTACHMENTS)
#else
#define RANKS (4 * ATTACHMENTS)
#endif
#ifdef WRITE_INDICES
#define LANE_OF(position) elementAt(min(position, streamEnd - 1u)).y
#else
#define LANE_OF(position) (position)
#endif

uniform int u_positionsWidthLog2;   // this pass's texels: one per RANKS outputs
#ifdef NEXT_PLANES
#if ATTACHMENTS != 4 || !defined(WRITE_PAIRS)
#error NEXT_PLANES: the planes of 8 outputs, written with the pairs on 4 attachments
#endif
layout(location = 0) out uvec4 outPositions[ATTACHMENTS + 1];
// The next digit's bits of an output's sort key, as bits k, 8 + k, 16 + k, 24 + k (planes 0 .. 3):
// one multiply puts copies of the digit d 7 bits apart (d, d << 7, d << 14, d << 21; 4 bits each, so
// no carries), and bit j of copy j lands on bit 8j, the only copy's bit to land on a multiple of 8
// (j + 7m = 8j' only for m = j = j', as |j - j'| < 7). A loop over the bits (a shift, a mask and an
// or per bit) took longer: H200 egl, uint32 keys + values, A B B A, 2^24 60.07 / 60.23 -> 59.76 /
// 59.80 ms.
#if DIGIT_BITS == 4
#define PLANE_SPREAD 0x00204081u
#define PLANE_LANES 0x01010101u
#else
#define PLANE_SPREAD 0x81u
#define PLANE_LANES 0x0101u
#endif
#define PLANE_BITS(key, k) { uint d = ((key) >> uint(u_shift + DIGIT_BITS)) & uint(BUCKETS - 1); planes |= ((d * PLANE_SPREAD) & PLANE_LANES) << (k); }
#else
layout(location = 0) out uvec4 outPositions[ATTACHMENTS];
#endif

// The element moving to output position p, searched for alone (the fallback below), as main()
// searches for the first: with DIRECTORY, by the gallop from p's directory entry. Seldom run (random
// keys almost never), yet the same search as main()'s rather than a search over all groups made the
// whole pass faster: H200 egl, uint32 keys + values, A B B A, 2^24 60.03-60.23 -> 59.87-59.99 ms,
// 2^20 4.89 -> 4.64-4.67, 16-bit keys 34.3-34.4 -> 33.7-34.0 (the compiler's code for the pass, not
// the fallback's own work: a fallback fetching the quads' totals in turn made it 3.5 ms slower).
// p's entry is main()'s (a fragment's RANKS outputs lie within one entry's 2^DIRECTORY_SHIFT: src/sort.ts
// checks the shift), so its fetch hits what main() fetched. Passing main()'s entry in instead was
// slower (H200 egl, A B B A: 2^24 60.52 / 60.49 against 60.07 / 60.04 ms). With few distinct keys the
// fallback runs often; there the gallop costs no more than the search over all groups did (16
// distinct keys: 2^24 45.41 against 45.34 ms, 2^20 3.54 against 3.80; docs/performance.md).
uint elementMovingTo(uint p) {
#ifdef DIRECTORY
  uint entry = directoryEntry(p);
  Place place = placeOf(p);
  return elementOf(place, blockIn(place, groupFromDirectory(place, p, entry)));
#else
  Place place = placeOf(p);
  return elementOf(place, blockHolding(place));
#endif
}

// Output position first + k: the next set bit of the digit's mask `rest`, moving on to the next
// block's when it is empty. The masks of the SELECT_QUEUE (1, 2, 3 or 7) blocks after the current one wait
// in a register queue (q1, or q1 .. q2, q3 or q7): an advance takes q1 and fetches the mask SELECT_QUEUE blocks
// on into the last, so a fetch is needed a few advances after it was issued and the walk rarely waits
// for one (fetched when needed, each lane of a warp waited at its own steps: H200, 2^22, random 4-bit
// digits, 2.6 ms per digit; with 7, 1.4). 3 moves fewer registers per advance: H200 egl, uint32 keys
// + values, 2^24 88.5 -> 86.0 ms, 2^22 22.8 -> 22.2; 2 once a fragment placed 8 pairs, not 16; 1 once the
// searches' first fetches were issued together: 2^24 60.9 -> 60.1 ms (src/sort.ts SORT_SELECT.queue).
// An empty mask is looked past up to three times, each check only after an advance (nested: H200
// egl, 2^24 uint32 keys + values 87.7 -> 86.7 ms, 2^22 22.9 -> 22.6, against three checks in a row).
// Three empty masks in a row mark the fragment `irregular` (its positions are then wrong and the loop
// below takes over). That also catches outputs past the digit's bucket: once the walk has taken the
// bucket's last element, the digit's masks are empty in every block after it (so a check per output
// against the bucket's end, which this pass made until 2026-11-26, is not needed). Written out once
// per output, loop-free: the steps stay in registers and the shader stays quick to compile (see
// bitmask-select.frag). (One line: headless-gl's ANGLE rejects line continuations.)
#if SELECT_QUEUE == 1
#define ADVANCE { block += 1u; rest = q1; q1 = maskAfter(block, 1u); }
#elif SELECT_QUEUE == 2
#define ADVANCE { block += 1u; rest = q1; q1 = q2; q2 = maskAfter(block, 2u); }
#elif SELECT_QUEUE == 3
#define ADVANCE { block += 1u; rest = q1; q1 = q2; q2 = q3; q3 = maskAfter(block, 3u); }
#else
#define ADVANCE { block += 1u; rest = q1; q1 = q2; q2 = q3; q3 = q4; q4 = q5; q5 = q6; q6 = q7; q7 = maskAfter(block, 7u); }
#endif
#define RANK(k, lane) { uint p = first + uint(k); uint position = 0u; if (p < streamEnd) { if (rest == uvec2(0u)) { ADVANCE if (rest == uvec2(0u)) { ADVANCE if (rest == uvec2(0u)) { ADVANCE irregular = irregular || rest == uvec2(0u); } } } position = (block << 6) + (rest.x != 0u ? lowestBit(rest.x) : 32u + lowestBit(rest.y)); rest = rest.x != 0u ? uvec2(rest.x & (rest.x - 1u), rest.y) : uvec2(0u, rest.y & (rest.y - 1u)); } lane = position; }
#ifdef WRITE_PAIRS
// Output k's pair into `pair` (two components of a texel); zeros past the stream.
#define PAIR(k, pair) { uint found; RANK(k, found) pair = first + uint(k) < streamEnd ? elementAt(min(found, streamEnd - 1u)) : uvec2(0u); }
#define TEXEL(a, texel) PAIR(2 * (a), texel.xy) PAIR(2 * (a) + 1, texel.zw)
#else
#define LANE(k, lane) { uint found; RANK(k, found) lane = LANE_OF(found); }
#define TEXEL(a, texel) LANE(4 * (a), texel.x) LANE(4 * (a) + 1, texel.y) LANE(4 * (a) + 2, texel.z) LANE(4 * (a) + 3, texel.w)
#endif

// The digit's mask in block + ahead (empty past the last block).
#define maskAfter(block, ahead) ((block) + (ahead) < uint(u_blocks) ? digitMask((block) + (ahead), digit) : uvec2(0u))

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_positionsWidthLog2)) * uint(RANKS);
  uint streamEnd = streamLength();
#ifdef DIRECTORY
  uint entry = directoryEntry(min(first, streamEnd - 1u));
#endif
  Place place = placeOf(min(first, streamEnd - 1u));
  int digit = place.digit;
#ifdef DIRECTORY
  Found found = blockIn(place, groupFromDirectory(place, min(first, streamEnd - 1u), entry));
#else
  Found found = blockHolding(place);
#endif
  uint block = found.block;
  // The digit's mask in that block without the elements before first's (`local` of them).
  uint local = place.target - found.before;
  uvec2 rest = digitMask(block, digit);
  if (local > 0u) {
    // Clear the mask's bits up to the one of rank local - 1, in the one word holding it.
    uint lowCount = bitCount32(rest.x);
    bool inLow = local - 1u < lowCount;
    uint word = inLow ? rest.x : rest.y;
    word &= ~((2u << selectBit(word, inLow ? local - 1u : local - 1u - lowCount)) - 1u);
    rest = inLow ? uvec2(word, rest.y) : uvec2(0u, word);
  }
  // The next blocks' masks (SELECT_QUEUE of them), fetched together.
  uvec2 q1 = maskAfter(block, 1u);
#if SELECT_QUEUE >= 2
  uvec2 q2 = maskAfter(block, 2u);
#endif
#if SELECT_QUEUE >= 3
  uvec2 q3 = maskAfter(block, 3u);
#endif
#if SELECT_QUEUE == 7
  uvec2 q4 = maskAfter(block, 4u), q5 = maskAfter(block, 5u), q6 = maskAfter(block, 6u), q7 = maskAfter(block, 7u);
#endif
  bool irregular = false;
  uvec4 t0, t1, t2, t3, t4, t5, t6, t7;
  TEXEL(0, t0)
  TEXEL(1, t1)
  TEXEL(2, t2)
  TEXEL(3, t3)
#if ATTACHMENTS == 8
  TEXEL(4, t4)
  TEXEL(5, t5)
  TEXEL(6, t6)
  TEXEL(7, t7)
#endif
  if (irregular) {
    // A digit changes among these outputs, or its elements are sparse here: each output searched
    // for alone, in one loop; output k's position goes into its lane by a comparison per lane (a
    // local array indexed by k would leave the registers).
    t0 = uvec4(0u); t1 = uvec4(0u); t2 = uvec4(0u); t3 = uvec4(0u);
    t4 = uvec4(0u); t5 = uvec4(0u); t6 = uvec4(0u); t7 = uvec4(0u);
    for (uint k = 0u; k < uint(RANKS); ++k) {
      uint p = first + k;
#ifdef WRITE_PAIRS
      uvec2 pair = p < streamEnd ? elementAt(elementMovingTo(p)) : uvec2(0u);
      uvec4 at = (k & 1u) == 0u ? uvec4(pair, 0u, 0u) : uvec4(0u, 0u, pair);
      uint texel = k >> 1;
#else
      uvec4 at = (p < streamEnd ? LANE_OF(elementMovingTo(p)) : 0u) * uvec4(equal(uvec4(k & 3u), uvec4(0u, 1u, 2u, 3u)));
      uint texel = k >> 2;
#endif
      t0 += texel == 0u ? at : uvec4(0u);
      t1 += texel == 1u ? at : uvec4(0u);
      t2 += texel == 2u ? at : uvec4(0u);
      t3 += texel == 3u ? at : uvec4(0u);
      t4 += texel == 4u ? at : uvec4(0u);
      t5 += texel == 5u ? at : uvec4(0u);
      t6 += texel == 6u ? at : uvec4(0u);
      t7 += texel == 7u ? at : uvec4(0u);
    }
  }
#ifdef NEXT_PLANES
  // The outputs' next digits as bit planes (zeros past the stream: digit 0, which the masks pass
  // leaves out by the length).
  uint planes = 0u;
  PLANE_BITS(t0.x, 0) PLANE_BITS(t0.z, 1) PLANE_BITS(t1.x, 2) PLANE_BITS(t1.z, 3)
  PLANE_BITS(t2.x, 4) PLANE_BITS(t2.z, 5) PLANE_BITS(t3.x, 6) PLANE_BITS(t3.z, 7)
  outPositions[ATTACHMENTS] = uvec4(planes, 0u, 0u, 0u);
#endif
  // Fragment outputs take constant indices only (no loop, even an unrolled one, in ANGLE).
  outPositions[0] = t0;
  outPositions[1] = t1;
  outPositions[2] = t2;
  outPositions[3] = t3;
#if ATTACHMENTS == 8
  outPositions[4] = t4;
  outPositions[5] = t5;
  outPositions[6] = t6;
  outPositions[7] = t7;
#endif
}
