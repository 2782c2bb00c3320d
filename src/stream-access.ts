// The GLSL an app pastes into its own shaders to read a stream on the GPU (glsl/stream-access.glsl).
import source from '../glsl/stream-access.glsl';

/**
 * GLSL ES 3.00 source to paste into your own vertex or fragment shader (after `#version 300 es` and
 * the precision statements), to read a stream on the GPU with no readback. It declares four
 * functions and nothing else (no uniforms, no `main`):
 *
 * ```glsl
 * // The stream's length: bind stream.lengthTexture (a compaction's count stays on the GPU).
 * highp uint glcompactLength(highp usampler2D lengthTexture);
 * // Element i's raw 32-bit words (red only for 1-component streams): bind stream.texture.
 * highp uvec4 glcompactElement(highp usampler2D values, highp uint i);
 * // The same as floats, for float32 streams (.x only for 1-component streams).
 * highp vec4 glcompactFloatElement(highp usampler2D values, highp uint i);
 * // Where element i sits in stream.texture: (i mod width, i div width).
 * highp ivec2 glcompactTexel(highp usampler2D values, highp uint i);
 * ```
 *
 * Declare the two textures `uniform highp usampler2D …;`. Only `i < glcompactLength(…)` are
 * elements; a draw of the stream's capacity (`stream.layout.capacity` vertices or instances) moves
 * every index at or past the length outside clip space.
 * @example
 * ```ts
 * const vertexShader = `#version 300 es
 * precision highp float;
 * ${streamGlsl}
 * uniform highp usampler2D points;      // result.stream.texture
 * uniform highp usampler2D pointCount;  // result.stream.lengthTexture
 * void main() {
 *   uint i = uint(gl_VertexID);
 *   if (i >= glcompactLength(pointCount)) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
 *   gl_Position = vec4(glcompactFloatElement(points, i).xy, 0.0, 1.0);
 *   gl_PointSize = 1.0;
 * }`;
 * gl.drawArrays(gl.POINTS, 0, result.stream.layout.capacity); // no count on the CPU
 * ```
 */
export const streamGlsl: string = source.replace(/\n\/\/ @sources [^\n]*\n?$/, '\n');
