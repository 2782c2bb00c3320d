// Counts the context's GPU→CPU reads (readPixels, getBufferSubData), split into reads made while a
// frame is rendered (`frame(() => ...)`) and reads made outside (a test's checks, Pause): the pages
// that draw from the GPU-resident count show that their render loop makes none. `countCalls` counts
// any other methods the same way (the Hi-Z page counts `blockingQueries` too).
export interface ReadbackCounter {
  /** Runs `render` as one frame: reads during it count for that frame. Returns what `render` returns. */
  frame<T>(render: () => T): T;
  /** Reads per rendered frame, in order. */
  readonly perFrame: number[];
  /** Reads made outside frames (checks, Pause). */
  readonly outside: number;
}

/**
 * State and status queries: in a browser each is a synchronous round trip to the GPU process,
 * answered after everything queued before it has run (MDN "WebGL best practices"), so a frame that
 * makes one waits for the GPU. (Query objects' QUERY_RESULT_AVAILABLE is not among them: WebGL
 * updates it between tasks, and a page polls it without waiting.)
 */
export const blockingQueries = [
  'getParameter', 'isEnabled', 'getError', 'checkFramebufferStatus', 'getProgramParameter', 'getShaderParameter', 'getProgramInfoLog',
  'getShaderInfoLog', 'getUniformLocation', 'getAttribLocation', 'getActiveUniform', 'getActiveAttrib', 'getTexParameter', 'getBufferParameter',
  'getFramebufferAttachmentParameter', 'getRenderbufferParameter', 'getVertexAttrib', 'getIndexedParameter', 'getInternalformatParameter',
  'getSyncParameter', 'clientWaitSync', 'finish',
];

/** Counts calls of the context's methods `names`, per frame and outside frames. */
export function countCalls(gl: WebGL2RenderingContext, names: string[]): ReadbackCounter {
  const perFrame: number[] = [];
  let current: number | undefined;
  let outside = 0;
  const target = gl as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of names) {
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

export function countReadbacks(gl: WebGL2RenderingContext): ReadbackCounter {
  return countCalls(gl, ['readPixels', 'getBufferSubData']);
}
