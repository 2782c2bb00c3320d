// What a reduce-then-scan adds up at level 0 (src/scan/reduce-then-scan.ts): the texel itself, or
// with POPCOUNT_INPUT the number of kept flags in its word (flags packed 32 to a word by
// glsl/bitmask-pack-words.frag), so a compaction scans word counts without writing them first.
#include "bit-count.glsl"

uvec4 scanInput(usampler2D level, ivec2 texel) {
  uvec4 value = texelFetch(level, texel, 0);
#if defined(POPCOUNT_INPUT)
  return uvec4(bitCount32(value.r), 0u, 0u, 0u);
#else
  return value;
#endif
}
