#version 300 es
// Reduce step of the reduce-then-scan prefix sum (src/scan/reduce-then-scan.ts): entry g of the
// level above sums entries g*FAN_IN .. g*FAN_IN+FAN_IN-1 of the level below, added in order inside
// this one fragment. Each pass shrinks the stream FAN_IN-fold instead of halving it, so 2^24
// elements need three of them, and one fragment does FAN_IN elements' work: the per-fragment cost,
// not memory, bounds these passes on a GPU. Entries past u_belowCount read as 0.
precision highp float;
precision highp int;
precision highp usampler2D;

#include "texel-index.glsl"
#include "value-arithmetic.glsl"
#include "scan-input.glsl"

uniform usampler2D u_below;
uniform int u_belowCount;       // entries of the level below (its texture may hold more texels)
uniform int u_belowWidthLog2;
uniform int u_widthLog2;        // this level's texture
out uvec4 outValue;

void main() {
  uint first = indexOf(ivec2(gl_FragCoord.xy), uint(u_widthLog2)) * uint(FAN_IN);
  // A group never straddles a row: rows hold a multiple of FAN_IN entries, or the level is one row.
  ivec2 texel = texelOf(first, uint(u_belowWidthLog2));
  uvec4 sum = uvec4(0u);
  // A constant trip count and unconditional fetches let the compiler issue the fetches together
  // (a loop of dependent fetches pays the memory latency once per element); the select drops the
  // entries past the count afterwards.
  for (int k = 0; k < FAN_IN; ++k) {
    uvec4 entry = scanInput(u_below, texel + ivec2(k, 0));
    sum = first + uint(k) < uint(u_belowCount) ? addValues(sum, entry) : sum;
  }
  outValue = sum;
}
