// What a compaction writes for the kept element found at texel `source`: its value bits, or
// (OUTPUT_INDICES) its position in the input stream.
uniform usampler2D u_values;
uniform int u_widthLog2;

uvec4 compactedElement(ivec2 source) {
#ifdef OUTPUT_INDICES
  return uvec4(indexOf(source, uint(u_widthLog2)));
#else
  return texelFetch(u_values, source, 0);
#endif
}
