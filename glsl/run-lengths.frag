#version 300 es
// engine.runLengthEncode(): run j's length is where run j + 1 starts minus where run j starts (the
// last run ends at the stream's length). u_starts holds the runs' first positions (a compaction's
// indices output, its count on the GPU); texels past the number of runs are padding (0).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "stream-length.glsl"

uniform usampler2D u_starts;
uniform usampler2D u_runsTexture;  // 1x1: the number of runs
uniform int u_widthLog2;           // the starts' layout (also the output's)
out uvec4 outValue;

uint start(uint j) { return texelFetch(u_starts, texelOf(j, uint(u_widthLog2)), 0).r; }

void main() {
  uint j = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2));
  uint runs = texelFetch(u_runsTexture, ivec2(0), 0).r;
  if (j >= runs) { outValue = uvec4(0u); return; }
  uint end = j + 1u < runs ? start(j + 1u) : streamLength();
  outValue = uvec4(end - start(j));
}
