// The short tables printed to stdout at the end of a run.

export function table(title, rows) {
  if (rows.length === 0) return '';
  const keys = Object.keys(rows[0]);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join('  ');
  return [title, line(keys), ...rows.map((r) => line(keys.map((k) => r[k]))), ''].join('\n');
}

const ms = (p) => (p ? p.medianMs.toFixed(p.medianMs < 10 ? 2 : 1) : '-');

function grid(points, xKey) {
  const byX = new Map();
  for (const p of points) {
    if (!byX.has(p[xKey])) byX.set(p[xKey], new Map());
    byX.get(p[xKey]).set(p.series, p);
  }
  return [...byX.entries()].sort((a, b) => a[0] - b[0]);
}

function densityTable(sweep) {
  const rows = grid(sweep.points, 'density').map(([density, s]) => {
    const jj = s.get('jumping-jack');
    const horn = s.get('horn (block)');
    return {
      'invalid %': density,
      kept: jj?.count ?? '-',
      'JJ ms': ms(jj),
      'horn ms': ms(horn),
      'horn-global ms': ms(s.get('horn (global)')),
      'HP ms': ms(s.get('histopyramid')),
      'bitmask ms': ms(s.get('bitmask')),
      'auto ms': ms(s.get('auto')),
      'cpu ms': ms(s.get('cpu filter loop')),
      'JJ/horn': jj && horn ? (jj.medianMs / horn.medianMs).toFixed(2) : '-',
    };
  });
  const n = sweep.config.n;
  let text = table(`density (n = 2^${Math.log2(n)}, block ${sweep.config.blockSize}; median ms)`, rows);
  const c = sweep.crossover;
  if (c) text += `crossover (Jumping Jack stops being faster than Horn (block)): ${c.densityPercent == null ? 'none' : `≈ ${c.densityPercent} % invalid`} — ${c.note} (paper: ~78 %)\n`;
  const a = sweep.autoCheck;
  if (a) {
    text += `auto vs the fastest path at each density: worst ${a.worst.autoOverBest}× at ${a.worst.density} % (fastest there: ${a.worst.fastest}); ` +
      `${a.misses.length ? `over the ${a.tolerance * 100} % target, on another path than the fastest, at ${a.misses.map((m) => m.density).join(', ')} %` : `within ${a.tolerance * 100} % everywhere it took another path than the fastest one`}; ` +
      `auto took the fastest path at ${a.rows?.filter((r) => r.tookFastestPath).length ?? '?'} of ${a.rows?.length ?? '?'} densities (a ratio above 1 there is noise between runs of the same path); auto took: ${a.pathsTaken.join(', ')}\n`;
  }
  return text;
}

function blockSizeTable(sweep) {
  const rows = grid(sweep.points, 'blockSize').map(([blockSize, s]) => {
    const rd = s.get('compact, recursive-doubling scan');
    const bl = s.get('compact, blelloch scan');
    const srd = s.get('scan only, recursive-doubling');
    const sbl = s.get('scan only, blelloch');
    return {
      block: blockSize,
      'compact RD ms': ms(rd), 'passes': rd?.passes ?? '-', 'Mfrag': rd ? (rd.fragments / 1e6).toFixed(1) : '-',
      'compact Blelloch ms': ms(bl), 'passes ': bl?.passes ?? '-', 'Mfrag ': bl ? (bl.fragments / 1e6).toFixed(1) : '-',
      'scan RD ms': ms(srd), 'scan Blelloch ms': ms(sbl), 'scan RTS ms': ms(s.get('scan only, reduce-then-scan')), 'compact RTS ms': ms(s.get('compact, reduce-then-scan scan')),
    };
  });
  return table(`block-size (n = 2^${Math.log2(sweep.config.n)}, 50 % kept, Jumping Jack; scans segmented per block; median ms)`, rows);
}

function sizesTable(sweep) {
  const rows = grid(sweep.points, 'log2n').map(([log2n, s]) => {
    const jj = s.get('compact, jumping-jack');
    const cpu = s.get('cpu filter loop');
    const scan = s.get('scan, recursive-doubling');
    const cpuScan = s.get('cpu prefix-sum loop');
    return {
      n: `2^${log2n}`,
      'JJ ms': ms(jj), 'horn ms': ms(s.get('compact, horn (block)')), 'HP ms': ms(s.get('compact, histopyramid')),
      'HP passes': s.get('compact, histopyramid')?.passes ?? '-', 'bitmask ms': ms(s.get('compact, bitmask')), 'auto ms': ms(s.get('compact, auto (default)')), 'cpu filter ms': ms(cpu),
      'scan RD ms': ms(scan), 'scan Blelloch ms': ms(s.get('scan, blelloch')), 'scan RTS ms': ms(s.get('scan, reduce-then-scan')), 'scan default ms': ms(s.get('scan, default')), 'cpu scan ms': ms(cpuScan),
      'cpu/JJ': jj && cpu ? (cpu.medianMs / jj.medianMs).toFixed(3) : '-',
    };
  });
  return table('sizes (50 % kept, block 256; median ms; cpu/JJ > 1 means the GPU compaction wins)', rows);
}

function contractTable(sweep) {
  const rows = sweep.points.map((p) => ({
    engine: p.series,
    'ms per call': p.medianMs.toFixed(3),
    'IQR ms': `${p.q1Ms.toFixed(3)}..${p.q3Ms.toFixed(3)}`,
    'submit ms per call': p.submit.medianMs.toFixed(3),
    'submit IQR ms': `${p.submit.q1Ms.toFixed(3)}..${p.submit.q3Ms.toFixed(3)}`,
    runs: p.runsMs.length,
    'calls per run': p.callsPerRun,
  }));
  let text = table(`state-contract (n = 2^${Math.log2(sweep.config.n)}, 50 % kept, auto; median per compaction)`, rows);
  const c = sweep.contractCost;
  if (c) {
    text += `cost of the contract: ${c.overheadMsPerCall} ms per compaction (${c.overheadPercent} % of the preserveState: false time); ` +
      `issuing the calls: ${c.submit.overheadMsPerCall} ms per call (${c.submit.overheadPercent} %); ` +
      `fastest runs: ${c.fastestRun.withContractMsPerCall} vs ${c.fastestRun.preserveStateFalseMsPerCall} ms, ${c.fastestRun.overheadMsPerCall} ms (${c.fastestRun.overheadPercent} %)\n`;
    if (c.glCalls) text += `GL calls per compaction: ${c.glCalls.withContract} with the contract, ${c.glCalls.preserveStateFalse} without (+${c.glCalls.addedCalls}, of which ${c.glCalls.addedQueries} queries)\n`;
  }
  return text;
}

function familyTables(sweep) {
  const rows = grid(sweep.points, 'log2n');
  const sortCols = [
    ['GPU u32+v', 'GPU radix sort + values, uint32 keys'], ['GPU u32', 'GPU radix sort, keys only, uint32 keys'],
    ['JS LSD u32+v', 'JS LSD counting sort + values, uint32 keys'], ['U32.sort', 'TypedArray.prototype.sort, keys only, uint32 keys'],
    ['GPU 16b+v', 'GPU radix sort + values, 16-bit keys'], ['JS LSD 16b+v', 'JS LSD counting sort + values, 16-bit keys'], ['U32.sort 16b', 'TypedArray.prototype.sort, keys only, 16-bit keys'],
    ['GPU f32+v', 'GPU radix sort + values, float32 keys'], ['JS LSD f32+v', 'JS LSD counting sort + values, float32 keys'], ['F32.sort', 'TypedArray.prototype.sort, keys only, float32 keys'],
  ];
  const sortRows = rows.map(([log2n, s]) => {
    const row = { n: `2^${log2n}` };
    for (const [label, series] of sortCols) row[label] = ms(s.get(series));
    const gpu = s.get('GPU radix sort + values, uint32 keys');
    const native = s.get('TypedArray.prototype.sort, keys only, uint32 keys');
    row['GPU u32+v / U32.sort'] = gpu && native ? (gpu.medianMs / native.medianMs).toFixed(2) : '-';
    return row;
  });
  const ops = ['unique', 'runLengthEncode', 'reduce sum', 'reduce min', 'reduce max', 'scan with segments', 'partition'];
  const primitiveRows = rows.map(([log2n, s]) => {
    const row = { n: `2^${log2n}` };
    for (const op of ops) {
      row[`${op} GPU`] = ms(s.get(`GPU ${op}`));
      row[`${op} JS`] = ms(s.get(`JS loop ${op}`));
    }
    return row;
  });
  const passes = sweep.points.filter((p) => p.op === 'sort' && p.method === 'gpu').map((p) => ({
    n: `2^${p.log2n}`, sort: p.series, 'draws counted': p.glDrawCalls, formula: p.sortPasses.formulaText, match: p.sortPasses.matches ? 'yes' : 'NO',
  }));
  return table('family: sorts (median ms; GPU = engine.sort + await engine.finish(); +v: with uint32 index values)', sortRows) + '\n' +
    table('family: primitives (median ms; GPU = call + await engine.finish(); JS = a plain loop)', primitiveRows) + '\n' +
    table('family: draw calls per GPU sort (counted by wrapping the context, against the pass formula of src/sort.ts)', passes);
}

const TABLES = { density: densityTable, 'block-size': blockSizeTable, sizes: sizesTable, 'state-contract': contractTable, family: familyTables };

export function summaryText(sweeps) {
  return sweeps.map((s) => TABLES[s.name](s)).join('\n');
}
