// Streams are stored row-major in textures whose width is a power of two: element i sits at
// texel (i mod W, i div W). With W = 2^widthLog2 both directions are a mask and a shift, exact for
// every uint index (float math would stop being exact at 2^24).
ivec2 texelOf(uint index, uint widthLog2) {
  return ivec2(int(index & ((1u << widthLog2) - 1u)), int(index >> widthLog2));
}

uint indexOf(ivec2 texel, uint widthLog2) {
  return (uint(texel.y) << widthLog2) | uint(texel.x);
}
