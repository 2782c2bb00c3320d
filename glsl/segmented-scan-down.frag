#version 300 es
// Down a level of a scan with segments: entry i's running sum within its segment. It adds the
// entries of its group from itself back to the segment's start; where the group holds no start at or
// before it, also what flows into the group: the running sum of the entry before the group one level
// up (CARRY; the top level has no carry). At the first level this is the result: EXCLUSIVE starts
// from the entry before i (0 where i starts a segment), and padding past the stream's length is 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "value-arithmetic.glsl"
#include "segment-flags.glsl"
#ifdef RESULT
#include "stream-length.glsl"
#endif

uniform usampler2D u_values;  // this level's entries, in this target's layout
#ifdef CARRY
uniform usampler2D u_carry;       // the level above's running sums
uniform usampler2D u_groupFlags;  // the level above's starts (same layout)
uniform int u_carryWidthLog2;
#endif
uniform int u_widthLog2;      // this level's (the values' and this target's)
out uvec4 outValue;

void main() {
  uint i = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
#ifdef RESULT
  if (i >= streamLength()) { outValue = uvec4(0u); return; }
#endif
  uint group = i >> uint(GROUP_LOG2);
  uint groupStart = group << uint(GROUP_LOG2);
  uvec4 sum = uvec4(0u);
  bool started = false;
#ifdef CARRY
  // Most groups hold no start (with a start every 256th element, 97 % of groups of 8): then their
  // entries' starts need no fetch.
  bool groupHasStart = texelFetch(u_groupFlags, texelOf(group, uint(u_carryWidthLog2)), 0).r != 0u;
#else
  bool groupHasStart = true;
#endif
#ifdef EXCLUSIVE
  // Element 0 always starts a segment; so does one whose flag is set: nothing before it counts.
  started = i == 0u || (groupHasStart && startsSegment(i));
  uint last = i - 1u;         // the entries summed: groupStart .. i - 1 (none where i == groupStart)
  int entries = started ? 0 : int(i - groupStart);
#else
  uint last = i;
  int entries = int(i - groupStart) + 1;
#endif
  for (int k = 0; k < (1 << GROUP_LOG2); ++k) {
    if (k >= entries) break;
    uint index = last - uint(k);
    sum = addValues(sum, texelFetch(u_values, texelOf(index, uint(u_widthLog2)), 0));
    if (groupHasStart && startsSegment(index)) { started = true; break; }
  }
#ifdef CARRY
  if (!started && group > 0u) sum = addValues(sum, texelFetch(u_carry, texelOf(group - 1u, uint(u_carryWidthLog2)), 0));
#endif
  outValue = sum;
}
