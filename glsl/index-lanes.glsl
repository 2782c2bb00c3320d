// Input positions as the radix sort's last select writes them (radix-select.frag, WRITE_INDICES):
// position j is lane j % lanes of texel j / lanes of a TEXTURE_2D_ARRAY, four lanes to a texel and a
// layer per four lanes (lanes = 4 · attachments). Read where they lie by gather.frag (INDEX_LANES)
// and copied out by radix-order.frag. Needs texel-index.glsl (texelOf) included before it.
precision highp usampler2DArray;

uint laneAt(usampler2DArray lanesTexture, uint lanesWidthLog2, uint lanes, uint j) {
  uint lane = j % lanes;
  return texelFetch(lanesTexture, ivec3(texelOf(j / lanes, lanesWidthLog2), int(lane >> 2)), 0)[lane & 3u];
}
