// CPU side of the step-by-step page: example streams, and the trace of Jumping Jack's jumps
// (paper Algorithm 2) through a MAS stream that the GPU computed.
import { seededRandom } from './random.js';

/** The stream of the paper's Fig. 7 (16 elements, 6 kept: a..f as 1..6, 0 = invalid). */
export const paperFigure7 = [0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 5, 0, 0, 6, 0, 0];

/** Block size the page uses: the stream length rounded up to a power of two, at least 16. */
export function blockSizeFor(length: number): number {
  return Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(length, 1))));
}

/** A random stream: `length` elements, each invalid (0) with probability `invalidDensity`, else 1..99. */
export function randomStream(length: number, invalidDensity: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length }, () => (random() < invalidDensity ? 0 : 1 + Math.floor(random() * 99)));
}

export interface JumpTrace {
  /** Output position (i < v). */
  position: number;
  /** Indices visited: path[0] = position, each next one = MAS[previous]; the last is kept. */
  path: number[];
}

/**
 * Traces Algorithm 2 for every output position i < v of one block: idx = i; while (!kept(idx))
 * idx = MAS[idx]. `invalid[k]` is 1 where element k is not kept (padding included).
 */
export function traceJumps(mas: ArrayLike<number>, invalid: ArrayLike<number>): JumpTrace[] {
  const b = mas.length;
  const v = mas[b - 1];
  const traces: JumpTrace[] = [];
  for (let i = 0; i < v; i++) {
    const path = [i];
    let idx = i;
    while (invalid[idx] !== 0) {
      idx = mas[idx];
      path.push(idx);
      if (path.length > b) throw new Error(`Jumping Jack trace from position ${i} does not end within ${b} jumps: MAS is inconsistent`);
    }
    traces.push({ position: i, path });
  }
  return traces;
}
