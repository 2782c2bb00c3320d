// Counts the context's GPU→CPU reads (readPixels, getBufferSubData), split into reads made while a
// frame is rendered (`frame(() => ...)`) and reads made outside (a test's checks, Pause): the pages
// that draw from the GPU-resident count show that their render loop makes none.
export interface ReadbackCounter {
  /** Runs `render` as one frame: reads during it count for that frame. Returns what `render` returns. */
  frame<T>(render: () => T): T;
  /** Reads per rendered frame, in order. */
  readonly perFrame: number[];
  /** Reads made outside frames (checks, Pause). */
  readonly outside: number;
}

export function countReadbacks(gl: WebGL2RenderingContext): ReadbackCounter {
  const perFrame: number[] = [];
  let current: number | undefined;
  let outside = 0;
  const target = gl as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['readPixels', 'getBufferSubData']) {
    const original = target[name];
    target[name] = function (this: unknown, ...args: unknown[]) {
      if (current === undefined) outside += 1;
      else current += 1;
      return original.apply(gl, args);
    };
  }
  return {
    frame(render) {
      current = 0;
      try {
        return render();
      } finally {
        perFrame.push(current);
        current = undefined;
      }
    },
    perFrame,
    get outside() {
      return outside;
    },
  };
}
