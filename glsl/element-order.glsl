// Elements as unsigned keys whose integer order is the elements' order in their own type, so that
// min, max and sorting compare bits exactly (no float flush of denormals, a defined place for NaN):
// uint as is; int with the sign bit flipped; float in the order of Float32Array.prototype.sort:
// -Inf < negatives < -0 < +0 < positives < +Inf < NaN (every NaN, whatever its payload).
#if defined(FLOAT_VALUES)
uint orderKey(uint bits) {
  if ((bits & 0x7fffffffu) > 0x7f800000u) return 0xffffffffu;           // NaN: last
  return (bits & 0x80000000u) != 0u ? ~bits : (bits | 0x80000000u);
}
#elif defined(INT_VALUES)
uint orderKey(uint bits) { return bits ^ 0x80000000u; }
#else
uint orderKey(uint bits) { return bits; }
#endif
