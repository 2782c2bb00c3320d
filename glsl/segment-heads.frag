#version 300 es
// First pass of a scan with segments (engine.scan(stream, { segments })): each element's own
// position if it starts a segment (element 0 always does; element i where the first component of
// segments[i] is not zero: as a value for float32 segments, so -0.0 is zero; as bits otherwise),
// else 0. segment-heads-step.frag then spreads each start to its whole segment (a max-scan).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"

uniform usampler2D u_segments;
uniform int u_segmentsWidthLog2;
uniform int u_widthLog2;          // the stream's (and this target's)
out uvec4 outValue;

void main() {
  uint i = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  uint flag = texelFetch(u_segments, texelOf(i, uint(u_segmentsWidthLog2)), 0).r;
#ifdef FLOAT_SEGMENTS
  bool starts = uintBitsToFloat(flag) != 0.0;
#else
  bool starts = flag != 0u;
#endif
  outValue = uvec4(i == 0u || starts ? i : 0u);
}
