// HistoPyramid levels (compact/histopyramid.ts), in the linear index. A level's entries are counts;
// entry e of level k+1 is the sum of the FANOUT entries FANOUT*e .. FANOUT*e+FANOUT-1 of level k.
// Every level except the kept flags is packed: texel t (RGBA32UI) holds entries 4t..4t+3, so one
// fetch reads four children. Textures are row-major with power-of-two widths (read from the texture
// itself, so no per-level uniform is needed).

// GLSL ES 3.00 has no findMSB; log2 of a power of two <= 2^15 is exact to far below the rounding.
uint levelWidthLog2(usampler2D level) {
  return uint(round(log2(float(textureSize(level, 0).x))));
}

uvec4 levelTexel(usampler2D level, uint widthLog2, uint t) {
  return texelFetch(level, texelOf(t, widthLog2), 0);
}

uint sum4(uvec4 v) {
  return v.x + v.y + v.z + v.w;
}

// Which of a texel's four entries holds rank c (c < their sum), branch-free; c becomes the rank
// within that entry. Empty entries are never chosen: their running prefix equals the one before.
uint chooseEntry(uvec4 v, inout uint c) {
  uint p1 = v.x, p2 = p1 + v.y, p3 = p2 + v.z;
  uint j = uint(c >= p1) + uint(c >= p2) + uint(c >= p3);
  c -= j == 0u ? 0u : j == 1u ? p1 : j == 2u ? p2 : p3;
  return j;
}
