// "three.js culling": an InstancedMesh of 100,000 octahedra, culled to the camera's frustum on the GPU
// by glcompact every frame, on the WebGL2 context three.js renders with, and drawn by three.js from
// the compacted stream with no readback: not of the instances, not of their count.
//
// Per frame (all on three's context, with no renderer.resetState()):
//   1. our animation pass (raw GL, its state saved and restored: three caches what it bound) writes
//      this frame's instances into the `instances` stream's texture: the field moves towards the
//      camera and sways, i.e. the per-frame camera is encoded in the data;
//   2. engine.compact(instances, { keep: { glsl: keepGlsl }, algorithm: 'horn' }) keeps the ones
//      whose bounding sphere reaches into the frustum, in input order (so the draw order is stable);
//   3. three.js draws the InstancedMesh with mesh.count = 100,000; its ShaderMaterial's vertex shader
//      (streamGlsl) fetches instance gl_InstanceID from the compacted stream's texture and moves every
//      instance at or past glcompactLength(lengthTexture) outside clip space. Both textures reach
//      three.js as THREE.ExternalTexture (a WebGLTexture made on the same context).
//
// ?cull=cpu draws the reference instead: the same frames culled on the CPU (shared/three-culling-scene.ts),
// uploaded as DataTextures, mesh.count = the CPU's count. ?frames=F stops after frame F; ?capture=1 (the
// page's test) reads every frame's pixels and count AFTER the frame is drawn, outside the frame, and
// the readback counter shows what the frames themselves read: nothing.
import { createEngine, streamGlsl, type CompactResult, type Stream } from 'glcompact';
import * as THREE from 'three';
import { compileProgram } from './shared/gl-program.js';
import { element, showError } from './shared/page.js';
import { numberParam } from './shared/random.js';
import { countReadbacks } from './shared/readback-counter.js';
import { baseInstances, cullOnCpu, DEPTH, FAR, frameMotion, INSTANCE_COUNT, keepGlsl, NEAR } from './shared/three-culling-scene.js';

interface DemoState {
  mode: 'gpu' | 'cpu';
  frame: number;
  done: boolean;
  instances: number;
  /** readPixels/getBufferSubData calls while each frame was rendered. */
  readbacksPerFrame: number[];
  /** readPixels/getBufferSubData calls outside frames (?capture=1's reads, Pause): shows the counter counts. */
  readbacksOutsideFrames: number;
  /** With ?capture=1: each frame's kept count (GPU: read after the frame; cpu: the CPU's), and its pixels (base64 RGBA). */
  counts: number[];
  pixels: string[];
  /** Main-thread ms of the engine's calls (compact + dispose), per GPU-culled frame. */
  engineMs: number[];
  /** gl.getError() after the last frame (?capture=1). */
  glError?: number;
  renderer: string;
}

const exposed = window as unknown as { demoState?: DemoState };
const params = new URLSearchParams(location.search);
const mode: 'gpu' | 'cpu' = params.get('cull') === 'cpu' ? 'cpu' : 'gpu';
const stopAfter = numberParam(params, 'frames', Infinity);
const capture = params.get('capture') === '1';
const size = Math.max(64, Math.round(numberParam(params, 'size', 512)));

const canvas = element<HTMLCanvasElement>('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, alpha: false, powerPreference: 'high-performance' });
renderer.setPixelRatio(1);
renderer.setSize(size, size, false);
renderer.setClearColor(0x05070d, 1);
const gl = renderer.getContext() as WebGL2RenderingContext;
const readbacks = countReadbacks(gl);
// glcompact on three's own context. It saves and restores the GL state three caches around every call.
const engine = createEngine(gl);

const camera = new THREE.PerspectiveCamera(90, 1, NEAR, FAR); // at the origin, looking down -z
const scene = new THREE.Scene();
const base = baseInstances();

// --- the InstancedMesh, drawn from a stream ---

/** A texture three.js binds as is: the compacted stream's, or the reference's DataTexture. */
const instanceTexture = new THREE.ExternalTexture(null);
const countTexture = new THREE.ExternalTexture(null);
const material = new THREE.ShaderMaterial({
  glslVersion: THREE.GLSL3,
  uniforms: { instances: { value: instanceTexture }, instanceCount: { value: countTexture } },
  vertexShader: /* glsl */ `
${streamGlsl}
uniform highp usampler2D instances;      // the compacted stream: x, y, z, scale of each visible instance
uniform highp usampler2D instanceCount;  // its length texture: the count never comes to the CPU
out vec3 vColor;
void main() {
  uint i = uint(gl_InstanceID);
  if (i >= glcompactLength(instanceCount)) {  // culled: outside clip space, nothing is drawn
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    vColor = vec3(0.0);
    return;
  }
  vec4 instance = glcompactFloatElement(instances, i);
  vec3 world = instance.xyz + position * instance.w;
  float light = 0.55 + 0.45 * max(dot(normal, normalize(vec3(0.4, 0.8, 0.6))), 0.0);
  vec3 hue = mix(vec3(0.25, 0.55, 1.0), vec3(1.0, 0.55, 0.2), (instance.w - 0.25) / 0.75);
  float fog = clamp(-instance.z / ${DEPTH.toFixed(1)}, 0.0, 1.0);
  vColor = mix(hue * light, vec3(0.02, 0.027, 0.05), fog * fog);
  gl_Position = projectionMatrix * modelViewMatrix * vec4(world, 1.0);
}`,
  fragmentShader: /* glsl */ `
in vec3 vColor;
out highp vec4 fragColor;
void main() { fragColor = vec4(vColor, 1.0); }`,
});
const mesh = new THREE.InstancedMesh(new THREE.OctahedronGeometry(1, 0), material, INSTANCE_COUNT);
mesh.frustumCulled = false; // its bounding sphere comes from instanceMatrix, which this page does not use
scene.add(mesh);

// --- the GPU path: the instances stream and our animation pass ---

let baseStream: Stream | undefined;
let instances: Stream | undefined;
let animate: ((frame: number) => void) | undefined;
let result: CompactResult | undefined;

/** Runs `pass` with the state it changes saved and restored: three.js caches its bindings and would not rebind them. */
function withSavedState(pass: () => void): void {
  const drawFramebuffer = gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING);
  const readFramebuffer = gl.getParameter(gl.READ_FRAMEBUFFER_BINDING);
  const viewport = gl.getParameter(gl.VIEWPORT) as Int32Array;
  const program = gl.getParameter(gl.CURRENT_PROGRAM);
  const vertexArray = gl.getParameter(gl.VERTEX_ARRAY_BINDING);
  const activeTexture = gl.getParameter(gl.ACTIVE_TEXTURE);
  gl.activeTexture(gl.TEXTURE0);
  const texture0 = gl.getParameter(gl.TEXTURE_BINDING_2D);
  // What the pass depends on and three.js may have left: face culling (a fullscreen triangle is
  // culled with frontFace(CW)), scissor test, blending, colour mask.
  const enabled = [gl.CULL_FACE, gl.SCISSOR_TEST, gl.BLEND].map((cap) => [cap, gl.isEnabled(cap)] as const);
  const colorMask = gl.getParameter(gl.COLOR_WRITEMASK) as boolean[];
  for (const [cap, on] of enabled) if (on) gl.disable(cap);
  gl.colorMask(true, true, true, true);
  try {
    pass();
  } finally {
    for (const [cap, on] of enabled) if (on) gl.enable(cap);
    gl.colorMask(colorMask[0], colorMask[1], colorMask[2], colorMask[3]);
    gl.bindTexture(gl.TEXTURE_2D, texture0);
    gl.activeTexture(activeTexture);
    gl.bindVertexArray(vertexArray);
    gl.useProgram(program);
    gl.viewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, drawFramebuffer);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, readFramebuffer);
  }
}


function setUpGpuPath(): void {
  baseStream = engine.stream(base, { components: 4 });
  instances = engine.stream(base, { components: 4 }); // rewritten by the animation pass every frame
  const target = instances;
  const program = compileProgram(gl, /* glsl */ `#version 300 es
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}`, /* glsl */ `#version 300 es
precision highp float;
precision highp int;
${streamGlsl}
uniform highp usampler2D u_base;
uniform highp usampler2D u_baseLength;
uniform int u_widthLog2;
uniform float u_advance;
uniform vec2 u_sway;
out highp uvec4 outValue;
void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  uint i = uint((texel.y << u_widthLog2) | texel.x);
  if (i >= glcompactLength(u_baseLength)) { outValue = uvec4(0u); return; }  // past the length: stays 0
  vec4 b = glcompactFloatElement(u_base, i);
  float z = b.z + u_advance;
  if (z >= 0.0) z -= ${DEPTH.toFixed(1)};
  outValue = floatBitsToUint(vec4(b.x + u_sway.x, b.y + u_sway.y, z, b.w));
}`, 'animation');
  const framebuffer = gl.createFramebuffer()!;
  const vertexArray = gl.createVertexArray()!;
  const location = (name: string) => gl.getUniformLocation(program, name);
  withSavedState(() => {
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target.texture, 0);
    if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error('cannot render into the instances stream');
  });
  const baseTexture = baseStream.texture;
  const baseLength = baseStream.lengthTexture;
  animate = (frame) => {
    const motion = frameMotion(frame);
    withSavedState(() => {
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.viewport(0, 0, target.layout.width, target.layout.height);
      gl.useProgram(program);
      gl.bindTexture(gl.TEXTURE_2D, baseTexture); // unit 0
      gl.uniform1i(location('u_base'), 0);
      gl.activeTexture(gl.TEXTURE1);
      const texture1 = gl.getParameter(gl.TEXTURE_BINDING_2D);
      gl.bindTexture(gl.TEXTURE_2D, baseLength);
      gl.uniform1i(location('u_baseLength'), 1);
      gl.uniform1i(location('u_widthLog2'), target.layout.widthLog2);
      gl.uniform1f(location('u_advance'), motion.advance);
      gl.uniform2f(location('u_sway'), motion.swayX, motion.swayY);
      gl.bindVertexArray(vertexArray);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      gl.bindTexture(gl.TEXTURE_2D, texture1);
      gl.activeTexture(gl.TEXTURE0);
    });
  };
}

/** Main-thread ms of the engine's calls, per GPU-culled frame. */
const engineTimes: number[] = [];

function gpuFrame(frame: number): void {
  animate!(frame);
  // Main-thread time of the engine's calls in this frame (README "Using glcompact in a graphics app").
  const engineStarted = performance.now();
  const next = engine.compact(instances!, { keep: { glsl: keepGlsl }, algorithm: 'horn' });
  let engineMs = performance.now() - engineStarted;
  instanceTexture.sourceTexture = next.stream.texture;
  countTexture.sourceTexture = next.stream.lengthTexture;
  mesh.count = INSTANCE_COUNT;
  renderer.render(scene, camera);
  const disposeStarted = performance.now();
  result?.dispose();
  engineMs += performance.now() - disposeStarted;
  engineTimes.push(engineMs);
  result = next;
}

// --- the reference: culled on the CPU, uploaded ---

const referenceWidth = 2048;
const referenceTexture = new THREE.DataTexture(new Uint32Array(referenceWidth * Math.ceil(INSTANCE_COUNT / referenceWidth) * 4), referenceWidth,
  Math.ceil(INSTANCE_COUNT / referenceWidth), THREE.RGBAIntegerFormat, THREE.UnsignedIntType);
referenceTexture.internalFormat = 'RGBA32UI';
const referenceCount = new THREE.DataTexture(new Uint32Array(1), 1, 1, THREE.RedIntegerFormat, THREE.UnsignedIntType);
referenceCount.internalFormat = 'R32UI';
let lastCpuCount = 0;

function cpuFrame(frame: number): void {
  const { kept, count } = cullOnCpu(base, frame);
  (referenceTexture.image.data as Uint32Array).fill(0).set(new Uint32Array(kept.buffer, kept.byteOffset, kept.length));
  (referenceCount.image.data as Uint32Array)[0] = count;
  referenceTexture.needsUpdate = true;
  referenceCount.needsUpdate = true;
  material.uniforms.instances.value = referenceTexture;
  material.uniforms.instanceCount.value = referenceCount;
  mesh.count = count; // the classic way: draw only the CPU's visible instances
  renderer.render(scene, camera);
  lastCpuCount = count;
}

// --- the loop ---

const counts: number[] = [];
const pixels: string[] = [];
let frame = 0;
let paused = false;
let done = false;
const frameStamps: number[] = [];

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let k = 0; k < bytes.length; k += 0x8000) text += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return btoa(text);
}

function show(): void {
  const now = performance.now();
  frameStamps.push(now);
  while (frameStamps.length > 0 && frameStamps[0] < now - 1000) frameStamps.shift();
  element('frame').textContent = String(frame);
  element('fps').textContent = String(frameStamps.length);
  const last = readbacks.perFrame.at(-1);
  element('readbacks').textContent = last === undefined ? '–' : String(last);
  exposed.demoState = {
    mode, frame, done, instances: INSTANCE_COUNT, engineMs: [...engineTimes], readbacksPerFrame: [...readbacks.perFrame], readbacksOutsideFrames: readbacks.outside, counts: [...counts], pixels,
    glError: exposed.demoState?.glError, renderer: engine.caps.renderer,
  };
}

async function loop(): Promise<void> {
  try {
    if (!paused && !done) {
      readbacks.frame(() => (mode === 'gpu' ? gpuFrame(frame) : cpuFrame(frame)));
      if (capture) {
        // The test's reads, after the frame was drawn and before anything awaits (the canvas is cleared once presented).
        const rgba = new Uint8Array(size * size * 4);
        gl.readPixels(0, 0, size, size, gl.RGBA, gl.UNSIGNED_BYTE, rgba);
        pixels.push(base64(rgba));
        counts.push(mode === 'gpu' ? await result!.count() : lastCpuCount);
      }
      if (frame >= stopAfter) {
        done = true;
        if (capture) exposed.demoState = { ...exposed.demoState!, glError: gl.getError() };
      } else {
        frame += 1;
      }
      show();
      if (done) return;
    }
    requestAnimationFrame(() => void loop());
  } catch (error) {
    showError(error);
  }
}

/** Pause: read this frame's count and compare it with the CPU's culling of the same frame. */
async function check(): Promise<void> {
  const cpu = cullOnCpu(base, frame);
  const count = mode === 'gpu' ? await result!.count() : lastCpuCount;
  const ok = count === cpu.count;
  const box = element('check');
  box.className = ok ? 'ok' : 'bad';
  box.textContent = `${ok ? '✓' : '✗'} frame ${frame}: ${count.toLocaleString('en-US')} of ${INSTANCE_COUNT.toLocaleString('en-US')} instances kept ` +
    `(${(100 * count / INSTANCE_COUNT).toFixed(1)} %); the CPU's culling of the same frame keeps ${cpu.count.toLocaleString('en-US')}.`;
}

element('pause').addEventListener('click', async () => {
  paused = !paused;
  element('pause').textContent = paused ? 'Resume' : 'Pause';
  if (paused) await check().catch(showError); // the loop keeps running (idle) while paused
});
element('mode').textContent = mode === 'gpu'
  ? 'GPU culling: glcompact compacts the instances on three.js\'s context; three.js draws them from the compacted texture and the GPU-resident count.'
  : 'Reference: culled on the CPU and uploaded every frame (?cull=cpu); three.js draws the CPU\'s count.';
element('renderer').textContent = `renderer: ${engine.caps.renderer}`;

try {
  if (mode === 'gpu') setUpGpuPath();
  requestAnimationFrame(() => void loop());
} catch (error) {
  showError(error);
}
