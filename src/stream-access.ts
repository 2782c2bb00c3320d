// The GLSL an app pastes into its own shaders to read a stream on the GPU (glsl/stream-access.glsl).
import source from '../glsl/stream-access.glsl';

/**
 * GLSL ES 3.00 functions to read a stream in your own shader, with no readback:
 * `uint glcompactLength(highp usampler2D lengthTexture)` (bind `stream.lengthTexture`),
 * `uvec4 glcompactElement(highp usampler2D values, uint i)` (bind `stream.texture`),
 * `vec4 glcompactFloatElement(highp usampler2D values, uint i)` (the same, as floats) and
 * `ivec2 glcompactTexel(highp usampler2D values, uint i)`. Insert it after `#version 300 es` and the
 * precision statements. A vertex shader that draws a stream's capacity (`stream.layout.capacity`
 * vertices or instances) moves every index ≥ glcompactLength(...) outside clip space.
 */
export const streamGlsl: string = source.replace(/\n\/\/ @sources [^\n]*\n?$/, '\n');
