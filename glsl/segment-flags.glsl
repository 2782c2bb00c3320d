// Where segments start, for a scan with segments (engine.scan(stream, { segments })). At the first
// level the user's segments stream: element i starts a segment where the first component of
// segments[i] is not zero (as a value for float32 segments, so -0.0 is zero; as bits otherwise).
// At the levels above, one texel per group of the level below: 1 where a segment starts in it.
uniform usampler2D u_flags;
uniform int u_flagsWidthLog2;

bool startsSegment(uint index) {
  uint flag = texelFetch(u_flags, texelOf(index, uint(u_flagsWidthLog2)), 0).r;
#ifdef FLOAT_SEGMENTS
  return uintBitsToFloat(flag) != 0.0;
#else
  return flag != 0u;
#endif
}
