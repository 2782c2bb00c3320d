// Builds an app's own WebGL2 program (the app's side of a shared context: raw GL, no engine);
// used by the demo pages and by the tests that play the app.
// Throws with the driver's log if it does not build.
export function compileProgram(gl: WebGL2RenderingContext, vertex: string, fragment: string, what: string): WebGLProgram {
  const program = gl.createProgram()!;
  for (const [type, source] of [[gl.VERTEX_SHADER, vertex], [gl.FRAGMENT_SHADER, fragment]] as const) {
    const shader = gl.createShader(type)!;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`${what} shader: ${gl.getShaderInfoLog(shader)}`);
    gl.attachShader(program, shader);
    gl.deleteShader(shader); // flagged: it goes with the program
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`${what} program: ${gl.getProgramInfoLog(program)}`);
  return program;
}
