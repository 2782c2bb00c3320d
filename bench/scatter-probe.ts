// Probe for scattering (issue 22's sort, issue 23's compaction output): what does drawing one
// primitive per element to its own pixel cost, and where does the time go? Into an R32UI target:
// points with no attributes (gl_VertexID), with attribute 0 from a static buffer, instanced, with
// the rasterizer off (vertex work alone), all clipped, as one-pixel triangles, and lines of 32
// pixels; against a full-screen pass chasing 16 dependent fetches and a copy pass.
// Usage: node bench/build-probe.mjs scatter-probe && node bench/tmp/scatter-probe.mjs [--log2n 20]
import { parseArgs } from 'node:util';
import { createHeadlessContext, headlessRenderer } from '../src/node.js';

const { values } = parseArgs({ options: { log2n: { type: 'string', default: '20' }, repeats: { type: 'string', default: '15' } } });
const n = 2 ** Number(values.log2n);
const width = 2048;
const widthLog2 = Math.log2(width);
const height = n / width;
const gl = createHeadlessContext();

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
const pixel = (p: string) => `(vec2(float(${p} & ${width - 1}u), float(${p} >> ${widthLog2}u)) + 0.5) / vec2(${width}.0, ${height}.0) * 2.0 - 1.0`;
const place = `gl_PointSize = 1.0; gl_Position = vec4(${pixel('p')}, 0.0, 1.0);`;
// Element p scattered to a pseudo-random pixel (a bijection), so writes land everywhere.
const scramble = `uint p = (e * 2654435761u) & ${n - 1}u;`;
const indexBuffer = gl.createBuffer();
gl.bindBuffer(gl.ARRAY_BUFFER, indexBuffer);
gl.bufferData(gl.ARRAY_BUFFER, Uint32Array.from({ length: n }, (_, i) => i), gl.STATIC_DRAW);

interface Variant { vertex: string; fragment?: string; draw: () => void; setup?: () => void; teardown?: () => void }
const variants: Record<string, Variant> = {
  'points, gl_VertexID, no attributes': { vertex: `${head}flat out uint v; void main() { uint e = uint(gl_VertexID); ${scramble} v = e; ${place} }`, draw: () => gl.drawArrays(gl.POINTS, 0, n) },
  'points, identity, gl_VertexID': { vertex: `${head}flat out uint v; void main() { uint p = uint(gl_VertexID); v = p; ${place} }`, draw: () => gl.drawArrays(gl.POINTS, 0, n) },
  'points, index from attribute 0': {
    vertex: `${head}layout(location = 0) in uint a_index; flat out uint v; void main() { uint e = a_index; ${scramble} v = e; ${place} }`,
    draw: () => gl.drawArrays(gl.POINTS, 0, n),
    setup: () => { gl.bindBuffer(gl.ARRAY_BUFFER, indexBuffer); gl.enableVertexAttribArray(0); gl.vertexAttribIPointer(0, 1, gl.UNSIGNED_INT, 0, 0); },
    teardown: () => gl.disableVertexAttribArray(0),
  },
  'points, instanced (64 per instance)': { vertex: `${head}flat out uint v; void main() { uint e = uint(gl_InstanceID * 64 + gl_VertexID); ${scramble} v = e; ${place} }`, draw: () => gl.drawArraysInstanced(gl.POINTS, 0, 64, n / 64) },
  'points, rasterizer discard (vertex work only)': {
    vertex: `${head}flat out uint v; void main() { uint e = uint(gl_VertexID); ${scramble} v = e; ${place} }`,
    draw: () => gl.drawArrays(gl.POINTS, 0, n), setup: () => gl.enable(gl.RASTERIZER_DISCARD), teardown: () => gl.disable(gl.RASTERIZER_DISCARD),
  },
  'points, all clipped': { vertex: `${head}flat out uint v; void main() { v = uint(gl_VertexID); gl_PointSize = 1.0; gl_Position = vec4(4.0, 4.0, 0.0, 1.0); }`, draw: () => gl.drawArrays(gl.POINTS, 0, n) },
  'triangles, one pixel each': {
    vertex: `${head}flat out uint v; void main() { uint e = uint(gl_VertexID) / 3u; uint corner = uint(gl_VertexID) % 3u; ${scramble} v = e;
      vec2 centre = ${pixel('p')}; vec2 texel = 2.0 / vec2(${width}.0, ${height}.0);
      gl_Position = vec4(centre + texel * (corner == 0u ? vec2(-0.5, -0.5) : corner == 1u ? vec2(1.0, -0.5) : vec2(-0.5, 1.0)), 0.0, 1.0); }`,
    draw: () => gl.drawArrays(gl.TRIANGLES, 0, 3 * n),
  },
  'lines of 32 pixels (n/32 lines)': {
    vertex: `${head}flat out uint v; void main() { uint line = uint(gl_VertexID) >> 1; uint p = line * 32u; v = line;
      vec2 start = vec2(float(p & ${width - 1}u), float(p >> ${widthLog2}u)) + vec2((gl_VertexID & 1) == 0 ? 0.0 : 32.0, 0.5);
      gl_Position = vec4(start / vec2(${width}.0, ${height}.0) * 2.0 - 1.0, 0.0, 1.0); }`,
    draw: () => gl.drawArrays(gl.LINES, 0, 2 * (n / 32)),
  },
};
const fullscreen = '#version 300 es\nvoid main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }';
const keys = gl.createTexture();
gl.bindTexture(gl.TEXTURE_2D, keys);
gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32UI, width, height);
gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RED_INTEGER, gl.UNSIGNED_INT, Uint32Array.from({ length: n }, (_, i) => Math.imul(i + 1, 2654435761) >>> 0));
const passes: Record<string, Variant> = {
  'fragment pass, 16 dependent fetches': {
    vertex: fullscreen,
    fragment: `${head}uniform usampler2D k; out uvec4 o; void main() { uint a = uint(gl_FragCoord.y) * ${width}u + uint(gl_FragCoord.x);
    for (int j = 0; j < 16; ++j) { uint x = texelFetch(k, ivec2(int(a & ${width - 1}u), int((a >> ${widthLog2}u) & ${height - 1}u)), 0).r; a = (a >> 1) + (x & 1023u); }
    o = uvec4(a); }`,
    draw: () => gl.drawArrays(gl.TRIANGLES, 0, 3),
  },
  'fragment pass, copy': { vertex: fullscreen, fragment: `${head}uniform usampler2D k; out uvec4 o; void main() { o = texelFetch(k, ivec2(gl_FragCoord.xy), 0); }`, draw: () => gl.drawArrays(gl.TRIANGLES, 0, 3) },
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
gl.bindTexture(gl.TEXTURE_2D, keys);

/** Median ms of one draw up to gl.finish(), and the median ms the draw call itself took on the CPU. */
function time(program: WebGLProgram, variant: Variant): { gpu: number; issue: number } {
  gl.useProgram(program);
  const location = gl.getUniformLocation(program, 'k');
  if (location) gl.uniform1i(location, 0);
  variant.setup?.();
  variant.draw();
  gl.finish();
  const times: number[] = [];
  const issues: number[] = [];
  for (let r = 0; r < Number(values.repeats); r++) {
    const t0 = performance.now();
    variant.draw();
    issues.push(performance.now() - t0);
    gl.finish();
    times.push(performance.now() - t0);
  }
  variant.teardown?.();
  const median = (list: number[]) => list.sort((a, b) => a - b)[list.length >> 1]!;
  return { gpu: median(times), issue: median(issues) };
}
console.log(`${headlessRenderer(gl)}; n = 2^${values.log2n}; median ms of ${values.repeats} (draw + finish; the draw call alone on the CPU)`);
for (const [name, variant] of Object.entries({ ...variants, ...passes })) {
  const { gpu, issue } = time(compile(variant.vertex, variant.fragment ?? pointFragment), variant);
  console.log(`${name.padEnd(48)} ${gpu.toFixed(3).padStart(8)}  ${issue.toFixed(3).padStart(8)}`);
}
