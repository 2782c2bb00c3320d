// Renderer names for files and titles, and the results JSON layout (shared by cli.mjs and browser.mjs).

/** "ANGLE (Mesa/X.org, llvmpipe (LLVM 15.0.6 256 bits), OpenGL 4.5)" -> "llvmpipe-llvm-15-0-6-256-bits". */
export function rendererSlug(renderer) {
  const angle = /^ANGLE \((.*)\)$/.exec(renderer);
  const parts = angle ? angle[1].split(', ') : [renderer];
  const device = parts.length >= 2 ? parts[1] : parts[0];
  const slug = device.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
  return slug || 'unknown-renderer';
}

export function rendererShort(renderer) {
  const angle = /^ANGLE \((.*)\)$/.exec(renderer);
  const parts = angle ? angle[1].split(', ') : [renderer];
  return parts.length >= 2 ? parts[1] : parts[0];
}

/** JSON with one point per line: readable in a diff, a third of the size of indented JSON. */
export function formatJson(document) {
  const { sweeps, ...top } = document;
  const lines = Object.entries(top).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const sweepBlocks = Object.entries(sweeps).map(([name, sweep]) => {
    const { points, ...rest } = sweep;
    const head = Object.entries(rest).map(([k, v]) => `      ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
    const body = points.map((p) => `        ${JSON.stringify(p)}`).join(',\n');
    return `    ${JSON.stringify(name)}: {\n${head.join(',\n')},\n      "points": [\n${body}\n      ]\n    }`;
  });
  return `{\n${lines.join(',\n')},\n  "sweeps": {\n${sweepBlocks.join(',\n')}\n  }\n}\n`;
}

