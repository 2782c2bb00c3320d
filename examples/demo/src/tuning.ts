// "Self-tuning": engine.tune() on this device, in a Web Worker where the browser gives workers WebGL2
// (Chromium, Firefox), on the page otherwise (WebKitGTK 2.50: the worker tune rejects, saying so, and
// the page tunes itself). The profile goes to localStorage and comes back through engine.useProfile()
// on the next visit (refused, and tuned again, when the renderer or the engine version changed).
// Then `auto` compacts a stream at every tuned size and three densities, in both order contracts:
// each count and each element checked against the CPU, and the path it ran shown.
//
// A stored profile is taken only where it was tuned at every size the page asks for. "Tune again"
// tunes whether or not one is stored; "Forget" removes it and puts the engine back on its built-in defaults.
//
// ?sizes=10,12,14,16 (log2 of the tuned sizes), ?fresh=1 (tune even where a profile is stored: the
// page's test), ?where=page (tune on the page even where a worker could).
import type { CompactionAlgorithm, TuneProgress, TuningProfile } from 'glcompact';
import { element, engineOn, showError } from './shared/page.js';
import { CHECK_DENSITIES, checkData, checkThreshold, elementsHash } from './shared/tuning-check.js';

const STORAGE_KEY = 'glcompact-demo-profile';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

interface Check {
  elements: number;
  density: number;
  order: 'keep' | 'any';
  algorithm: CompactionAlgorithm;
  count: number;
  cpuCount: number;
  /** The count and the elements equal the CPU's (in input order for 'keep', as a multiset for 'any'). */
  exact: boolean;
  /** The elements read, folded (elementsHash: in order for 'keep', sorted for 'any'), for the page's test to recompute. */
  hash: number;
}

interface DemoState {
  done: boolean;
  /**
   * Runs started on this visit (the first, then one per click on Tune again): what a test waits on
   * for a new run, since tuneMs can repeat (WebKit's performance.now() ticks in whole milliseconds).
   */
  runs: number;
  /** 'tuned': measured on this visit; 'stored': given back from localStorage. */
  source?: 'tuned' | 'stored';
  /** Where the tune ran, and why not in the worker where it did not. */
  where?: 'worker' | 'page';
  workerError?: string;
  /** Why a stored profile was refused (then the page tuned). */
  storedRefused?: string;
  /** Why localStorage could not be read or written (the page then tunes, or keeps nothing). */
  storageError?: string;
  /**
   * What failed, where the page could not finish. (Not named `error`: WebKit's WebDriver client takes
   * a returned object with an `error` key for a failed command.)
   */
  failure?: string;
  progress: TuneProgress[];
  tuneMs?: number;
  profile?: TuningProfile;
  checks: Check[];
  renderer: string;
}

const params = new URLSearchParams(location.search);
const sizes = (params.get('sizes') ?? '10,12,14,16').split(',').map(Number);
const fresh = params.get('fresh') === '1';
const pageOnly = params.get('where') === 'page';
/** What is wrong with the URL's options, shown on the page instead of running (undefined: nothing). */
const badOptions = !sizes.every((s) => Number.isInteger(s) && s >= 4 && s <= 22)
  ? `?sizes must be log2 sizes from 4 to 22, comma-separated; got '${params.get('sizes')}'`
  : params.get('where') !== null && !pageOnly ? `?where must be page (or left out); got '${params.get('where')}'` : undefined;

const exposed = window as unknown as { demoState?: DemoState };
const { engine } = engineOn(element<HTMLCanvasElement>('canvas'));
const state: DemoState = { done: false, runs: 0, progress: [], checks: [], renderer: engine.caps.renderer };
exposed.demoState = state;
element('renderer').textContent = `renderer: ${engine.caps.renderer}`;

const status = (text: string) => (element('status').textContent = text);
const progressBar = element<HTMLProgressElement>('progress');

/** What localStorage keeps: the profile and the sizes (log2) it was tuned at. */
interface Stored {
  sizes: number[];
  profile: TuningProfile;
}

/** The stored profile, or null where there is none or the browser refuses storage (then noted on the page). */
function readStored(): Stored | null {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    return text === null ? null : (JSON.parse(text) as Stored);
  } catch (error) {
    state.storageError = messageOf(error);
    return null;
  }
}

function store(profile: TuningProfile): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ sizes, profile } satisfies Stored));
  } catch (error) {
    state.storageError = messageOf(error);
  }
}

/** Tunes in a worker, or on the page where the browser gives workers no WebGL2 (or ?where=page). */
async function tune(): Promise<TuningProfile> {
  const onProgress = (progress: TuneProgress) => {
    state.progress.push(progress);
    progressBar.value = progress.done / progress.total;
    status(`tuning: point ${progress.done} of ${progress.total} (2^${Math.log2(progress.size)} elements, ${progress.density === undefined ? 'the scans' : `${progress.density * 100} % kept`})`);
  };
  const options = { sizes: sizes.map((s) => 2 ** s), onProgress };
  const started = performance.now();
  let profile: TuningProfile | undefined;
  if (!pageOnly) {
    let worker: Worker | undefined;
    try {
      worker = new Worker(new URL('./tuning-worker.ts', import.meta.url), { type: 'module' });
      profile = await engine.tune({ ...options, worker });
      state.where = 'worker';
    } catch (error) {
      state.workerError = messageOf(error);
      state.progress = []; // the page's tune counts from the start again
    } finally {
      worker?.terminate();
    }
  }
  if (!profile) {
    profile = await engine.tune(options);
    state.where = 'page';
  }
  state.tuneMs = performance.now() - started;
  const refused = state.storedRefused ? ` The stored profile was refused: ${state.storedRefused}` : '';
  element('where').textContent = (state.where === 'worker'
    ? `Tuned in a Web Worker in ${(state.tuneMs / 1000).toFixed(1)} s; this page's thread only took the profile.`
    : `Tuned on the page in ${(state.tuneMs / 1000).toFixed(1)} s, one sample per task${state.workerError ? ` (not in a worker: ${state.workerError})` : pageOnly ? ' (?where=page)' : ''}.`) + refused;
  store(profile);
  return profile;
}

/**
 * The stored profile where there is one tuned at every size asked for and this engine takes it
 * (engine.useProfile() refuses another renderer's or glcompact version's); otherwise a tune.
 */
async function profileForThisVisit(forceTune: boolean): Promise<TuningProfile> {
  const stored = forceTune ? null : readStored();
  if (stored && sizes.every((s) => stored.sizes?.includes(s))) {
    try {
      engine.useProfile(stored.profile);
      state.source = 'stored';
      progressBar.value = 1;
      element('where').textContent = 'The profile stored by an earlier visit (localStorage), given back with engine.useProfile(): no tune this time.';
      return engine.profile!;
    } catch (error) {
      state.storedRefused = messageOf(error);
    }
  }
  state.source = 'tuned';
  return tune();
}

function cell(text: string, className?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function showProfile(profile: TuningProfile): void {
  const table = element<HTMLTableElement>('profile');
  const points = Object.keys(profile.timings);
  const compactPaths = [...new Set(points.filter((p) => !p.endsWith('/scan')).flatMap((p) => Object.keys(profile.timings[p])))];
  const scanPaths = [...new Set(points.filter((p) => p.endsWith('/scan')).flatMap((p) => Object.keys(profile.timings[p])))];
  const head = document.createElement('tr');
  for (const text of ['texels', 'kept', ...compactPaths]) head.append(Object.assign(document.createElement('th'), { textContent: text }));
  table.tHead!.replaceChildren(head);
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const point of points) {
    const [key, what] = point.split('/');
    const row = document.createElement('tr');
    row.append(cell(`2^${key}`), cell(what === 'scan' ? 'scan' : `${Number(what) * 100} %`));
    const times = profile.timings[point];
    if (what === 'scan') {
      // The scans have paths of their own: one cell across the compactions' columns.
      const td = cell('', 'left');
      td.colSpan = compactPaths.length;
      for (const path of scanPaths) {
        const span = document.createElement('span');
        span.textContent = `${path} ${times[path]?.toFixed(2) ?? '–'}   `;
        if (path === profile.scan[key]) span.className = 'chosen';
        td.append(span);
      }
      row.append(td);
    } else {
      const chosen: string[] = [profile.compact.keep[key], profile.compact.any[key]];
      for (const path of compactPaths) row.append(cell(times[path] === undefined ? '–' : times[path].toFixed(2), chosen.includes(path) ? 'chosen' : undefined));
    }
    body.append(row);
  }
  const choices = Object.keys(profile.compact.keep).map((key) => `2^${key}: ${profile.compact.keep[key]} / ${profile.compact.any[key]}, scan ${profile.scan[key]}`);
  element('profile-note').textContent = `Chosen (order kept / any order): ${choices.join('; ')}. Timed by ${profile.sampling?.timer === 'query' ? 'timer query (GPU time)' : profile.sampling?.timer === 'fence' ? 'fence (submit to done)' : 'glFinish'}; measured ${profile.measured} by glcompact ${profile.version}.`;
}

/** auto at every tuned size and three densities, both orders; counts and elements against the CPU. */
async function check(): Promise<void> {
  const body = element<HTMLTableElement>('checks').tBodies[0];
  body.replaceChildren();
  state.checks = [];
  for (const log2n of sizes) {
    const n = 2 ** log2n;
    const data = checkData(log2n);
    const stream = engine.stream(data);
    try {
      for (const density of CHECK_DENSITIES) {
        const threshold = checkThreshold(density);
        const expected = data.filter((v) => v <= threshold);
        for (const order of ['keep', 'any'] as const) {
          const result = engine.compact(stream, { keep: { lessEqual: threshold }, order });
          try {
            const values = (await result.read()) as Uint32Array;
            const got = order === 'keep' ? values : values.slice().sort();
            const want = order === 'keep' ? expected : expected.slice().sort();
            const exact = got.length === want.length && got.every((v, i) => v === want[i]);
            const entry: Check = { elements: n, density, order, algorithm: result.stats.algorithm, count: values.length, cpuCount: expected.length, exact, hash: elementsHash(got) };
            state.checks.push(entry);
            const row = document.createElement('tr');
            row.append(cell(n.toLocaleString('en-US')), cell(`${density * 100} %`), cell(order, 'left'), cell(entry.algorithm, 'left mono'),
              cell(entry.count.toLocaleString('en-US')), cell(entry.cpuCount.toLocaleString('en-US')), cell(exact ? '✓' : '✗', exact ? 'ok' : 'bad'));
            body.append(row);
          } finally {
            result.dispose();
          }
        }
      }
    } finally {
      stream.dispose();
    }
  }
}

let busy = false;
const buttons = [element<HTMLButtonElement>('tune'), element<HTMLButtonElement>('forget')];

/** The profile (stored, or tuned: always with forceTune), then auto checked; the buttons wait meanwhile. */
async function run(forceTune: boolean): Promise<void> {
  if (busy) return;
  busy = true;
  for (const button of buttons) button.disabled = true;
  state.runs += 1;
  Object.assign(state, { done: false, failure: undefined, source: undefined, where: undefined, workerError: undefined, storedRefused: undefined, storageError: undefined, progress: [], tuneMs: undefined, profile: undefined, checks: [] });
  try {
    const profile = await profileForThisVisit(forceTune);
    state.profile = profile;
    showProfile(profile);
    status('auto at every tuned size, checked against the CPU');
    await check();
    const wrong = state.checks.filter((c) => !c.exact).length;
    status((wrong === 0 ? `done: ${state.checks.length} compactions by auto, every one equal to the CPU's` : `${wrong} of ${state.checks.length} compactions differ from the CPU`)
      + (state.storageError ? ` (the profile could not be stored: ${state.storageError})` : ''));
    state.done = true;
  } catch (error) {
    state.failure = messageOf(error);
    status('failed: see the error above');
    showError(error);
  } finally {
    busy = false;
    for (const button of buttons) button.disabled = false;
  }
}

element('tune').addEventListener('click', () => void run(true));
element('forget').addEventListener('click', () => {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch (error) {
    showError(error);
  }
  engine.useProfile(null); // back to the built-in defaults until the next tune
  element('where').textContent = 'Stored profile forgotten; auto runs the built-in defaults until the next tune.';
});

if (badOptions === undefined) {
  void run(fresh);
} else {
  state.failure = badOptions;
  status('not run: see the error above');
  for (const button of buttons) button.disabled = true;
  showError(new Error(badOptions));
}
