// Drawing a compacted stream with no readback (shown in the README): the vertex shader reads the
// count from the GPU, so the draw covers the stream's capacity and culls what lies past the count.
import { streamGlsl } from 'glcompact';

export const liveParticlesVertexShader = `#version 300 es
precision highp float;
${streamGlsl}
uniform highp usampler2D particles;  // result.stream.texture: x, y, z, life per live particle
uniform highp usampler2D liveCount;  // result.stream.lengthTexture: their number, on the GPU
void main() {
  uint i = uint(gl_VertexID);
  gl_PointSize = 1.0;
  if (i >= glcompactLength(liveCount)) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // past the count: outside clip space, not drawn
    return;
  }
  vec4 particle = glcompactFloatElement(particles, i);
  gl_Position = vec4(particle.xy, 0.0, 1.0);
}`;

/** Draws the live particles of `live` (an engine.compact() result) with `program` (the shader above). */
export function drawLiveParticles(gl, program, live) {
  gl.useProgram(program);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, live.stream.texture);
  gl.uniform1i(gl.getUniformLocation(program, 'particles'), 0);
  gl.activeTexture(gl.TEXTURE1);
  gl.bindTexture(gl.TEXTURE_2D, live.stream.lengthTexture);
  gl.uniform1i(gl.getUniformLocation(program, 'liveCount'), 1);
  gl.drawArrays(gl.POINTS, 0, live.stream.layout.capacity); // no count on the CPU
}
