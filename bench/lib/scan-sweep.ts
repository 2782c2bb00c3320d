// Issue 20: the default whole-stream scan after engine.tune() against every scan algorithm the tune
// chooses among (src/tuning.ts scanCandidates), measured apart from the tune: at each size, each
// series (one per algorithm, and `engine.scan(stream)` with no algorithm: the tuned default) is
// checked once against the CPU's inclusive scan, then timed in batches of back-to-back calls (each
// result disposed, as an app does) between two syncs, the series interleaved in rounds (rotated a
// place per round, or as `order` says); median per call. Shared by bench/tuned-sweep.ts (Node) and bench/tuned-sweep-page (the browsers).
import { scanCandidates } from '../../src/tuning.js';

/** What the sweep asks of an engine (the page's comes from the built package, Node's from src). */
export interface ScanEngine<S> {
  stream(data: Uint32Array): S;
  scan(stream: S, options: { algorithm?: (typeof scanCandidates)[number] }): { read(): Promise<ArrayLike<number>>; dispose(): void };
  readonly lastScanStats: { algorithm: string } | undefined;
}

export const DEFAULT_SCAN_SERIES = 'default (tuned)';

export interface ScanRow {
  log2n: number;
  batch: number;
  /** Median ms per call of each series. */
  ms: Record<string, number>;
  /** Every sample (ms per call), in round order. */
  runsMs: Record<string, number[]>;
  /** The algorithm the default scan ran (engine.lastScanStats). */
  defaultPath: string;
  /** The fastest algorithm's series. */
  fastest: string;
  /** The default scan / the fastest algorithm. */
  ratio: number;
  /** Whether the default ran the fastest algorithm itself (then a ratio off 1 is the two series' noise). */
  samePath: boolean;
}

export interface ScanSweep {
  rows: ScanRow[];
  worst: { ratio: number; log2n: number };
  within115: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function sweepScans<S extends { dispose(): void }>(
  engine: ScanEngine<S>,
  log2Sizes: readonly number[],
  options: {
    rounds: number;
    /** Waits for the GPU (gl.finish in Node, engine.finish in a page). */
    sync: () => Promise<void> | void;
    /** Calls per sample at n elements. */
    batchFor?: (n: number) => number;
    /** The series' order in round `round` (default: the list rotated by a place per round, so no series always runs first). */
    order?: (names: string[], round: number) => string[];
    onRow?: (row: ScanRow) => void;
  },
): Promise<ScanSweep> {
  const series: Array<[string, { algorithm?: (typeof scanCandidates)[number] }]> = [
    ...scanCandidates.map((algorithm) => [algorithm, { algorithm }] as [string, { algorithm: (typeof scanCandidates)[number] }]),
    [DEFAULT_SCAN_SERIES, {}],
  ];
  const batchFor = options.batchFor ?? ((n: number) => (n <= 2 ** 14 ? 16 : n <= 2 ** 18 ? 8 : 2));
  const order = options.order ?? ((names: string[], round: number) => names.map((_, i) => names[(i + round) % names.length]!));
  const rows: ScanRow[] = [];
  const worst = { ratio: 0, log2n: 0 };
  for (const log2n of log2Sizes) {
    const n = 2 ** log2n;
    // Values up to 2^24: sums wrap past 2^32 from ~2^9 elements, as uint32 scans do (mod 2^32).
    const data = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + 7, 2654435761) >>> 0) % 2 ** 24);
    const want = new Uint32Array(n);
    for (let i = 0, sum = 0; i < n; i++) want[i] = sum = (sum + data[i]!) >>> 0;
    const stream = engine.stream(data);
    try {
      let defaultPath = '';
      for (const [name, scanOptions] of series) {
        const sums = engine.scan(stream, scanOptions);
        let got: ArrayLike<number>;
        try {
          got = await sums.read();
        } finally {
          sums.dispose();
        }
        const wrong = Array.prototype.findIndex.call(got, (v: number, i: number) => v !== want[i]);
        if (got.length !== n || wrong >= 0) throw new Error(`scan ${name} of 2^${log2n} elements: ${got.length !== n ? `length ${got.length}` : `element ${wrong} is ${got[wrong]}, the CPU says ${want[wrong]}`}`);
        if (name === DEFAULT_SCAN_SERIES) defaultPath = engine.lastScanStats!.algorithm;
      }
      const batch = batchFor(n);
      const runsMs: Record<string, number[]> = Object.fromEntries(series.map(([name]) => [name, []]));
      const byName = new Map(series);
      for (let round = 0; round < options.rounds; round++) {
        for (const name of order(series.map(([s]) => s), round)) {
          const scanOptions = byName.get(name)!;
          await options.sync();
          const start = performance.now();
          for (let k = 0; k < batch; k++) engine.scan(stream, scanOptions).dispose();
          await options.sync();
          runsMs[name]!.push((performance.now() - start) / batch);
        }
      }
      const ms = Object.fromEntries(Object.entries(runsMs).map(([name, t]) => [name, median(t)]));
      const fastest = scanCandidates.reduce((a, b) => (ms[b]! < ms[a]! ? b : a));
      const row: ScanRow = { log2n, batch, ms, runsMs, defaultPath, fastest, ratio: ms[DEFAULT_SCAN_SERIES]! / ms[fastest]!, samePath: defaultPath === fastest };
      if (row.ratio > worst.ratio) Object.assign(worst, { ratio: row.ratio, log2n });
      rows.push(row);
      options.onRow?.(row);
    } finally {
      stream.dispose();
    }
  }
  return { rows, worst, within115: rows.filter((r) => r.ratio <= 1.15).length };
}

/** One line per row, for the sweeps' logs. */
export function formatScanRow(row: ScanRow): string {
  return `scan 2^${row.log2n}: default → ${row.defaultPath} ×${row.ratio.toFixed(2)} of the fastest (${row.fastest})${row.samePath ? ', the same algorithm' : ''} | ${Object.entries(row.ms).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(', ')}`;
}
