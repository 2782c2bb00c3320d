// Renderer names for files and titles, the results JSON layout (shared by cli.mjs and browser.mjs), and
// result files that never replace one another.
import { writeFile } from 'node:fs/promises';

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


/**
 * Writes `text` to `file`, or where a file of that name exists (a run with the same --tag the same day)
 * to `<name>-2.json`, `-3`, ...: a result is never replaced by the next run's (two Chromium sweeps with
 * one tag on 2026-11-29 left only the second's JSON). Returns the path written.
 */
export async function writeNewFile(file, text) {
  const dot = file.lastIndexOf('.');
  for (let n = 1; ; n++) {
    const path = n === 1 ? file : `${file.slice(0, dot)}-${n}${file.slice(dot)}`;
    try {
      await writeFile(path, text, { flag: 'wx' });
      return path;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
}
