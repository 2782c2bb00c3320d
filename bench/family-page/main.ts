// The CLI's `family` sweep (bench/lib/sweeps.mjs, bench/lib/family.mjs) in a browser page: engine.sort,
// unique, runLengthEncode, reduce, the segmented scan and partition against host code in the same page,
// every GPU result checked bit-exactly against the CPU in its warm-up, as `npm run bench -- --sweep
// family` does in Node. Results: window.familySweep (polled by bench/family-browser.mjs, which builds
// and opens this page). URL: ?sizes=16,18,20 (log2; default the quick run's), ?repeats=5.
import { createEngine } from 'glcompact';
import { BenchContext } from '../lib/runner.mjs';
import { SWEEPS } from '../lib/sweeps.mjs';

interface State {
  done: boolean;
  error?: string;
  status: string;
  progress: number;
  renderer?: { unmasked?: string; caps: string };
  userAgent: string;
  config?: unknown;
  description?: string;
  seconds?: number;
  points: unknown[];
}
const state: State = { done: false, status: 'starting', progress: 0, userAgent: navigator.userAgent, points: [] };
(window as unknown as { familySweep: State }).familySweep = state;
const status = (text: string) => {
  state.status = text;
  document.getElementById('status')!.textContent = text;
};

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const canvas = document.getElementById('canvas') as HTMLCanvasElement;
  const gl = canvas.getContext('webgl2', { antialias: false, depth: false, preserveDrawingBuffer: false });
  if (!gl) throw new Error('no WebGL2 context');
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const engine = createEngine(gl);
  state.renderer = { unmasked: info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : undefined, caps: engine.caps.renderer };
  // The sweep table is plain JavaScript (assigned property by property): typed loosely here.
  const def = (SWEEPS as unknown as Record<string, { config(quick: boolean): { sizes: number[] }; describe(config: unknown): string; points(config: unknown): Array<{ x: unknown; repeats?: number }> }>).family!;
  const config = def.config(true);
  if (params.get('sizes')) config.sizes = params.get('sizes')!.split(',').map((e) => 2 ** Number(e));
  state.config = config;
  state.description = def.describe(config);
  const points = def.points(config);
  const repeats = Number(params.get('repeats') ?? 5);
  const total = points.reduce((sum: number, p: { repeats?: number }) => sum + (p.repeats ?? repeats) + 1, 0);
  let runs = 0;
  // After each run: progress, and a task boundary (outside the timed region) so the page stays responsive.
  const onRun = () => {
    runs++;
    state.progress = runs / total;
    (document.getElementById('progress') as HTMLProgressElement).value = state.progress;
    return new Promise((resolve) => setTimeout(resolve, 0));
  };
  const context = new BenchContext(engine, { repeats, onRun, makeEngine: (options: object) => createEngine(gl, options), gl });
  const started = performance.now();
  // Points of one size run together (runGroup interleaves their timed runs).
  const groups: Array<Array<{ x: unknown }>> = [];
  for (const point of points) {
    const last = groups.at(-1);
    if (last && JSON.stringify(last[0]!.x) === JSON.stringify(point.x)) last.push(point);
    else groups.push([point]);
  }
  for (const group of groups) {
    status(`n = 2^${(group[0] as { x: { log2n: number } }).x.log2n}: ${group.length} series`);
    state.points.push(...(await context.runGroup(group)));
    document.getElementById('log')!.textContent += `${state.status}\n`;
  }
  context.release();
  state.seconds = Math.round((performance.now() - started) / 100) / 10;
  status('done');
  state.done = true;
}

main().catch((error: unknown) => {
  state.error = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  status(`failed: ${state.error}`);
});
