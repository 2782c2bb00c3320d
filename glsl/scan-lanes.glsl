// The lanes of the reduce-then-scan (src/scan/reduce-then-scan.ts). A group of LANES consecutive
// entries keeps the running sums of its entries (its "lanes") in texel `group` of every layer of a
// TEXTURE_2D_ARRAY that was ATTACHMENTS colour attachments of the pass writing them: lane k sits in
// layer k / LANES_PER_TEXEL, component k % LANES_PER_TEXEL. One-component streams pack four lanes
// per RGBA32UI texel (LANES = 4 · ATTACHMENTS), four-component ones take a texel each (LANES =
// ATTACHMENTS). The last lane is the group's total.
#define LANES (ATTACHMENTS * LANES_PER_TEXEL)

uvec4 laneOfTexel(uvec4 texel, uint lane) {
#if LANES_PER_TEXEL == 4
  return uvec4(texel[lane % 4u], 0u, 0u, 0u);
#else
  return texel;
#endif
}

uvec4 laneValue(usampler2DArray lanes, uint group, uint lane, uint widthLog2) {
  return laneOfTexel(texelFetch(lanes, ivec3(texelOf(group, widthLog2), int(lane / uint(LANES_PER_TEXEL))), 0), lane);
}

// Lanes written by a pass of one attachment (four one-component lanes per group) are a TEXTURE_2D:
// the texel of the group holds them all.
uvec4 laneValue(usampler2D lanes, uint group, uint lane, uint widthLog2) {
  return laneOfTexel(texelFetch(lanes, texelOf(group, widthLog2), 0), lane);
}
