// How the user's keep() sees an element: decoded from its raw bits into the stream's own type
// (exact for every 32-bit value), for every pass that runs the keep test.

// The element's words: only the stream's own components, the others 0.
uvec4 componentBits(uvec4 bits) {
#if COMPONENTS == 1
  return uvec4(bits.r, 0u, 0u, 0u);
#else
  return bits;
#endif
}

// The element as the user's keep() sees it, in the stream's own type (exact for every 32-bit value).
#if defined(FLOAT_VALUES)
vec4 decodeValue(uvec4 bits) { return uintBitsToFloat(componentBits(bits)); }
#elif defined(INT_VALUES)
ivec4 decodeValue(uvec4 bits) { return ivec4(componentBits(bits)); }
#else
uvec4 decodeValue(uvec4 bits) { return componentBits(bits); }
#endif
