// The splat-sort page's scene, in JS: the points (a spiral galaxy of small gaussian splats), the
// camera's orbit, the depth keys the page sorts by, and a CPU sort of them (the page's Web Worker
// runs it; the page's test computes the keys here too).
//
// Why the GPU's keys and the CPU's keys are equal, bit for bit: the key is the view depth along an
// integer direction, depth = (p − eye) · dir, where
//   - every point coordinate and every eye coordinate is a multiple of 1/256 below 32 in magnitude,
//     so p − eye is exact in float32 (a multiple of 1/256 below 2^6: 14 significant bits);
//   - dir has integer components below 64 (`DIR_SCALE`), so every product is a multiple of 1/256
//     below 2^12 and their sum one below 2^14: at most 22 significant bits, exact in float32 in any
//     order of evaluation, with or without fused multiply-adds;
//   - the 16-bit key floor((depth − lo) · scale) subtracts a multiple of 1/256 (exact) and
//     multiplies by a power of two (exact) before the floor.
// The depth is the true view depth times |dir| (the camera looks along dir / |dir|), so ordering by
// it is ordering by view depth.
import { seededRandom } from './random.js';

/** Points by default: 2^20. */
export const DEFAULT_POINTS = 2 ** 20;
/** Positions and the eye lie on a grid of 1/GRID. */
export const GRID = 256;
/** Every point coordinate is in (−EXTENT, EXTENT). */
export const EXTENT = 8;
/** The camera orbits the origin at this distance. */
export const ORBIT = 19;
/** Largest component of the integer view direction. */
export const DIR_SCALE = 48;
/** The vertical field of view (degrees), near and far planes. */
export const FOV_DEGREES = 50;
export const NEAR = 1;
export const FAR = 64;
/** Splat radius in world units at 2^20 points (it grows as 1/sqrt(n) for fewer, so the galaxy stays as full). */
export const BASE_RADIUS = 0.045;

export type KeyKind = 'u16' | 'float';

/**
 * n points, 4 words each: x, y, z as float32 bits (on the 1/256 grid) and the colour as RGBA8
 * (alpha = opacity, not premultiplied). A bright core and two spiral arms of gaussian clouds.
 */
export function makePoints(n: number, seed = 22): Uint32Array {
  const random = seededRandom(seed);
  const words = new Uint32Array(4 * n);
  const floats = new Float32Array(words.buffer);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const limit = EXTENT * GRID - 1;
  const snap = (v: number) => Math.max(-limit, Math.min(limit, Math.round(v * GRID))) / GRID;
  const byte = (v: number) => Math.max(0, Math.min(255, Math.round(v * 255)));
  for (let i = 0; i < n; i++) {
    let x: number;
    let y: number;
    let z: number;
    let r: number;
    let g: number;
    let b: number;
    const pick = random();
    if (pick < 0.14) {
      // the core: warm, flattened
      x = gauss() * 1.0;
      y = gauss() * 0.45;
      z = gauss() * 1.0;
      const heat = random();
      [r, g, b] = [1.0, 0.78 + 0.18 * heat, 0.45 + 0.35 * heat];
    } else if (pick < 0.22) {
      // a faint halo
      x = gauss() * 3.2;
      y = gauss() * 1.1;
      z = gauss() * 3.2;
      [r, g, b] = [0.55, 0.6, 0.85];
    } else {
      // two arms: t from the core outwards, turning 1.6 revolutions
      const arm = random() < 0.5 ? 0 : 1;
      const t = Math.pow(random(), 0.8);
      const angle = arm * Math.PI + t * 3.2 * Math.PI + 0.35 * gauss() * (1 - 0.5 * t);
      const radius = 1.0 + 5.8 * t;
      const spread = 0.18 + 0.5 * t;
      x = radius * Math.cos(angle) + gauss() * spread;
      y = gauss() * (0.12 + 0.25 * t);
      z = radius * Math.sin(angle) + gauss() * spread;
      const dust = random() < 0.18; // dark-red dust lanes: order shows most where dark covers bright
      if (dust) [r, g, b] = [0.35 + 0.2 * random(), 0.12, 0.08];
      else if (random() < 0.12) [r, g, b] = [1.0, 0.35 + 0.3 * random(), 0.7]; // pink nebulae
      else [r, g, b] = [0.35 + 0.3 * (1 - t), 0.55 + 0.3 * random(), 1.0];
    }
    floats[4 * i] = snap(x);
    floats[4 * i + 1] = snap(y);
    floats[4 * i + 2] = snap(z);
    const alpha = 0.25 + 0.55 * random();
    words[4 * i + 3] = (byte(r) | (byte(g) << 8) | (byte(b) << 16) | (byte(alpha) << 24)) >>> 0;
  }
  return words;
}

/** Where the camera is at a frame, and what the key pass needs. */
export interface SplatView {
  frame: number;
  /** The eye, on the 1/256 grid. */
  eye: [number, number, number];
  /** The view direction, integer components (not normalised). */
  dir: [number, number, number];
  /** The 16-bit key is floor((depth − lo) · scale), clamped to 0..65535 (lo on the 1/256 grid, scale a power of two). */
  lo: number;
  scale: number;
  /** Column-major view-projection matrix (float32), for the draw. */
  viewProj: Float32Array;
  /** Pixels per world unit at view depth 1 on a canvas `size` tall (for point sizes). */
  focal: number;
}

export function viewAt(frame: number, size: number): SplatView {
  const angle = 0.9 + 0.06 * frame;
  const dir: [number, number, number] = [Math.round(-DIR_SCALE * Math.cos(angle)), -30, Math.round(-DIR_SCALE * Math.sin(angle))];
  const norm = Math.hypot(...dir);
  const eye = dir.map((c) => Math.round((-c / norm) * ORBIT * GRID) / GRID) as [number, number, number];
  // depth / |dir| lies within ORBIT ± (EXTENT·√3 + a rounding margin): lo and scale map that range into 16 bits
  const reach = EXTENT * Math.sqrt(3) + 1;
  const lo = Math.floor((ORBIT - reach) * norm * GRID) / GRID;
  const scale = 2 ** Math.floor(Math.log2(65535 / (2 * reach * norm)));
  const f = 1 / Math.tan(((FOV_DEGREES / 2) * Math.PI) / 180);
  const viewProj = new Float32Array(multiply(perspective(f, NEAR, FAR), lookAlong(eye, dir)));
  return { frame, eye, dir, lo, scale, viewProj, focal: (f * size) / 2 };
}

/** Column-major 4×4 product a · b. */
function multiply(a: number[], b: number[]): number[] {
  const out = new Array<number>(16).fill(0);
  for (let col = 0; col < 4; col++) for (let row = 0; row < 4; row++) for (let k = 0; k < 4; k++) out[4 * col + row] += a[4 * k + row] * b[4 * col + k];
  return out;
}

function perspective(f: number, near: number, far: number): number[] {
  return [f, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, (2 * far * near) / (near - far), 0];
}

/** The view matrix of a camera at `eye` looking along `dir`, y up. */
function lookAlong(eye: number[], dir: number[]): number[] {
  const normalize = (v: number[]) => {
    const l = Math.hypot(...v);
    return v.map((c) => c / l);
  };
  const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const forward = normalize(dir);
  const right = normalize(cross(forward, [0, 1, 0]));
  const up = cross(right, forward);
  return [right[0], up[0], -forward[0], 0, right[1], up[1], -forward[1], 0, right[2], up[2], -forward[2], 0, -dot(right, eye), -dot(up, eye), dot(forward, eye), 1];
}

/**
 * The keys of the first n points (as uint32 words: the 16-bit key, or the float32 depth's bits),
 * computed as the page's key pass computes them on the GPU (exact: see the top of this file).
 */
export function depthKeys(points: Uint32Array, n: number, view: Pick<SplatView, 'eye' | 'dir' | 'lo' | 'scale'>, kind: KeyKind, out: Uint32Array = new Uint32Array(n)): Uint32Array {
  const floats = new Float32Array(points.buffer, points.byteOffset, 4 * n);
  const [ex, ey, ez] = view.eye;
  const [dx, dy, dz] = view.dir;
  const { lo, scale } = view;
  if (kind === 'float') {
    const depths = new Float32Array(out.buffer, out.byteOffset, n);
    for (let i = 0; i < n; i++) depths[i] = (floats[4 * i] - ex) * dx + (floats[4 * i + 1] - ey) * dy + (floats[4 * i + 2] - ez) * dz;
  } else {
    for (let i = 0; i < n; i++) {
      const depth = (floats[4 * i] - ex) * dx + (floats[4 * i + 1] - ey) * dy + (floats[4 * i + 2] - ez) * dz;
      out[i] = Math.min(65535, Math.max(0, Math.floor((depth - lo) * scale)));
    }
  }
  return out;
}

/**
 * Point indices in descending key order, stable (equal keys keep index order), as a splat viewer's
 * sorting worker does it: 16-bit keys by one counting sort (65,536 buckets), float32 depths by two
 * 16-bit LSD passes over their order bits. `out` may be longer than n (the rest is left alone).
 */
export function sortDescending(keys: Uint32Array, n: number, kind: KeyKind, out: Uint32Array = new Uint32Array(n)): Uint32Array {
  const counts = new Uint32Array(65536);
  const pass = (digit: (i: number) => number, from: Uint32Array | undefined, into: Uint32Array) => {
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[digit(from ? from[k] : k)]++;
    // descending: the largest digit's bucket first
    let at = 0;
    for (let d = 65535; d >= 0; d--) {
      const c = counts[d];
      counts[d] = at;
      at += c;
    }
    for (let k = 0; k < n; k++) {
      const i = from ? from[k] : k;
      into[counts[digit(i)]++] = i;
    }
  };
  if (kind === 'u16') {
    pass((i) => keys[i], undefined, out);
    return out;
  }
  // float32 bits → an unsigned key in float order (sign flips all bits of negatives, the top bit of positives)
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const bits = keys[i];
    order[i] = (bits & 0x80000000 ? ~bits : bits | 0x80000000) >>> 0;
  }
  const low = new Uint32Array(n);
  pass((i) => order[i] & 0xffff, undefined, low);
  pass((i) => order[i] >>> 16, low, out);
  return out;
}
