// One SVG per sweep: a vega-lite spec compiled and rendered by vega in Node (no browser, no canvas).
import * as vega from 'vega';
import { compile } from 'vega-lite';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

const config = {
  aria: false, // no per-mark aria-label attributes: they made up a third of each SVG's bytes
  font: 'DejaVu Sans, Helvetica, Arial, sans-serif',
  background: 'white',
  padding: 12,
  title: { fontSize: 15, subtitleFontSize: 11, subtitleColor: '#444', anchor: 'start', offset: 12 },
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#e6e6e6' },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 400 },
};

/**
 * Splits text into lines of at most `width` characters. Without a canvas, vega sizes the SVG
 * from an estimate of text width (0.8 × font size per character), so long lines would widen the
 * picture with blank space.
 */
function wrap(text, width = 95) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function title(meta, sweep, text) {
  return {
    text: `${text} — ${meta.rendererShort}`,
    subtitle: [
      ...wrap(`renderer: ${meta.renderer}`),
      ...wrap(sweep.description),
      ...wrap(`glcompact ${meta.packageVersion} · node ${meta.node} · ${meta.date} · ${meta.quick ? 'quick run · ' : ''}median of ${sweep.config.repeats ?? meta.repeats} runs after 1 warm-up, bars: interquartile range (min/max in the JSON) · timing: ${sweep.config.callsPerRun ? `wall time per call over loops of ${sweep.config.callsPerRun} calls between engine.finish() calls` : `${meta.timing} (wall time + 1-texel sync)`}`),
    ],
  };
}

/** Colour per series, fixed so a series keeps its colour across charts. */
function colour(seriesNames) {
  const palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#7f7f7f', '#ff7f0e', '#8c564b', '#17becf'];
  return { field: 'series', type: 'nominal', title: 'series', scale: { domain: seriesNames, range: palette.slice(0, seriesNames.length) } };
}

const seriesOrder = (points) => [...new Set(points.map((p) => p.series))];

/** Median line with interquartile bars (min/max bars were dominated by other processes' load spikes). */
function timeLayers(x, y, seriesNames) {
  return [
    { mark: { type: 'rule', strokeWidth: 1.5, opacity: 0.7 }, encoding: { x, y: { field: 'q1Ms', type: 'quantitative' }, y2: { field: 'q3Ms' }, color: colour(seriesNames) } },
    { mark: { type: 'line', point: { size: 30 }, strokeWidth: 2 }, encoding: { x, y, color: colour(seriesNames), tooltip: [{ field: 'series' }, { field: 'medianMs' }] } },
  ];
}

function densitySpec(meta, sweep) {
  const points = sweep.points;
  const names = seriesOrder(points);
  const x = { field: 'density', type: 'quantitative', title: 'invalid density (% of elements not kept)', scale: { domain: [0, 100] }, axis: { values: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100] } };
  const y = { field: 'medianMs', type: 'quantitative', title: 'time per compaction (ms)', scale: { zero: true } };
  const layers = [{ data: { values: points }, layer: timeLayers(x, y, names) }];
  const cross = sweep.crossover?.densityPercent;
  if (cross != null) {
    layers.push({
      data: { values: [{ density: cross, label: `JJ → Horn (block) crossover ≈ ${cross} % (paper: ~78 %)` }] },
      layer: [
        { mark: { type: 'rule', strokeDash: [6, 4], color: '#333' }, encoding: { x: { field: 'density', type: 'quantitative' } } },
        { mark: { type: 'text', align: 'right', dx: -4, dy: 8, baseline: 'top', fontSize: 11, color: '#333' }, encoding: { x: { field: 'density', type: 'quantitative' }, y: { value: 0 }, text: { field: 'label' } } },
      ],
    });
  }
  return { $schema: SCHEMA, config, title: title(meta, sweep, 'Compaction vs invalid density'), width: 680, height: 380, layer: layers };
}

function blockSizeSpec(meta, sweep) {
  const points = sweep.points.map((p) => ({ ...p, fragmentsM: p.fragments / 1e6 }));
  const names = seriesOrder(points);
  const x = { field: 'blockSize', type: 'quantitative', title: 'block size (elements)', scale: { type: 'log', base: 2 }, axis: { values: sweep.config.blockSizes, format: 'd', labelOverlap: false } };
  const y = { field: 'medianMs', type: 'quantitative', title: 'time (ms)', scale: { zero: true } };
  const small = (field, yTitle, scaleType) => ({
    width: 320, height: 220,
    data: { values: points },
    mark: { type: 'line', point: { size: 25 } },
    encoding: { x, y: { field, type: 'quantitative', title: yTitle, scale: scaleType ? { type: scaleType } : { zero: true } }, color: colour(names) },
  });
  return {
    $schema: SCHEMA, config, title: title(meta, sweep, 'Block size: compaction and intra-block scan'),
    vconcat: [
      { width: 720, height: 320, data: { values: points }, layer: timeLayers(x, y, names) },
      { hconcat: [small('passes', 'passes (fragment, line and feedback draws)'), small('fragmentsM', 'fragments shaded by full passes (millions)')] },
    ],
    resolve: { scale: { color: 'shared' } },
  };
}

function sizesSpec(meta, sweep) {
  const points = sweep.points.map((p) => ({ ...p, melemPerS: p.n / p.medianMs / 1000 }));
  const names = seriesOrder(points);
  const x = { field: 'log2n', type: 'quantitative', title: 'stream length n (elements, log scale)', axis: { values: sweep.config.sizes.map(Math.log2), labelExpr: "'2^' + datum.value" }, scale: { zero: false } };
  const y = { field: 'medianMs', type: 'quantitative', title: 'time (ms, log scale)', scale: { type: 'log' }, axis: { tickCount: 6, format: '~g' } };
  return {
    $schema: SCHEMA, config, title: title(meta, sweep, 'Stream size: GPU compaction and scan vs CPU loops'),
    vconcat: [
      { width: 720, height: 340, data: { values: points }, layer: timeLayers(x, y, names) },
      {
        width: 720, height: 220, data: { values: points },
        mark: { type: 'line', point: { size: 25 } },
        encoding: { x, y: { field: 'melemPerS', type: 'quantitative', title: 'throughput (million elements / s, log)', scale: { type: 'log' }, axis: { tickCount: 6, format: '~g' } }, color: colour(names) },
      },
    ],
  };
}

/**
 * bench/browser.mjs's peers: one dot per implementation and stopping point, a panel per operation
 * and stream length. Each axis label is two lines (implementation, then where the timing stops) and
 * never truncated: vega sizes labels from its 0.8 × font size estimate, which would cut real text.
 */
function peersSpec(meta, sweep) {
  // log scale: medians below 0.01 ms (a JS loop on a tiny input) are drawn at 0.01
  const points = sweep.points.map((p) => ({ ...p, plotted: Math.max(p.medianMs, 0.01), label: `${p.series}|${p.until}`, text: `${p.medianMs} ms` }));
  // whole decades, with room right of the slowest dot for its "… ms" text
  const decade = (x) => 10 ** Math.floor(Math.log10(x));
  const domain = [decade(Math.min(...points.map((p) => p.plotted))), 10 * decade(4 * Math.max(...points.map((p) => p.plotted)))];
  return {
    $schema: SCHEMA,
    config,
    title: {
      text: wrap(`${sweep.title} — ${meta.rendererShort}`, 80),
      // two panels of labels make this chart wider than the others: longer subtitle lines fit
      subtitle: [
        ...wrap(`renderer: ${meta.renderer}`, 120),
        ...wrap(sweep.description, 120),
        ...wrap(`glcompact ${meta.packageVersion} · ${meta.date} · ${meta.quick ? 'quick run · ' : ''}median of ${meta.repeats} runs after 1 warm-up · log scale`, 120),
      ],
    },
    data: { values: points },
    facet: {
      row: { field: 'kind', title: null, header: { labelFontSize: 12, labelExpr: "datum.value === 'scan' ? 'prefix sum' : datum.value === 'compact' ? 'compaction' : datum.value" } },
      column: { field: 'n', title: null, header: { labelFontSize: 12, labelExpr: "'n = ' + format(datum.value, ',') + ' (2^' + round(log(datum.value) / LN2) + ')'" } },
    },
    spec: {
      width: 300,
      height: 260,
      encoding: {
        y: { field: 'label', type: 'nominal', title: null, sort: { field: 'medianMs' }, axis: { labelLimit: 0, labelExpr: "split(datum.value, '|')", labelLineHeight: 13, labelPadding: 6 } },
        x: { field: 'plotted', type: 'quantitative', title: 'median ms (log scale)', scale: { type: 'log', domain, nice: false } },
      },
      layer: [
        { mark: { type: 'point', filled: true, size: 90 }, encoding: { color: { field: 'series', type: 'nominal', legend: null } } },
        { mark: { type: 'text', align: 'left', dx: 8, fontSize: 10 }, encoding: { text: { field: 'text' } } },
      ],
    },
    resolve: { scale: { y: 'independent' } },
  };
}


function contractSpec(meta, sweep) {
  const points = sweep.points;
  const names = seriesOrder(points);
  const y = { field: 'series', type: 'nominal', title: null, sort: names, axis: { labelLimit: 400 } };
  const x = { field: 'medianMs', type: 'quantitative', title: 'time per compaction (ms, median; bars: interquartile range)', scale: { zero: true } };
  const c = sweep.contractCost;
  return {
    $schema: SCHEMA, config,
    title: title(meta, sweep, `GL state contract: ${c ? `${c.overheadMsPerCall} ms per call (${c.overheadPercent} %)` : 'cost per call'}`),
    width: 560, height: 30 * names.length,
    data: { values: points },
    layer: [
      { mark: { type: 'bar', opacity: 0.8 }, encoding: { y, x, color: { ...colour(names), legend: null } } },
      { mark: { type: 'rule', strokeWidth: 2, color: '#333' }, encoding: { y, x: { field: 'q1Ms', type: 'quantitative' }, x2: { field: 'q3Ms' } } },
    ],
  };
}

/**
 * The family sweep: two log-log panels, the sorts (colour: the keys; dash: GPU sort with values,
 * GPU sort of keys alone, the JS LSD sort, TypedArray.prototype.sort) and the other calls (colour:
 * the operation; dash: GPU vs the JS loop).
 */
function familySpec(meta, sweep) {
  const x = { field: 'log2n', type: 'quantitative', title: 'stream length n (elements, log scale)', axis: { values: sweep.config.sizes.map(Math.log2), labelExpr: "'2^' + datum.value" }, scale: { zero: false } };
  const y = { field: 'medianMs', type: 'quantitative', title: 'time per call (ms, log scale)', scale: { type: 'log' }, axis: { tickCount: 6, format: '~g' } };
  const panel = (name, heading, colourTitle, dashTitle) => {
    const points = sweep.points.filter((p) => p.panel === name);
    const colourField = { field: 'operand', type: 'nominal', title: colourTitle, scale: { scheme: 'category10' }, sort: [...new Set(points.map((p) => p.operand))] };
    const dash = { field: 'how', type: 'nominal', title: dashTitle, sort: [...new Set(points.map((p) => p.how))] };
    return {
      width: 720, height: 340,
      title: { text: heading, fontSize: 13, anchor: 'start' },
      data: { values: points },
      layer: [
        { mark: { type: 'rule', strokeWidth: 1.5, opacity: 0.6 }, encoding: { x, y: { field: 'q1Ms', type: 'quantitative' }, y2: { field: 'q3Ms' }, color: colourField, detail: { field: 'series' } } },
        {
          mark: { type: 'line', point: { size: 30 }, strokeWidth: 2 },
          encoding: { x, y, color: colourField, strokeDash: dash, shape: dash, detail: { field: 'series' }, tooltip: [{ field: 'series' }, { field: 'medianMs' }] },
        },
      ],
    };
  };
  return {
    $schema: SCHEMA, config, title: title(meta, sweep, 'Sort family vs the host'),
    vconcat: [
      panel('sort', 'engine.sort vs host sorts (values: uint32 indices)', 'keys', 'implementation'),
      panel('primitives', 'unique, runLengthEncode, reduce, scan with segments, partition vs JS loops', 'operation', 'implementation'),
    ],
    resolve: { scale: { color: 'independent', strokeDash: 'independent', shape: 'independent' }, legend: { color: 'independent', strokeDash: 'independent', shape: 'independent' } },
  };
}

const SPECS = { density: densitySpec, 'block-size': blockSizeSpec, sizes: sizesSpec, 'state-contract': contractSpec, peers: peersSpec, family: familySpec };

export function chartSpec(meta, sweep) {
  const spec = SPECS[sweep.name](meta, sweep);
  return spec;
}

export async function renderSvg(vegaLiteSpec) {
  const { spec } = compile(vegaLiteSpec);
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
