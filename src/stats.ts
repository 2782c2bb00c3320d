// What an operation cost on the GPU, counted as it is issued (no queries, no sync).

/** What an operation cost on the GPU, counted as it was issued (part of ScanStats and CompactStats). */
export interface PassStats {
  /** Full-screen (or full-target) fragment passes plus line and transform-feedback draws. */
  passes: number;
  /** GL draw calls issued. */
  drawCalls: number;
  /** Fragments shaded by rectangle (full-target) passes, exactly. Line draws are counted apart. */
  fragments: number;
  /** Fragments the concatenation lines can shade at most (= the stream length); exactly the kept count in practice. */
  lineFragmentsAtMost: number;
}

export function emptyStats(): PassStats {
  return { passes: 0, drawCalls: 0, fragments: 0, lineFragmentsAtMost: 0 };
}
