// Textures an app makes with its own passes (a Hi-Z pyramid, a visibility mask), for the tests of
// keep.textures. NEAREST filtering, one level: texelFetch and textureLod(…, 0.0) read them exactly.

/**
 * An integer texture drawn by the app's own pass from `expression` of k = y * side + x (headless-gl
 * cannot upload integer textures, adapter.ts; an app's Hi-Z or visibility texture is drawn anyway).
 */
export function drawnTexture(gl: WebGL2RenderingContext, kind: 'int' | 'uint', expression: string, side: number): WebGLTexture {
  const texture = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, kind === 'int' ? gl.R32I : gl.R32UI, side, side);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST); // integer textures: NEAREST or incomplete
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.bindTexture(gl.TEXTURE_2D, null);
  const compile = (type: number, source: string) => {
    const shader = gl.createShader(type)!;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    return shader;
  };
  const program = gl.createProgram()!;
  gl.attachShader(program, compile(gl.VERTEX_SHADER, '#version 300 es\nvoid main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }'));
  const out = kind === 'int' ? 'ivec4' : 'uvec4';
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, `#version 300 es\nprecision highp float;\nprecision highp int;\nout ${out} o;\nvoid main() { uint k = uint(gl_FragCoord.y) * ${side}u + uint(gl_FragCoord.x); o = ${out}(${expression}); }`));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`test pass: ${gl.getProgramInfoLog(program)}`);
  const framebuffer = gl.createFramebuffer();
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  gl.viewport(0, 0, side, side);
  gl.useProgram(program);
  const vertexArray = gl.createVertexArray();
  gl.bindVertexArray(vertexArray);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  gl.bindVertexArray(null);
  gl.useProgram(null);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.deleteVertexArray(vertexArray);
  gl.deleteFramebuffer(framebuffer);
  gl.deleteProgram(program);
  return texture;
}
