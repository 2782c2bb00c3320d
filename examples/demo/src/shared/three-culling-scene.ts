// The three.js culling page's scene, in JS: the instances, how they move per frame, and which are
// visible. The page runs the same rules on the GPU (its animation pass and its `{ glsl }` keep
// snippet, below) and its test (test/demo-pages.node.test.ts) replays them here to check every
// frame's count. Every number is a multiple of 1/32 below 2^9, so float32 on the GPU and doubles on
// the CPU compute every sum, product and comparison exactly: the GPU's and the CPU's culling agree
// on every instance, and frames drawn from either are pixel-identical.
import { seededRandom } from './random.js';

/** Instances in the InstancedMesh (≥ 100,000). */
export const INSTANCE_COUNT = 100_000;
/** The field: x, y in [-FIELD, FIELD), z in [-DEPTH, 0); the camera sits at the origin looking down -z. */
export const FIELD = 256;
export const DEPTH = 256;
/** Units the field moves towards the camera per frame (it wraps around at z = 0). */
export const SPEED = 2;
/** Camera: vertical field of view 90° and a square canvas, so the frustum's sides are |x| <= -z, |y| <= -z. */
export const NEAR = 0.5;
export const FAR = 300;

/**
 * Per instance: x, y, z, scale; the shape (an octahedron of radius 1) is scaled by `scale` and moved
 * to (x, y, z). Positions are multiples of 1/8, scales multiples of 1/16 in [0.25, 1].
 */
export function baseInstances(count = INSTANCE_COUNT, seed = 17): Float32Array {
  const next = seededRandom(seed);
  const data = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    data[4 * i] = Math.floor(next() * 2 * FIELD * 8) / 8 - FIELD;
    data[4 * i + 1] = Math.floor(next() * 2 * FIELD * 8) / 8 - FIELD;
    data[4 * i + 2] = Math.floor(next() * DEPTH * 8) / 8 - DEPTH;
    data[4 * i + 3] = (4 + Math.floor(next() * 13)) / 16;
  }
  return data;
}

/** What moves at frame f: the field advances SPEED per frame, and sways sideways (multiples of 1/8). */
export function frameMotion(frame: number): { advance: number; swayX: number; swayY: number } {
  return {
    advance: (SPEED * frame) % DEPTH,
    swayX: Math.round(Math.sin(frame * 0.05) * 96) / 8,
    swayY: Math.round(Math.cos(frame * 0.031) * 48) / 8 - 6,
  };
}

/** The animation pass, per instance (the page's GLSL does the same, in the same order). */
export function animateInstance(base: Float32Array, i: number, motion: ReturnType<typeof frameMotion>, out: Float32Array, at: number): void {
  let z = base[4 * i + 2] + motion.advance;
  if (z >= 0) z -= DEPTH;
  out[at] = base[4 * i] + motion.swayX;
  out[at + 1] = base[4 * i + 1] + motion.swayY;
  out[at + 2] = z;
  out[at + 3] = base[4 * i + 3];
}

/**
 * The keep predicate, as the page's `{ glsl }` snippet (body of `bool keep(vec4 value, uint index)`):
 * keeps the instances whose bounding sphere (radius = scale) may reach into the frustum. A sphere is
 * outside the side plane x = -z when (x + z) / sqrt(2) > r; 1.5 > sqrt(2) widens that a little, and
 * keeps every product exact. Conservative, as frustum culling is: it may keep a few invisible ones.
 */
export const keepGlsl = `float r = 1.5 * value.w;  // bounding sphere (scale), widened: 1.5 > sqrt(2)
return value.z - value.w <= -${NEAR.toFixed(1)}     // reaches past the near plane
  && value.x + value.z <= r && value.z - value.x <= r   // between the left and right planes
  && value.y + value.z <= r && value.z - value.y <= r;  // between the bottom and top planes`;

export function visible(x: number, y: number, z: number, scale: number): boolean {
  const r = 1.5 * scale;
  return z - scale <= -NEAR && x + z <= r && z - x <= r && y + z <= r && z - y <= r;
}

/** The CPU's culling of frame f: the visible instances' (x, y, z, scale), in input order. */
export function cullOnCpu(base: Float32Array, frame: number): { kept: Float32Array; count: number } {
  const motion = frameMotion(frame);
  const n = base.length / 4;
  const all = new Float32Array(4);
  const kept = new Float32Array(base.length);
  let count = 0;
  for (let i = 0; i < n; i++) {
    animateInstance(base, i, motion, all, 0);
    if (visible(all[0], all[1], all[2], all[3])) kept.set(all, 4 * count++);
  }
  return { kept: kept.subarray(0, 4 * count), count };
}
