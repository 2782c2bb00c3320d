#version 300 es
// HistoPyramid traversal (Ziegler 2006, Dyken 2008) over the linear index: output texel c starts at
// the top and, at each level, walks the node's FANOUT children in order (four per fetch), taking
// the child whose running prefix contains c, down to the c-th kept element. Children are
// consecutive elements, so the output keeps the input's order. Positions past the kept count (the
// top's single entry) are padding: 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "compacted-element.glsl"
#include "histopyramid-level.glsl"

uniform usampler2D u_top;              // 1x1: the kept count
uniform usampler2D u_levels[LEVELS];   // packed levels, 0 .. LEVELS-1 (<= TOP_ENTRIES entries)
uniform usampler2D u_flags;            // the kept flags (one per element; level 0 counts FANOUT of them per entry)
out uvec4 outValue;

// The child of entry e (one level up) that holds rank c: its TEXELS texels of four entries each are
// walked in order; c becomes the rank within the child. The last texel's sum needs no check.
uint childEntry(usampler2D level, int texels, uint e, inout uint c) {
  uint widthLog2 = levelWidthLog2(level);
  uint first = e * uint(texels);
  for (int i = 0; i < texels - 1; ++i) {
    uvec4 v = levelTexel(level, widthLog2, first + uint(i));
    uint sum = sum4(v);
    if (c < sum) return 4u * (first + uint(i)) + chooseEntry(v, c);
    c -= sum;
  }
  uint last = first + uint(texels - 1);
  return 4u * last + chooseEntry(levelTexel(level, widthLog2, last), c);
}

void main() {
  uint c = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  if (c >= texelFetch(u_top, ivec2(0), 0).r) { outValue = uvec4(0u); return; }
  // The top's children: the (at most TOP_ENTRIES) entries of the highest packed level.
  uint e = childEntry(u_levels[LEVELS - 1], TOP_ENTRIES / 4, 0u, c);
  // Sampler arrays take constant indices only (GLSL ES 3.00), hence one line per level.
#if LEVELS > 15
#error more HistoPyramid levels than this pass unrolls
#endif
#if LEVELS > 14
  e = childEntry(u_levels[13], FANOUT / 4, e, c);
#endif
#if LEVELS > 13
  e = childEntry(u_levels[12], FANOUT / 4, e, c);
#endif
#if LEVELS > 12
  e = childEntry(u_levels[11], FANOUT / 4, e, c);
#endif
#if LEVELS > 11
  e = childEntry(u_levels[10], FANOUT / 4, e, c);
#endif
#if LEVELS > 10
  e = childEntry(u_levels[9], FANOUT / 4, e, c);
#endif
#if LEVELS > 9
  e = childEntry(u_levels[8], FANOUT / 4, e, c);
#endif
#if LEVELS > 8
  e = childEntry(u_levels[7], FANOUT / 4, e, c);
#endif
#if LEVELS > 7
  e = childEntry(u_levels[6], FANOUT / 4, e, c);
#endif
#if LEVELS > 6
  e = childEntry(u_levels[5], FANOUT / 4, e, c);
#endif
#if LEVELS > 5
  e = childEntry(u_levels[4], FANOUT / 4, e, c);
#endif
#if LEVELS > 4
  e = childEntry(u_levels[3], FANOUT / 4, e, c);
#endif
#if LEVELS > 3
  e = childEntry(u_levels[2], FANOUT / 4, e, c);
#endif
#if LEVELS > 2
  e = childEntry(u_levels[1], FANOUT / 4, e, c);
#endif
#if LEVELS > 1
  e = childEntry(u_levels[0], FANOUT / 4, e, c);
#endif
  // Level 0 counts FANOUT flags per entry: walk them one by one (the last needs no fetch).
  uint first = e * uint(FANOUT);
  e = first + uint(FANOUT - 1);
  for (int i = 0; i < FANOUT - 1; ++i) {
    uint kept = texelFetch(u_flags, texelOf(first + uint(i), uint(u_widthLog2)), 0).r;
    if (c < kept) { e = first + uint(i); break; }
    c -= kept;
  }
  outValue = compactedElement(texelOf(e, uint(u_widthLog2)));
}
