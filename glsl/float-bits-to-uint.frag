#version 300 es
// Adapter pass: integer data that could not be uploaded directly (headless-gl rc.10 rejects
// RED_INTEGER uploads) arrives as the same 32-bit patterns in a float texture; reinterpret them.
// The float texture must use NEAREST filtering, else it is incomplete and texelFetch returns 0.
precision highp float;
precision highp int;
uniform highp sampler2D u_floatBits;
out uvec4 outValue;

void main() {
  outValue = floatBitsToUint(texelFetch(u_floatBits, ivec2(gl_FragCoord.xy), 0));
}
