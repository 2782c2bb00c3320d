// glcompact stream access, GLSL ES 3.00 (exported as `streamGlsl`): paste it into your own vertex or
// fragment shader, after `#version 300 es` and your precision statements, to read a stream with no
// readback to the CPU. Bind `stream.texture` and `stream.lengthTexture` to two usampler2D uniforms
// (declare them `uniform highp usampler2D ...;`).
//
// Layout: element i sits at texel (i mod width, i div width) of `stream.texture`, whose width is a
// power of two; elements are raw 32-bit patterns: uintBitsToFloat() them for float32 streams,
// int() for int32 ones. A 1-component stream holds its element in the red word.

// The stream's length: the one texel of `stream.lengthTexture` (for a compaction's output, the count
// the GPU computed; it never has to come back to the CPU).
highp uint glcompactLength(highp usampler2D lengthTexture) {
  return texelFetch(lengthTexture, ivec2(0), 0).r;
}

// Where element i sits in `stream.texture`.
highp ivec2 glcompactTexel(highp usampler2D values, highp uint i) {
  highp uint width = uint(textureSize(values, 0).x);
  return ivec2(int(i % width), int(i / width)); // exact integer division (no findMSB in ES 3.00)
}

// Element i's 32-bit words (red only for 1-component streams). Only i < glcompactLength(...) are
// elements of the stream; what lies past the length is not.
highp uvec4 glcompactElement(highp usampler2D values, highp uint i) {
  return texelFetch(values, glcompactTexel(values, i), 0);
}

// Element i of a float32 stream (4 components; .x only for a 1-component stream).
highp vec4 glcompactFloatElement(highp usampler2D values, highp uint i) {
  return uintBitsToFloat(glcompactElement(values, i));
}
