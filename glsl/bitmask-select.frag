#version 300 es
// Select step of the bitmask compaction (src/compact/bitmask.ts) where a pass writes 4 or more
// attachments: fragment f finds the input positions of the kept elements of ranks f·RANKS ..
// f·RANKS + RANKS - 1 (RANKS = 4 · ATTACHMENTS: 32 with 8) and writes them, four per RGBA32UI
// texel, to the layers of a TEXTURE_2D_ARRAY; the output pass then reads one position per element
// (bitmask-gather.frag, POSITIONS) instead of searching the words' counts for it. One binary search
// finds the word holding the first rank; the next ranks follow by clearing the lowest set bit and
// moving on to the next word when one runs out: one search per RANKS elements, not one each.
// SELECTED_VALUES (one-component streams): the values at those positions instead, fetched here
// together, so that the output pass copies a lane rather than fetching a position and then the
// value at it.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "bit-count.glsl"
#include "bitmask-words.glsl"

#define RANKS (4 * ATTACHMENTS)

uniform int u_widthLog2;   // this pass's texels: one per RANKS ranks
flat in uint v_keptCount;  // kept-rows.vert
layout(location = 0) out uvec4 outPositions[ATTACHMENTS];

#ifdef SELECTED_VALUES
uniform usampler2D u_values;
uniform int u_valuesWidthLog2;

uvec4 valuesAt(uvec4 positions) {
  uint widthLog2 = uint(u_valuesWidthLog2);
  return uvec4(texelFetch(u_values, texelOf(positions.x, widthLog2), 0).r, texelFetch(u_values, texelOf(positions.y, widthLog2), 0).r,
               texelFetch(u_values, texelOf(positions.z, widthLog2), 0).r, texelFetch(u_values, texelOf(positions.w, widthLog2), 0).r);
}
#endif

// Rank `first + k`: the next set bit of `rest`, moving on to the next word when it is empty. One
// step only: a second empty word in a row marks the fragment `sparse` (its positions are then wrong
// and the walk below takes over). Written out once per rank (no loop: the walk's steps stay in
// registers, and on the H200 a loop over the ranks took 2.0-2.5 ms at 2^24 against ~0.95 ms), and
// loop-free, which keeps the shader quick to compile (Mesa's llvmpipe took minutes over 32 copies of
// a loop). (One line: headless-gl's ANGLE rejects line continuations.)
#define RANK(k, lane) { uint position = 0u; if (first + uint(k) < v_keptCount) { if (rest == 0u) { w += 1u; rest = wordAt(w); sparse = sparse || rest == 0u; } position = w * 32u + lowestBit(rest); rest &= rest - 1u; } lane = position; }
#define TEXEL(a, texel) RANK(4 * (a), texel.x) RANK(4 * (a) + 1, texel.y) RANK(4 * (a) + 2, texel.z) RANK(4 * (a) + 3, texel.w)

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2)) * uint(RANKS);
  uint count = 0u;
  uint w = wordHolding(min(first, v_keptCount - 1u), 0u, uint(u_wordCount) - 1u, count);
  if (count == 0u) count = wordCountUpTo(w);
  uint word = wordAt(w);
  // The walk: word w, its kept bits not handed out yet (those of the ranks before `first` dropped).
  uint before = count - bitCount32(word);
  uint skip = first - before;
  uint rest = skip == 0u ? word : word & ~((2u << selectBit(word, skip - 1u)) - 1u);
  uint startWord = w;
  uint startRest = rest;
  bool sparse = false;
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
  if (sparse) {
    // Empty words in a row (few kept): the same walk as one loop over its steps, skipping any
    // number of empty words; rank k's position goes into its lane by a comparison per lane (a
    // local array indexed by k would leave the registers).
    w = startWord;
    rest = startRest;
    t0 = uvec4(0u); t1 = uvec4(0u); t2 = uvec4(0u); t3 = uvec4(0u);
    t4 = uvec4(0u); t5 = uvec4(0u); t6 = uvec4(0u); t7 = uvec4(0u);
    uint end = first < v_keptCount ? min(uint(RANKS), v_keptCount - first) : 0u;
    uint k = 0u;
    while (k < end) {
      if (rest == 0u) {
        w += 1u;
        rest = wordAt(w);
        continue;
      }
      uvec4 at = (w * 32u + lowestBit(rest)) * uvec4(equal(uvec4(k & 3u), uvec4(0u, 1u, 2u, 3u)));
      rest &= rest - 1u;
      uint texel = k >> 2;
      t0 += texel == 0u ? at : uvec4(0u);
      t1 += texel == 1u ? at : uvec4(0u);
      t2 += texel == 2u ? at : uvec4(0u);
      t3 += texel == 3u ? at : uvec4(0u);
      t4 += texel == 4u ? at : uvec4(0u);
      t5 += texel == 5u ? at : uvec4(0u);
      t6 += texel == 6u ? at : uvec4(0u);
      t7 += texel == 7u ? at : uvec4(0u);
      k += 1u;
    }
  }
#ifdef SELECTED_VALUES
  // Ranks past the count have position 0: the output pass writes 0 there, whatever their lanes hold.
  t0 = valuesAt(t0); t1 = valuesAt(t1); t2 = valuesAt(t2); t3 = valuesAt(t3);
#if ATTACHMENTS == 8
  t4 = valuesAt(t4); t5 = valuesAt(t5); t6 = valuesAt(t6); t7 = valuesAt(t7);
#endif
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
