// Every stream is stored as raw 32-bit patterns in unsigned-integer textures (R32UI / RGBA32UI), so
// copies are bit-exact whatever the payload (NaN, -0, denormals). Sums interpret the bits: float
// streams add as IEEE floats, integer streams add as uint32, which wraps mod 2^32 and is also the
// exact two's-complement sum for int32.
#ifdef FLOAT_VALUES
uvec4 addValues(uvec4 a, uvec4 b) {
  return floatBitsToUint(uintBitsToFloat(a) + uintBitsToFloat(b));
}
#else
uvec4 addValues(uvec4 a, uvec4 b) {
  return a + b;
}
#endif
