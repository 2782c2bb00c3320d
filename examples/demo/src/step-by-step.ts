// "Jumping Jack, step by step": one block compacted by the engine on the GPU, read back and drawn
// like the paper's Fig. 7. What comes from the GPU: the compacted values and their source indices
// (Jumping Jack and Horn), the kept/invalid decisions (Horn's output indices), and the block's
// all-prefix-sum of the invalid flags (engine.scan with blockSize = b). MAS = b − pSum is one
// subtraction on the CPU, and the jumps are traced on the CPU through that GPU-computed MAS; the
// page checks that the trace lands exactly where the engine's own Jumping Jack pass did.
import type { Engine } from 'glcompact';
import { blockSizeFor, paperFigure7, randomStream, traceJumps, type JumpTrace } from './shared/jumping-jack.js';
import { element, engineOn, showError } from './shared/page.js';
import { numberParam } from './shared/random.js';

interface BlockResult {
  values: number[];
  n: number;
  b: number;
  /** invalid[k] = 1 where element k is not kept (padding k >= n included). */
  invalid: number[];
  pSum: number[];
  mas: number[];
  v: number;
  jumpingJack: number[];
  jumpingJackSources: number[];
  horn: number[];
  hornSources: number[];
  traces: JumpTrace[];
  checks: { name: string; ok: boolean }[];
  engineStats: { jumpingJack: unknown; horn: unknown; scan: unknown };
}

/** What the page exposes for its test (test/demo-pages.node.test.ts): window.demoState. */
const exposed = window as unknown as { demoState?: BlockResult & { ready: boolean; renderer: string; runs: number } };

const svgNS = 'http://www.w3.org/2000/svg';
const params = new URLSearchParams(location.search);
const canvas = document.createElement('canvas'); // the engine's context; nothing is drawn on it
const { engine } = engineOn(canvas);
let runs = 0;
let current: BlockResult | undefined;
/**
 * In the dense view (more jumps than the paper's figure, e.g. 64 elements), the output position
 * whose jump chain is drawn in full; the others are drawn faint. Starts at the longest search;
 * clicking a compacted cell picks another; clicking it again draws every chain alike.
 */
let selected: number | undefined;

function sameMultiset(a: number[], b: number[]): boolean {
  const sort = (x: number[]) => [...x].sort((p, q) => p - q);
  return a.length === b.length && sort(a).every((x, i) => x === sort(b)[i]);
}

async function computeBlock(engine: Engine, values: number[]): Promise<BlockResult> {
  const n = values.length;
  const b = blockSizeFor(n);
  const stream = engine.stream(Uint32Array.from(values));
  const common = { keep: 'nonzero', blockSize: b } as const;
  const jj = engine.compact(stream, { ...common, algorithm: 'jumping-jack' });
  const jjSources = engine.compact(stream, { ...common, algorithm: 'jumping-jack', output: 'indices' });
  const horn = engine.compact(stream, { ...common, algorithm: 'horn' });
  const hornSources = engine.compact(stream, { ...common, algorithm: 'horn', output: 'indices' });
  const jumpingJack = Array.from(await jj.read());
  const jumpingJackSources = Array.from(await jjSources.read());
  const hornValues = Array.from(await horn.read());
  const hornSourceList = Array.from(await hornSources.read());

  // The kept decisions the engine made (its keep() pass), as the paper's "discriminated" row;
  // positions past n are padding and count as invalid, as they do inside the engine.
  const invalid = new Array<number>(b).fill(1);
  for (const k of hornSourceList) invalid[k] = 0;
  const flags = engine.stream(Uint32Array.from(invalid));
  const pSumStream = engine.scan(flags, { blockSize: b, exclusive: false });
  const scanStats = engine.lastScanStats;
  const pSum = Array.from(await pSumStream.read());
  const mas = pSum.map((p) => b - p); // Eq. 1
  const v = mas[b - 1];
  const traces = traceJumps(mas, invalid);

  const expected = values.filter((x) => x !== 0);
  const totalJumps = traces.reduce((sum, t) => sum + t.path.length - 1, 0);
  const checks = [
    { name: `kept count: MAS[b−1] = ${v} = engine count ${await jj.count()} = CPU filter ${expected.length}`, ok: v === expected.length && v === jumpingJack.length },
    { name: 'CPU trace of Algorithm 2 through the GPU MAS lands where the engine\'s Jumping Jack pass did, position by position', ok: traces.map((t) => t.path[t.path.length - 1]).join() === jumpingJackSources.join() },
    { name: 'Jumping Jack output = CPU filter as a multiset', ok: sameMultiset(jumpingJack, expected) },
    { name: "Horn's output = CPU filter, in input order", ok: hornValues.join() === expected.join() },
    { name: `total jumps ${totalJumps} ≤ b − v = ${b - v} (paper: parallel work ≤ s − v)`, ok: totalJumps <= b - v },
  ];
  const engineStats = { jumpingJack: jj.stats, horn: horn.stats, scan: scanStats };
  for (const s of [stream, flags, pSumStream]) s.dispose();
  for (const r of [jj, jjSources, horn, hornSources]) r.dispose();
  return { values, n, b, invalid, pSum, mas, v, jumpingJack, jumpingJackSources, horn: hornValues, hornSources: hornSourceList, traces, checks, engineStats };
}

// --- drawing ---

const hue = (i: number) => (i * 137.508) % 360;
const colorOf = (i: number) => `hsl(${hue(i).toFixed(1)}, 70%, 40%)`;
const fillOf = (i: number) => `hsl(${hue(i).toFixed(1)}, 85%, 92%)`;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>, parent?: Element, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(svgNS, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  parent?.append(node);
  return node;
}

function draw(result: BlockResult, step: number): void {
  const { b, n, v, values, invalid, pSum, mas, traces } = result;
  const labelW = 200;
  const available = Math.max(600, element('figure').clientWidth || 1200) - labelW - 16;
  const cw = Math.max(16, Math.min(44, Math.floor(available / b)));
  const ch = 28;
  const left = labelW;
  const width = left + b * cw + 16;
  const fontSize = cw >= 30 ? 13 : cw >= 20 ? 11 : 10;
  // Up to 24 jumps (the paper's Fig. 7 has 10) every chain is drawn in full with its jump numbers.
  // Past that, the arcs tangle: only the selected position's chain is drawn in full, the others faint.
  const dense = traces.reduce((sum, t) => sum + t.path.length - 1, 0) > 24;
  const chosen = dense && selected !== undefined && selected < v ? selected : undefined;
  const maxDistance = Math.max(1, ...traces.flatMap((t) => t.path.slice(1).map((to, j) => Math.abs(to - t.path[j]))));
  const arcHeight = (d: number) => 8 + (d / maxDistance) * 86;
  const forwardSpace = Math.max(30, ...traces.flatMap((t) => t.path.slice(1).map((to, j) => (to > t.path[j] ? arcHeight(to - t.path[j]) : 0)))) + 12;
  const backwardSpace = Math.max(24, ...traces.flatMap((t) => t.path.slice(1).map((to, j) => (to < t.path[j] ? arcHeight(t.path[j] - to) : 0)))) + 10;

  let y = 22;
  const rows: Record<string, number> = {};
  const place = (name: string, gapBefore: number) => {
    y += gapBefore;
    rows[name] = y;
    y += ch;
  };
  place('index', 0);
  rows.index -= 8;
  place('data', 0);
  place('invalid', 8);
  place('pSum', 8);
  place('mas', 8);
  place('jumps', forwardSpace);
  y += backwardSpace;
  place('jumpingJack', 46);
  place('horn', 30);
  const height = y + 18;

  const root = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}` });
  root.style.maxWidth = '100%';
  root.style.height = 'auto';
  root.setAttribute('role', 'img');
  root.setAttribute('aria-label', 'Graphical trace of the Jumping Jack algorithm');
  const defs = svg('defs', {}, root);
  for (let i = 0; i < v; i++) {
    const marker = svg('marker', { id: `arrow-${i}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    svg('path', { d: 'M 0 1 L 10 5 L 0 9 z', fill: colorOf(i) }, marker);
  }
  const hatch = svg('pattern', { id: 'pad', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
  svg('rect', { width: 6, height: 6, fill: '#f1f3f6' }, hatch);
  svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#cfd5de', 'stroke-width': 2 }, hatch);

  const x = (k: number) => left + k * cw;
  const cx = (k: number) => x(k) + cw / 2;
  const label = (row: string, title: string, sub?: string) => {
    svg('text', { x: 8, y: rows[row] + (sub ? 11 : 17), class: 'label' }, root, title);
    if (sub) svg('text', { x: 8, y: rows[row] + 23, class: 'sublabel' }, root, sub);
  };
  const cell = (row: string, k: number, text: string, fill: string, options: { stroke?: string; strokeWidth?: number; color?: string; small?: string } = {}) => {
    const g = svg('g', {}, root);
    svg('rect', { x: x(k) + 1, y: rows[row], width: cw - 2, height: ch, rx: 3, fill, stroke: options.stroke ?? '#c3cad5', 'stroke-width': options.strokeWidth ?? 1 }, g);
    svg('text', { x: cx(k), y: rows[row] + ch / 2 + fontSize * 0.36 - (options.small ? 3 : 0), 'text-anchor': 'middle', 'font-size': fontSize, fill: options.color ?? '#1d2330' }, g, text);
    if (options.small) svg('text', { x: cx(k), y: rows[row] + ch - 3, 'text-anchor': 'middle', 'font-size': cw >= 24 ? 9 : 8, fill: '#4b5563' }, g, options.small);
    return g;
  };

  // index row and the v divider
  for (let k = 0; k < b; k++) svg('text', { x: cx(k), y: rows.index + 12, 'text-anchor': 'middle', 'font-size': 10, fill: k < n ? '#5f6b7a' : '#aab2bd' }, root, String(k));
  svg('text', { x: 8, y: rows.index + 12, class: 'sublabel' }, root, `index k   (b = ${b}, n = ${n}, v = ${v})`);
  const divider = x(v);
  svg('line', { x1: divider, y1: rows.data - 4, x2: divider, y2: rows.horn + ch + 4, stroke: '#1f6feb', 'stroke-width': 1.5, 'stroke-dasharray': '4 3' }, root);
  svg('text', { x: divider + 3, y: rows.horn + ch + 14, 'font-size': 10.5, fill: '#1f6feb' }, root, `v = ${v}`);

  const isPad = (k: number) => k >= n;
  const sourceLabel = (k: number) => (cw >= 24 ? `←${k}` : String(k));
  label('data', 'original data', 'kept ≠ 0');
  for (let k = 0; k < b; k++) {
    cell('data', k, isPad(k) ? '' : String(values[k]), isPad(k) ? 'url(#pad)' : invalid[k] ? '#ffffff' : '#dcfce7');
  }
  label('invalid', 'discriminated (invalid = 1)', "engine keep() decisions");
  for (let k = 0; k < b; k++) cell('invalid', k, String(invalid[k]), isPad(k) ? 'url(#pad)' : invalid[k] ? '#fee2e2' : '#ffffff');
  label('pSum', 'all-prefix-sum of invalid', 'engine.scan, inclusive, per block');
  for (let k = 0; k < b; k++) cell('pSum', k, String(pSum[k]), isPad(k) ? 'url(#pad)' : '#ffffff');
  label('mas', 'MAS = b − pSum', 'Eq. 1');
  for (let k = 0; k < b; k++) cell('mas', k, String(mas[k]), isPad(k) ? 'url(#pad)' : '#f8fafc');

  // the jumps
  label('jumps', 'original data + jumps', 'idx ← MAS[idx]: forward ↑, back ↓');
  const claimedBy = new Map<number, number>();
  for (const t of traces) claimedBy.set(t.path[t.path.length - 1], t.position);
  for (let k = 0; k < b; k++) {
    const owner = claimedBy.get(k);
    cell('jumps', k, isPad(k) ? '' : String(values[k]), isPad(k) ? 'url(#pad)' : owner !== undefined ? fillOf(owner) : '#ffffff', owner !== undefined ? { stroke: colorOf(owner), strokeWidth: 2 } : {});
  }
  const top = rows.jumps;
  const bottom = rows.jumps + ch;
  const outTop = rows.jumpingJack;
  // the selected chain last, so that it is drawn on top of the faint ones
  const drawOrder = chosen === undefined ? traces : [...traces.filter((t) => t.position !== chosen), traces[chosen]];
  const placed: { x: number; y: number }[] = []; // the selected chain's jump numbers so far
  for (const t of drawOrder) {
    const i = t.position;
    const role = chosen === undefined ? '' : i === chosen ? ' selected' : ' faint';
    const g = svg('g', { class: `jump${role}`, 'data-position': i }, root);
    const strokeWidth = !dense ? 1.6 : i === chosen ? 2.2 : 1.1;
    const showNumbers = !dense || i === chosen;
    const jumps = t.path.length - 1;
    // start marker: where position i begins its search
    if (jumps > 0) svg('circle', { cx: cx(i), cy: top - 4, r: 3, fill: colorOf(i) }, g);
    for (let j = 1; j <= Math.min(jumps, step); j++) {
      const from = t.path[j - 1];
      const to = t.path[j];
      const forward = to > from;
      const d = Math.abs(to - from);
      const ry = arcHeight(d);
      const yEnd = forward ? top : bottom;
      // sweep flag 1 (clockwise on screen): left-to-right arcs go over the row, right-to-left under it
      const path = `M ${cx(from)} ${yEnd} A ${(d * cw) / 2} ${ry} 0 0 1 ${cx(to)} ${yEnd}`;
      svg('path', { d: path, fill: 'none', stroke: colorOf(i), 'stroke-width': strokeWidth, 'marker-end': `url(#arrow-${i})` }, g);
      // the number sits over the arc's apex; the selected chain's nested arcs (a search spirals in)
      // share their middles, so its numbers slide along their arcs until they clear each other
      const middle = (cx(from) + cx(to)) / 2;
      const at = (angle: number) => ({
        x: middle + ((d * cw) / 2) * Math.cos(angle),
        y: forward ? top - ry * Math.sin(angle) - 3 : bottom + ry * Math.sin(angle) + 10,
      });
      let { x: labelX, y: labelY } = at(Math.PI / 2);
      if (i === chosen) {
        const clear = (p: { x: number; y: number }) => placed.every((q) => Math.abs(q.x - p.x) >= 13 || Math.abs(q.y - p.y) >= 12);
        const spot = [90, 65, 115, 45, 135, 30, 150].map((deg) => at((deg * Math.PI) / 180)).find(clear);
        if (spot) ({ x: labelX, y: labelY } = spot);
        placed.push({ x: labelX, y: labelY });
      }
      svg('text', { x: labelX, y: labelY, 'text-anchor': 'middle', 'font-size': i === chosen ? 11 : 9.5, 'font-weight': i === chosen ? 700 : 400, fill: colorOf(i), class: showNumbers ? 'num' : 'num on-focus' }, g, String(j));
    }
    const done = jumps <= step;
    const source = t.path[t.path.length - 1];
    if (done) {
      svg('line', { x1: cx(source), y1: bottom + 2, x2: cx(i), y2: outTop - 2, stroke: colorOf(i), 'stroke-width': i === chosen ? 1.6 : 1, 'stroke-dasharray': '3 2', opacity: 0.75 }, g);
    }
  }

  label('jumpingJack', 'compacted (Jumping Jack)', 'GPU; small: source index');
  for (let i = 0; i < b; i++) {
    if (i >= v) { cell('jumpingJack', i, '', '#f8fafc', { stroke: '#e2e6ec' }); continue; }
    const t = traces[i];
    const done = t.path.length - 1 <= step;
    const strokeWidth = i === chosen ? 3.5 : 2;
    const g = done
      ? cell('jumpingJack', i, String(result.jumpingJack[i]), fillOf(i), { stroke: colorOf(i), strokeWidth, small: sourceLabel(result.jumpingJackSources[i]) })
      : cell('jumpingJack', i, '?', '#ffffff', { stroke: colorOf(i), strokeWidth: i === chosen ? 3.5 : 1, color: '#aab2bd' });
    g.setAttribute('data-position', String(i));
    g.setAttribute('class', i === chosen ? 'jj-cell selected' : 'jj-cell');
    g.style.cursor = 'pointer';
    g.addEventListener('mouseenter', () => focus(root, i));
    g.addEventListener('mouseleave', () => focus(root, undefined));
    if (dense) {
      g.addEventListener('click', () => {
        selected = selected === i ? undefined : i;
        draw(result, step);
      });
    }
  }
  if (chosen !== undefined) {
    // a caret under the selected output position
    svg('path', { d: `M ${cx(chosen)} ${rows.jumpingJack + ch + 3} l -5 7 h 10 z`, fill: colorOf(chosen) }, root);
  }
  label('horn', "Horn (ordered)", 'GPU binary search; small: source');
  for (let i = 0; i < b; i++) {
    if (i >= v) cell('horn', i, '', '#f8fafc', { stroke: '#e2e6ec' });
    else cell('horn', i, String(result.horn[i]), '#dcfce7', { small: sourceLabel(result.hornSources[i]) });
  }
  const figure = element('figure');
  figure.replaceChildren(root);
  const chainText = (i: number) => {
    const jumps = traces[i].path.length - 1;
    return `position ${i}'s ${jumps} jump${jumps === 1 ? '' : 's'} (${traces[i].path.join(' → ')})`;
  };
  element('figure-note').textContent = !dense
    ? 'Every output position\'s jumps are drawn, numbered in order. Hover a compacted cell to follow one.'
    : chosen !== undefined
      ? `Too many jumps to draw them all legibly: ${chainText(chosen)} drawn in full, numbered, the other positions' faint. ` +
        'Click a compacted cell to follow its jumps instead (click it again to draw every position alike); hover one to peek.'
      : 'Every position\'s jumps drawn alike. Click a compacted cell to draw its jumps in full and the others faint; hover one to peek.';
}

function focus(root: SVGSVGElement, position: number | undefined): void {
  root.classList.toggle('focused', position !== undefined);
  for (const g of root.querySelectorAll('g.jump')) g.classList.toggle('focus', g.getAttribute('data-position') === String(position));
}

function renderText(result: BlockResult): void {
  const { b, v, traces, values } = result;
  const totalJumps = traces.reduce((sum, t) => sum + t.path.length - 1, 0);
  const maxJumps = Math.max(0, ...traces.map((t) => t.path.length - 1));
  element('summary').textContent =
    `n = ${result.n} elements in one block of b = ${b}; v = ${v} kept; ${totalJumps} jumps in all (bound b − v = ${b - v}), longest search ${maxJumps} jumps`;
  const checks = element('checks');
  checks.replaceChildren(
    ...result.checks.map((c) => {
      const li = document.createElement('li');
      li.innerHTML = `<span class="${c.ok ? 'ok' : 'bad'}">${c.ok ? '✓' : '✗'}</span> `;
      li.append(c.name);
      return li;
    }),
  );
  const lines = traces.map((t) => {
    const parts = [`idx ${t.path[0]}`];
    for (let j = 1; j < t.path.length; j++) parts.push(`MAS[${t.path[j - 1]}] = ${t.path[j]}`);
    const source = t.path[t.path.length - 1];
    const jumps = t.path.length - 1;
    return `i = ${String(t.position).padStart(2)}: ${parts.join(' → ')} → <span class="kept">data[${source}] = ${values[source]}</span>  (${jumps} jump${jumps === 1 ? '' : 's'})`;
  });
  element('trace').innerHTML = lines.join('\n') || '(no kept elements: v = 0, nothing to search)';
}

// --- controls ---

const valuesInput = element<HTMLInputElement>('values');
const lengthInput = element<HTMLInputElement>('length');
const densityInput = element<HTMLInputElement>('density');
const stepInput = element<HTMLInputElement>('step');
let seed = numberParam(params, 'seed', 1);
let playing: number | undefined;

function parseValues(text: string): number[] {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  const values = parts.map((p) => Number(p));
  if (values.length < 1 || values.length > 64) throw new Error(`give 1 to 64 values; got ${values.length}`);
  const bad = values.findIndex((x) => !Number.isInteger(x) || x < 0 || x > 0xffffffff);
  if (bad >= 0) throw new Error(`values must be whole numbers from 0 to 4294967295; "${parts[bad]}" is not`);
  return values;
}

function setStep(step: number): void {
  if (!current) return;
  const max = Number(stepInput.max);
  stepInput.value = String(step);
  element('step-value').textContent = step >= max ? 'all' : String(step);
  draw(current, step);
}

async function run(values: number[]): Promise<void> {
  stopPlaying();
  valuesInput.value = values.join(', ');
  const result = await computeBlock(engine, values);
  current = result;
  runs += 1;
  const maxJumps = Math.max(0, ...result.traces.map((t) => t.path.length - 1));
  // the dense view starts on the longest search (the first one, on a tie)
  selected = result.traces.findIndex((t) => t.path.length - 1 === maxJumps);
  if (selected < 0) selected = undefined;
  stepInput.max = String(maxJumps);
  setStep(maxJumps);
  renderText(result);
  exposed.demoState = { ...result, ready: true, renderer: engine.caps.renderer, runs };
}

function stopPlaying(): void {
  if (playing !== undefined) clearInterval(playing);
  playing = undefined;
  element('play').textContent = '▶ Play the jumps';
}

function randomise(): void {
  seed += 1;
  void run(randomStream(Number(lengthInput.value), Number(densityInput.value) / 100, seed)).catch(showError);
}

element('apply').addEventListener('click', () => {
  try {
    void run(parseValues(valuesInput.value)).catch(showError);
  } catch (error) {
    showError(error);
  }
});
valuesInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter') element('apply').click();
});
element('paper').addEventListener('click', () => void run(paperFigure7).catch(showError));
element('randomise').addEventListener('click', randomise);
lengthInput.addEventListener('input', () => (element('length-value').textContent = lengthInput.value));
densityInput.addEventListener('input', () => (element('density-value').textContent = `${densityInput.value} %`));
lengthInput.addEventListener('change', randomise);
densityInput.addEventListener('change', randomise);
stepInput.addEventListener('input', () => {
  stopPlaying();
  setStep(Number(stepInput.value));
});
element('play').addEventListener('click', () => {
  if (playing !== undefined) return stopPlaying();
  let step = 0;
  setStep(step);
  element('play').textContent = '⏸ Pause';
  playing = window.setInterval(() => {
    step += 1;
    setStep(step);
    if (step >= Number(stepInput.max)) stopPlaying();
  }, 700);
});

element('renderer').textContent = `renderer: ${engine.caps.renderer}`;
let resizeTimer: number | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(() => current && draw(current, Number(stepInput.value)), 100);
});

// Start: ?values=0,1,2,... or ?n=40&invalid=0.6&seed=3 (random), else the paper's Fig. 7 stream.
try {
  if (params.has('values')) {
    await run(parseValues(params.get('values')!));
  } else if (params.has('n')) {
    const n = Math.min(64, Math.max(1, Math.round(numberParam(params, 'n', 32))));
    const invalid = Math.min(1, Math.max(0, numberParam(params, 'invalid', 0.6)));
    lengthInput.value = String(n);
    densityInput.value = String(Math.round(invalid * 100));
    element('length-value').textContent = String(n);
    element('density-value').textContent = `${densityInput.value} %`;
    await run(randomStream(n, invalid, seed));
  } else {
    await run(paperFigure7);
  }
} catch (error) {
  showError(error);
}
