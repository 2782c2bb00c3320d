#version 300 es
// Radix sort, per digit (src/sort.ts): output position p fetches the element that moves there (a
// gather: one point drawn per element to scatter it instead runs at ~0.6 G points/s on an H100,
// bench/scatter-probe.ts). p's digit and rank come from the scanned counts (radix-rank.glsl); the
// counted group of blocks holding its element from the directory (radix-directory.frag: the group of
// the first of p's 2^DIRECTORY_SHIFT outputs) where that output has p's digit, by a gallop (groups g,
// g+1, g+3, ...) and a search of the last stride; otherwise (no directory, or the digit changes among
// those outputs) by a binary search over all groups. The group's masks of the digit
// (radix-digit-masks.frag) then give the block and the element: its set bit of the right rank. Elements of one digit keep their order
// (stable). Writes the pair (sort key, input position); the last digit only the input position
// (LAST_DIGIT), from which the keys and values are gathered. Positions past the length write 0.
// With POSITIONS, radix-select.frag found where p's element is, and p only fetches it.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"
#include "radix-element.glsl"
#include "radix-rank.glsl"

#ifdef POSITIONS
// radix-select.frag's output: the element moving to position p in lane p % RANKS of texel p / RANKS.
precision highp usampler2DArray;
uniform usampler2DArray u_positions;
uniform int u_positionsWidthLog2;
#define RANKS (4 * ATTACHMENTS)
#endif
out uvec4 outValue;

void main() {
  uint p = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  if (p >= streamLength()) { outValue = uvec4(0u); return; }
#ifdef POSITIONS
  uint lane = p % uint(RANKS);
  uvec4 positions = texelFetch(u_positions, ivec3(texelOf(p / uint(RANKS), uint(u_positionsWidthLog2)), int(lane / 4u)), 0);
  uvec2 element = elementAt(positions[lane % 4u]);
#else
#ifdef DIRECTORY
  uint entry = directoryEntry(p);
#endif
  Place place = placeOf(p);
#ifdef DIRECTORY
  uint group = groupFromDirectory(place, p, entry);
#else
  uint group = groupHolding(place, 0u, uint(u_groups) - 1u);
#endif
  uvec2 element = elementAt(elementOf(place, blockIn(place, group)));
#endif
#ifdef LAST_DIGIT
  outValue = uvec4(element.y);
#else
  outValue = uvec4(element, 0u, 0u);
#endif
}
