// three.js culling (shown in docs/recipe-three.md): glcompact culls an InstancedMesh to the camera's frustum on
// three.js's context every frame; three.js draws the visible instances from the compacted texture and
// the count on the GPU. No readback, no renderer.resetState(). three r179+ (THREE.ExternalTexture).
import * as THREE from 'three';
import { createEngine, streamGlsl } from 'glcompact';

/** The keep test: the instance's bounding sphere (centre xyz, radius w) reaches into the frustum of viewProj. */
export const inFrustumGlsl = `
mat4 rows = transpose(viewProj);  // the frustum's planes are rows[3] +- rows[0..2] (Gribb-Hartmann)
vec4 centre = vec4(value.xyz, 1.0);
for (int axis = 0; axis < 3; axis++) {
  vec4 low = rows[3] + rows[axis];
  vec4 high = rows[3] - rows[axis];
  if (dot(low, centre) < -value.w * length(low.xyz)) return false;
  if (dot(high, centre) < -value.w * length(high.xyz)) return false;
}
return true;`;

const vertexShader = `${streamGlsl}
uniform highp usampler2D instances;      // the compacted stream: x, y, z, radius per visible instance
uniform highp usampler2D instanceCount;  // its length texture: the count stays on the GPU
out vec3 shade;
void main() {
  shade = vec3(0.3 + 0.7 * max(dot(normal, normalize(vec3(1.0, 2.0, 3.0))), 0.0));
  uint i = uint(gl_InstanceID);
  if (i >= glcompactLength(instanceCount)) {  // past the count: outside clip space, not drawn
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    return;
  }
  vec4 instance = glcompactFloatElement(instances, i);
  gl_Position = projectionMatrix * modelViewMatrix * vec4(instance.xyz + position * instance.w, 1.0);
}`;
const fragmentShader = `in vec3 shade;
out highp vec4 color;
void main() { color = vec4(shade * vec3(1.0, 0.6, 0.2), 1.0); }`;

/** `count` instances: x, y, z in [-100, 100), radius in [0.2, 0.7), float32. */
export function makeInstances(count) {
  const data = new Float32Array(4 * count);
  let seed = 1;
  const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let i = 0; i < count; i++) data.set([200 * random() - 100, 200 * random() - 100, 200 * random() - 100, 0.2 + 0.5 * random()], 4 * i);
  return data;
}

/** The scene on `canvas`: call `frame(seconds)` every frame, `dispose()` at the end. */
export function cullingScene(canvas, { count = 100_000, width = 512, height = 512 } = {}) {
  const renderer = new THREE.WebGLRenderer({ canvas });
  renderer.setSize(width, height, false);
  const engine = createEngine(renderer.getContext()); // the context three.js renders with

  const data = makeInstances(count);
  const instances = engine.stream(data, { components: 4 });

  // THREE.ExternalTexture binds a WebGLTexture made on the same context: no upload, no copy.
  const instanceTexture = new THREE.ExternalTexture(null);
  const countTexture = new THREE.ExternalTexture(null);
  const material = new THREE.ShaderMaterial({
    glslVersion: THREE.GLSL3,
    uniforms: { instances: { value: instanceTexture }, instanceCount: { value: countTexture } },
    vertexShader,
    fragmentShader,
  });
  const geometry = new THREE.OctahedronGeometry(1); // radius 1: scaled by the instance's radius
  const mesh = new THREE.InstancedMesh(geometry, material, count); // all `count`, culled in the shader
  mesh.frustumCulled = false; // three.js's bounds come from instanceMatrix, unused here
  const scene = new THREE.Scene();
  scene.add(mesh);
  const camera = new THREE.PerspectiveCamera(60, width / height, 0.1, 120);

  const viewProj = new THREE.Matrix4();
  let visible; // the last frame's compaction: its textures are what three.js drew from
  function frame(seconds) {
    camera.position.set(40 * Math.sin(seconds), 10, 40 * Math.cos(seconds)); // orbit the centre
    camera.lookAt(0, 0, 0);
    camera.updateMatrixWorld();
    viewProj.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
    // The camera goes in as a uniform: the program is compiled once.
    const next = engine.compact(instances, { keep: { glsl: inFrustumGlsl, uniforms: { viewProj: viewProj.elements } } });
    instanceTexture.sourceTexture = next.stream.texture; // new textures every frame (a pool)
    countTexture.sourceTexture = next.stream.lengthTexture;
    renderer.render(scene, camera);
    visible?.dispose(); // the frame before's, back to the pool
    visible = next;
    return next; // `await next.count()` reads how many were drawn
  }

  function dispose() {
    visible?.dispose();
    engine.dispose(); // frees the instances stream too
    geometry.dispose();
    material.dispose();
    renderer.dispose();
  }

  return { renderer, scene, camera, mesh, engine, instances, data, viewProj, frame, dispose };
}
