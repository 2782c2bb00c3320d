// A sort key: the element's first word as an unsigned integer whose order is the sort's order
// (element-order.glsl: Float32Array.prototype.sort's for floats, NaN last). DESCENDING reverses
// every key but a float NaN's, which stays last, as Float32Array.prototype.sort keeps it.
#include "element-order.glsl"

uint sortKey(uint bits) {
  uint key = orderKey(bits);
#ifdef DESCENDING
#ifdef FLOAT_VALUES
  if (key == 0xffffffffu) return key;   // NaN (no other float has this key)
#endif
  key = ~key;
#endif
  return key;
}

#ifndef FLOAT_VALUES
// The key whose sort key this is (integer keys only: a float NaN's sort key has lost its payload).
uint keyOfSortKey(uint key) {
#ifdef DESCENDING
  key = ~key;
#endif
#ifdef INT_VALUES
  key ^= 0x80000000u;
#endif
  return key;
}
#endif
