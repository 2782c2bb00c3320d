// GPU time of submitted work, from a TIME_ELAPSED timer query (EXT_disjoint_timer_query_webgl2).
import { betweenPolls } from './adapter.js';
import type { Gpu } from './gpu.js';

/**
 * Milliseconds of GPU time `run` submits, polled between tasks; undefined where the context has no
 * timer (`available` false, e.g. headless-gl) or the measurement was disjoint.
 */
export async function timeOnGpu(gpu: Gpu, available: boolean, run: () => void, assertAlive: () => void): Promise<number | undefined> {
  const gl = gpu.gl;
  const ext = available ? gl.getExtension('EXT_disjoint_timer_query_webgl2') : null;
  if (!ext) {
    run();
    return undefined;
  }
  const query = gpu.create('queries');
  try {
    gl.beginQuery(ext.TIME_ELAPSED_EXT, query);
    try {
      run();
    } finally {
      gl.endQuery(ext.TIME_ELAPSED_EXT);
    }
    gl.flush();
    for (let attempt = 0; !gl.getQueryParameter(query, gl.QUERY_RESULT_AVAILABLE); attempt++) {
      assertAlive();
      await betweenPolls(attempt);
    }
    if (gl.getParameter(ext.GPU_DISJOINT_EXT)) return undefined;
    return (gl.getQueryParameter(query, gl.QUERY_RESULT) as number) / 1e6;
  } finally {
    gpu.release('queries', query);
  }
}
