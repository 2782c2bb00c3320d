#version 300 es
// Gathers the last element of every block (its inclusive total) into a smaller stream, one texel
// per block: the input of the scan one level up (global scan), or, with MASK_KEPT_BIT on the
// max-allowable-size stream, each block's kept count MAS[b-1] (the concatenation's input).
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "kept-bit.glsl"

uniform usampler2D u_blockScan;
uniform int u_blockLog2;
uniform int u_inputWidthLog2;
uniform int u_outputWidthLog2;
uniform int u_blockCount;
out uvec4 outValue;

void main() {
  uint block = indexOf(ivec2(gl_FragCoord.xy), uint(u_outputWidthLog2));
  if (block >= uint(u_blockCount)) { outValue = uvec4(0u); return; }
  uint last = (block << uint(u_blockLog2)) + (1u << uint(u_blockLog2)) - 1u;
  uvec4 total = texelFetch(u_blockScan, texelOf(last, uint(u_inputWidthLog2)), 0);
#ifdef MASK_KEPT_BIT
  total.r &= MAS_MASK;
#endif
  outValue = total;
}
