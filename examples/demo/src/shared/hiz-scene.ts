// The Hi-Z occlusion-culling page's scene, in JS: the instances (bounding spheres and colours), the
// walls that hide most of them, the camera's path, the view-projection matrix, the keep snippet the
// GPU runs, and the same test on the CPU (the page's ?cull=cpu reference and its test's checks).
//
// Why the GPU's and the CPU's decisions agree on every instance, bit for bit:
// the snippet only adds, subtracts, multiplies and compares numbers that lie on the grid of
// sixteenths (k/16) and are smaller than 2^20, and such numbers, their sums and their products in
// this range are exactly representable in float32 (24 significant bits). So float32 on the GPU (in
// whatever order the driver evaluates a mat4 * vec4, with or without fused multiply-adds) and
// doubles on the CPU get the same exact values, and every comparison has the same outcome. That
// holds because:
//   - positions and radii are multiples of 1/16 below 512; the camera sits at multiples of 1/16;
//   - the camera only moves, never turns, and its field of view is 90° on a square canvas, so the
//     view-projection rows the test uses are (1, 0, 0, -cx), (0, 1, 0, -cy), (0, 0, -1, cz);
//   - the one division (a screen coordinate, in the snippet a first guess at a Hi-Z texel column)
//     is corrected with exact products: the texel is the exact floor whatever the GPU's division
//     rounds to (GLSL ES lets a division be off by 2.5 ulp);
//   - the pyramid is read by both from the same texture: the CPU reads the GPU's levels back.
// `cullOnCpu` checks the grid condition for every value it computes and counts the instances where
// it fails (`inexact`); the page shows that count and its test requires 0.
import { seededRandom } from './random.js';

/** Instances (bounding spheres) in the field. */
export const INSTANCE_COUNT = 200_000;
/** Hi-Z pyramid: level 0 is HIZ_SIZE² texels over the whole view, then halves down to 1×1. */
export const HIZ_SIZE = 256;
export const HIZ_LEVELS = Math.log2(HIZ_SIZE) + 1;
/**
 * Near and far planes. With far − near = 512 the projection's depth row is exact too (unused by the
 * test, which only needs clip x, y and w), and three.js draws with this very matrix.
 */
export const NEAR = 0.5;
export const FAR = 512.5;
/** What the depth pass leaves where no wall is: farther than anything, so nothing there is hidden. */
export const EMPTY_DEPTH = 65536;

/** The field: x in [-FIELD_X, FIELD_X), y in [-FIELD_Y, FIELD_Y), z in [FIELD_Z0, FIELD_Z1). */
export const FIELD_X = 320;
export const FIELD_Y = 200;
export const FIELD_Z0 = -480;
export const FIELD_Z1 = -64;

/** The occluders: axis-aligned boxes (min and max corners) between the camera and the field. */
export interface Wall {
  min: [number, number, number];
  max: [number, number, number];
  color: number;
}

// Four walls 50–70 units in front of the camera with three slits between them (two upright, one
// across the middle one) and open sky above them: what lies behind the slits and over the walls is
// drawn, the rest of the field (most of it) is culled.
export const WALLS: Wall[] = [
  { min: [-150, -100, -30], max: [-30, 40, -26], color: 0x8a94a6 },
  { min: [-18, -100, -30], max: [22, -6, -26], color: 0x9aa3b5 },
  { min: [-18, 6, -30], max: [22, 40, -26], color: 0x9aa3b5 },
  { min: [34, -100, -30], max: [150, 40, -26], color: 0x7d8799 },
];

/** The walls as triangles (36 vertices each, x y z), for the page's depth pass. */
export function wallTriangles(walls: Wall[] = WALLS): Float32Array {
  // the 8 corners of a box by bits (x, y, z) and its 12 triangles
  const faces = [
    [0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5],
  ];
  const out = new Float32Array(walls.length * 36 * 3);
  let at = 0;
  for (const { min, max } of walls) {
    const corner = (bits: number) => [bits & 1 ? max[0] : min[0], bits & 2 ? max[1] : min[1], bits & 4 ? max[2] : min[2]];
    for (const [a, b, c, d] of faces) {
      for (const k of [a, b, c, a, c, d]) {
        out.set(corner(k), at);
        at += 3;
      }
    }
  }
  return out;
}

/**
 * Per instance: x, y, z (multiples of 1/16 in the field) and the bounding sphere's radius r
 * (multiples of 1/16 in [0.75, 2]); the page draws an octahedron of radius r there.
 */
export function baseSpheres(count = INSTANCE_COUNT, seed = 29): Float32Array {
  const next = seededRandom(seed);
  const sixteenths = (from: number, to: number) => from + Math.floor(next() * (to - from) * 16) / 16;
  const data = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    data[4 * i] = sixteenths(-FIELD_X, FIELD_X);
    data[4 * i + 1] = sixteenths(-FIELD_Y, FIELD_Y);
    data[4 * i + 2] = sixteenths(FIELD_Z0, FIELD_Z1);
    data[4 * i + 3] = (12 + Math.floor(next() * 21)) / 16;
  }
  return data;
}

/** Per instance: its colour as RGBA8 packed in a uint32 (red in the low byte), a second attribute stream. */
export function baseColors(count = INSTANCE_COUNT, seed = 31): Uint32Array {
  const palette = [0xff5a5f, 0xffb400, 0x00a699, 0x7b61ff, 0x4ecdc4, 0xf7fff7, 0xff8c42, 0x5aa9e6];
  const next = seededRandom(seed);
  const data = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const rgb = palette[Math.floor(next() * palette.length)];
    data[i] = (((rgb >> 16) & 255) | (rgb & 0xff00) | ((rgb & 255) << 16) | (255 << 24)) >>> 0;
  }
  return data;
}

const sixteenth = (x: number) => Math.round(x * 16) / 16;

/** Where the camera is at frame f (multiples of 1/16): it sways sideways and up and down, and moves in and out. */
export function cameraAt(frame: number): [number, number, number] {
  return [sixteenth(Math.sin(frame * 0.045) * 36), sixteenth(Math.sin(frame * 0.029 + 0.6) * 14), sixteenth(32 - Math.sin(frame * 0.017) * 8)];
}

/**
 * The camera's projection, column-major: a 90° field of view on a square view (x and y scales 1,
 * exactly: three.js's own tan(45°) is 0.9999999999999999) and the depth row from NEAR and FAR.
 * The page gives three.js this matrix, so it draws with the camera the culling assumed.
 */
export function projectionMatrix(): number[] {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -(FAR + NEAR) / (FAR - NEAR), -1, 0, 0, (-2 * FAR * NEAR) / (FAR - NEAR), 0];
}

/** projection × view (the camera at `camera`, looking down -z, not turned), column-major as gl-matrix stores it. */
export function viewProjection(camera: [number, number, number]): Float32Array {
  const p = projectionMatrix();
  const view = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -camera[0], -camera[1], -camera[2], 1];
  const out = new Float32Array(16);
  for (let column = 0; column < 4; column++) {
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += p[4 * k + row] * view[4 * column + k];
      out[4 * column + row] = sum;
    }
  }
  return out;
}

/**
 * The keep snippet: the body of `bool keep(vec4 value, uint index)` on the spheres stream (x, y, z,
 * r per instance), with the uniform `mat4 viewProj` and the pyramid as `sampler2D hiz` (R32F, one
 * mip level per pyramid level, each texel the farthest occluder depth, as view depth w, under it).
 * It keeps a sphere that reaches into the frustum and is not wholly behind the occluders: the
 * sphere's clip-space box gives a screen rectangle, the pyramid level where that rectangle covers
 * at most 2×2 texels gives the farthest occluder depth over it, and the sphere is hidden when its
 * nearest point lies farther than that. `cullOnCpu` below is the same test, line for line.
 */
export const keepGlsl = /* glsl */ `const int SIZE = ${HIZ_SIZE};
const int LEVELS = ${HIZ_LEVELS};
vec4 clip = viewProj * vec4(value.xyz, 1.0);
// How far the sphere reaches in clip x, y and w: its radius times the L1 norm of the matrix row
// (never less than the row's length, so conservative for any camera; exactly r for this one).
float rx = value.w * (abs(viewProj[0][0]) + abs(viewProj[1][0]) + abs(viewProj[2][0]));
float ry = value.w * (abs(viewProj[0][1]) + abs(viewProj[1][1]) + abs(viewProj[2][1]));
float rw = value.w * (abs(viewProj[0][3]) + abs(viewProj[1][3]) + abs(viewProj[2][3]));
float w0 = clip.w - rw;  // view depth of its nearest point
float w1 = clip.w + rw;  // and of its farthest
if (w1 <= ${NEAR.toFixed(1)} || w0 > ${FAR.toFixed(1)}) return false;  // wholly before the near plane or past the far one
vec4 box = vec4(clip.x - rx, clip.x + rx, clip.y - ry, clip.y + ry);  // left, right, bottom, top in clip space
if (box.y < -w1 || box.x > w1 || box.w < -w1 || box.z > w1) return false;  // outside a side plane
if (w0 <= ${NEAR.toFixed(1)}) return true;  // reaches the near plane: kept without the occlusion test
// The screen rectangle: each side divided by the w that puts it farthest out. Hi-Z texel of a side
// = floor((side / w + 1) * SIZE / 2) = floor(num / den): first guessed by a division, then made
// exact by comparing products (exact here, see shared/hiz-scene.ts).
vec4 den = vec4(box.x >= 0.0 ? w1 : w0, box.y >= 0.0 ? w0 : w1, box.z >= 0.0 ? w1 : w0, box.w >= 0.0 ? w0 : w1);
vec4 num = (box + den) * ${(HIZ_SIZE / 2).toFixed(1)};
ivec4 cell;  // first and last column, first and last row
for (int k = 0; k < 4; k++) {
  float c = clamp(floor(num[k] / den[k]), -1.0, float(SIZE));
  if (c * den[k] > num[k]) c -= 1.0;
  else if ((c + 1.0) * den[k] <= num[k]) c += 1.0;
  cell[k] = clamp(int(c), 0, SIZE - 1);
}
// The finest level where the rectangle spans at most 2×2 texels.
int level = 0;
while (level < LEVELS - 1 && ((cell.y >> level) - (cell.x >> level) > 1 || (cell.w >> level) - (cell.z >> level) > 1)) level++;
ivec4 t = cell >> level;
float farthest = max(max(texelFetch(hiz, t.xz, level).r, texelFetch(hiz, t.yz, level).r),
                     max(texelFetch(hiz, t.xw, level).r, texelFetch(hiz, t.yw, level).r));
return w0 <= farthest;  // hidden only if its nearest point is behind the farthest occluder there`;

/** The pyramid as the CPU holds it: level k is a Float32Array of (HIZ_SIZE >> k)² depths, row 0 at the bottom. */
export type Pyramid = Float32Array[];

export interface CpuCulling {
  /** Kept instances' indices, in input order. */
  indices: Uint32Array;
  count: number;
  /** Instances that pass the frustum test (before the occlusion test). */
  inFrustum: number;
  /** Instances for which some value computed was off the exact grid (float32 might round it): must be 0. */
  inexact: number;
}

/** On the grid of sixteenths and below 2^20 in magnitude: exact in float32, and so are sums and products staying there. */
const onGrid = (v: number) => Number.isInteger(v * 16) && Math.abs(v) < 2 ** 20;

/** The keep snippet on the CPU, for every instance, against the pyramid the GPU built (read back). */
export function cullOnCpu(spheres: Float32Array, m: ArrayLike<number>, pyramid: Pyramid): CpuCulling {
  const n = spheres.length / 4;
  const indices = new Uint32Array(n);
  let count = 0;
  let inFrustum = 0;
  let inexact = 0;
  const half = HIZ_SIZE / 2;
  const den = [0, 0, 0, 0];
  const cell = [0, 0, 0, 0];
  // The row sums of |matrix| (the L1 norms) do not depend on the instance.
  const normX = Math.abs(m[0]) + Math.abs(m[4]) + Math.abs(m[8]);
  const normY = Math.abs(m[1]) + Math.abs(m[5]) + Math.abs(m[9]);
  const normW = Math.abs(m[3]) + Math.abs(m[7]) + Math.abs(m[11]);
  /** One clip coordinate, and whether every partial sum (in any order) stays exact: all terms on the grid, |terms| summing below 2^20. */
  let exact = true;
  const row = (a: number, b: number, c: number, d: number) => {
    if (!onGrid(a) || !onGrid(b) || !onGrid(c) || !onGrid(d) || Math.abs(a) + Math.abs(b) + Math.abs(c) + Math.abs(d) >= 2 ** 20) exact = false;
    return a + b + c + d;
  };
  const check = (...values: number[]) => {
    for (const v of values) if (!onGrid(v)) exact = false;
  };
  for (let i = 0; i < n; i++) {
    const x = spheres[4 * i];
    const y = spheres[4 * i + 1];
    const z = spheres[4 * i + 2];
    const r = spheres[4 * i + 3];
    exact = true;
    const clipX = row(m[0] * x, m[4] * y, m[8] * z, m[12]);
    const clipY = row(m[1] * x, m[5] * y, m[9] * z, m[13]);
    const clipW = row(m[3] * x, m[7] * y, m[11] * z, m[15]);
    const rx = r * normX;
    const ry = r * normY;
    const rw = r * normW;
    const w0 = clipW - rw;
    const w1 = clipW + rw;
    const left = clipX - rx;
    const right = clipX + rx;
    const bottom = clipY - ry;
    const top = clipY + ry;
    check(normX, normY, normW, rx, ry, rw, w0, w1, left, right, bottom, top, -w1);
    let keep: boolean;
    if (w1 <= NEAR || w0 > FAR) keep = false;
    else if (right < -w1 || left > w1 || top < -w1 || bottom > w1) keep = false;
    else {
      inFrustum++;
      if (w0 <= NEAR) keep = true;
      else {
        const box = [left, right, bottom, top];
        den[0] = left >= 0 ? w1 : w0;
        den[1] = right >= 0 ? w0 : w1;
        den[2] = bottom >= 0 ? w1 : w0;
        den[3] = top >= 0 ? w0 : w1;
        for (let k = 0; k < 4; k++) {
          const num = (box[k] + den[k]) * half;
          // The exact floor (the GPU's guess-and-correct gives the same); the products it compares must be exact.
          const c = Math.min(Math.max(Math.floor(num / den[k]), -1), HIZ_SIZE);
          check(num, c * den[k], (c + 1) * den[k], (c - 1) * den[k], (c + 2) * den[k]);
          cell[k] = Math.min(Math.max(c, 0), HIZ_SIZE - 1);
        }
        let level = 0;
        while (level < HIZ_LEVELS - 1 && ((cell[1] >> level) - (cell[0] >> level) > 1 || (cell[3] >> level) - (cell[2] >> level) > 1)) level++;
        const texels = pyramid[level];
        const width = HIZ_SIZE >> level;
        const [c0, c1, r0, r1] = [cell[0] >> level, cell[1] >> level, cell[2] >> level, cell[3] >> level];
        const farthest = Math.max(texels[r0 * width + c0], texels[r0 * width + c1], texels[r1 * width + c0], texels[r1 * width + c1]);
        keep = w0 <= farthest;
      }
    }
    if (!exact) inexact++;
    if (keep) indices[count++] = i;
  }
  return { indices: indices.subarray(0, count), count, inFrustum, inexact };
}

/** Instances inside the frustum at frame f (the first half of the test, no pyramid needed): for the page test. */
export function inFrustumCount(spheres: Float32Array, frame: number): number {
  const everywhereFar = Array.from({ length: HIZ_LEVELS }, (_, k) => new Float32Array((HIZ_SIZE >> k) ** 2).fill(EMPTY_DEPTH));
  const culled = cullOnCpu(spheres, viewProjection(cameraAt(frame)), everywhereFar);
  return culled.inFrustum;
}

/** Whether every texel of level k ≥ 1 is the largest of the 2×2 texels under it in level k − 1 (a MAX pyramid). */
export function isMaxPyramid(pyramid: Pyramid): boolean {
  for (let k = 1; k < pyramid.length; k++) {
    const width = HIZ_SIZE >> k;
    const below = pyramid[k - 1];
    for (let row = 0; row < width; row++) {
      for (let column = 0; column < width; column++) {
        const at = (r: number, c: number) => below[r * 2 * width + c];
        const max = Math.max(at(2 * row, 2 * column), at(2 * row, 2 * column + 1), at(2 * row + 1, 2 * column), at(2 * row + 1, 2 * column + 1));
        if (pyramid[k][row * width + column] !== max) return false;
      }
    }
  }
  return true;
}
