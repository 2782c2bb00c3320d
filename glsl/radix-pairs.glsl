// The pairs a radix sort's select places (radix-select.frag WRITE_PAIRS), two per RGBA32UI texel
// across `layers` layers of a TEXTURE_2D_ARRAY: pair i lies in texel i / (2·layers) of layer
// (i % (2·layers)) / 2, as .xy for even i and .zw for odd. Read by the next digit (radix-element.glsl,
// ELEMENT_LAYERS) and, where the pairs carry the values, copied out by radix-unpair.frag. Needs
// texel-index.glsl (texelOf) included before it.
precision highp usampler2DArray;

// The texel holding pairs i and i ^ 1.
uvec4 pairTexel(usampler2DArray pairs, uint widthLog2, uint layers, uint i) {
  uint k = i % (2u * layers);
  return texelFetch(pairs, ivec3(texelOf(i / (2u * layers), widthLog2), int(k >> 1)), 0);
}

// Pair i of the texel holding it.
uvec2 pairIn(uvec4 texel, uint i) { return (i & 1u) == 0u ? texel.xy : texel.zw; }
