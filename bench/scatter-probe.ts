// Probe for the sort's scatter (issue 22): where does a digit's time go? One point per element
// drawn into an R32UI target, with (a) a trivial vertex shader and identity positions, (b) a
// random permutation, (c) the sort's 16 key fetches per vertex, identity positions; against (d) a
// full-screen pass chasing 16 dependent fetches (a gather by binary search) and (e) a copy pass.
// Usage: node bench/build-probe.mjs scatter-probe && node bench/tmp/scatter-probe.mjs [--log2n 20]
import { parseArgs } from 'node:util';
import { createEngine } from '../src/index.js';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';

const { values } = parseArgs({ options: { log2n: { type: 'string', default: '20' }, repeats: { type: 'string', default: '15' } } });
const n = 2 ** Number(values.log2n);
const width = 2048;
const height = n / width;
const gl = createHeadlessContext();
const engine = createEngine(gl, { maxTextureSize: 8192, texturePoolBytes: 2 ** 30 });
const keys = engine.stream(Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 1, 2654435761) >>> 0));

function compile(vertex: string, fragment: string): WebGLProgram {
  const program = gl.createProgram()!;
  for (const [type, source] of [[gl.VERTEX_SHADER, vertex], [gl.FRAGMENT_SHADER, fragment]] as const) {
    const shader = gl.createShader(type)!;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader) ?? '');
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program) ?? '');
  return program;
}
const head = '#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp usampler2D;\n';
const pointFragment = `${head}flat in uint v; out uvec4 o; void main() { o = uvec4(v); }`;
const place = `gl_PointSize = 1.0; gl_Position = vec4((vec2(float(p & ${width - 1}u), float(p >> ${Math.log2(width)}u)) + 0.5) / vec2(${width}.0, ${height}.0) * 2.0 - 1.0, 0.0, 1.0);`;
const points = {
  'points, identity, trivial VS': `${head}flat out uint v; void main() { uint p = uint(gl_VertexID); v = p; ${place} }`,
  'points, random permutation, trivial VS': `${head}flat out uint v; void main() { uint p = (uint(gl_VertexID) * 2654435761u) & ${n - 1}u; v = p; ${place} }`,
  'points, identity, 17 key fetches in VS': `${head}uniform usampler2D k; flat out uint v; void main() { uint p = uint(gl_VertexID); uint f = p & ~15u; uint s = texelFetch(k, ivec2(int(p & ${width - 1}u), int(p >> ${Math.log2(width)}u)), 0).r; uint c = 0u;
    for (int j = 0; j < 16; ++j) { uint q = f + uint(j); c += ((texelFetch(k, ivec2(int(q & ${width - 1}u), int(q >> ${Math.log2(width)}u)), 0).r >> 4u) & 3u) == ((s >> 4u) & 3u) ? 1u : 0u; }
    v = c; ${place} }`,
};
const fullscreen = '#version 300 es\nvoid main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }';
const passes = {
  'fragment pass, 16 dependent fetches': `${head}uniform usampler2D k; out uvec4 o; void main() { uint a = uint(gl_FragCoord.y) * ${width}u + uint(gl_FragCoord.x);
    for (int j = 0; j < 16; ++j) { uint x = texelFetch(k, ivec2(int(a & ${width - 1}u), int((a >> ${Math.log2(width)}u) & ${height - 1}u)), 0).r; a = (a >> 1) + (x & 1023u); }
    o = uvec4(a); }`,
  'fragment pass, copy': `${head}uniform usampler2D k; out uvec4 o; void main() { o = texelFetch(k, ivec2(gl_FragCoord.xy), 0); }`,
};
const target = gl.createTexture();
gl.bindTexture(gl.TEXTURE_2D, target);
gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32UI, width, height);
const framebuffer = gl.createFramebuffer();
gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target, 0);
gl.viewport(0, 0, width, height);
const vertexArray = gl.createVertexArray();
gl.bindVertexArray(vertexArray);
gl.activeTexture(gl.TEXTURE0);
gl.bindTexture(gl.TEXTURE_2D, keys.texture);

function time(program: WebGLProgram, draw: () => void): number {
  gl.useProgram(program);
  const location = gl.getUniformLocation(program, 'k');
  if (location) gl.uniform1i(location, 0);
  draw();
  gl.finish();
  const times: number[] = [];
  for (let r = 0; r < Number(values.repeats); r++) {
    const t0 = performance.now();
    draw();
    gl.finish();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[times.length >> 1]!;
}
console.log(`${headlessRenderer(gl)}; n = 2^${values.log2n}; median ms of ${values.repeats}`);
for (const [name, vertex] of Object.entries(points)) console.log(`${name.padEnd(44)} ${time(compile(vertex, pointFragment), () => gl.drawArrays(gl.POINTS, 0, n)).toFixed(3)}`);
for (const [name, fragment] of Object.entries(passes)) console.log(`${name.padEnd(44)} ${time(compile(fullscreen, fragment), () => gl.drawArrays(gl.TRIANGLES, 0, 3)).toFixed(3)}`);
