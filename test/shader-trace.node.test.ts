// Traceable shaders: the GLSL loader numbers every glsl/ file (#line with a source-string number,
// listed in a trailing "// @sources" line), so a driver's error names the file and line; #define
// insertion keeps the numbering; includes are guarded; shared constants live in one include.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadGlsl } from '../scripts/glsl-loader.mjs';
import { createEngine } from '../src/index.js';
import { gpuOf } from '../src/internal.js';
import { withDefines } from '../src/programs.js';
import { testContext } from './support/engine.js';

const rawLine = (file: string, needle: string) => readFileSync(`glsl/${file}`, 'utf8').split('\n').findIndex((line) => line.includes(needle)) + 1;

describe('traceable shaders', () => {
  it('a compile error names the glsl/ file and its own line, also with defines inserted', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl);
    const gpu = gpuOf(engine);
    // keep-flags.frag without its generated keep function: keepElement is undeclared where main() calls it.
    const fragment = loadGlsl('glsl/keep-flags.frag');
    const line = rawLine('keep-flags.frag', 'keepElement(texelFetch');
    expect(line).toBeGreaterThan(10);
    for (const defines of [{}, { COMPONENTS: 4, FLOAT_VALUES: true, KEPT_FLAGS: true }]) {
      expect(() => gpu.program({ name: 'keep-flags.frag', fragment, defines: { COMPONENTS: 1, ...defines } })).toThrow(
        new RegExp(`could not build GPU program keep-flags\\.frag:\\n(  glsl/keep-flags\\.frag:${line}: .*\\n)*  glsl/keep-flags\\.frag:${line}: 'keepElement'`),
      );
    }
    engine.dispose();
  });

  it('an error inside an include names the include and its line', async () => {
    const { gl } = await testContext();
    const engine = createEngine(gl);
    const gpu = gpuOf(engine);
    // block-search.glsl uses BLOCK_SIZE; without that define the error is in the include, not in block-lines.frag.
    const fragment = loadGlsl('glsl/block-lines.frag');
    expect(() => gpu.program({ name: 'block-lines.frag', fragment, defines: { BLOCK_LOG2: 4 } })).toThrow(/glsl\/(block-lines\.frag|block-search\.glsl|jumping-jack\.glsl|horn-search\.glsl):\d+: .*BLOCK_SIZE/);
    engine.dispose();
  });

  it('includes are guarded and KEPT_BIT is defined once, in kept-bit.glsl', () => {
    const text = loadGlsl('glsl/block-lines.frag');
    expect(text.match(/const uint KEPT_BIT/g)).toHaveLength(1);
    expect(text).toContain('(kept-bit.glsl already included)');
    for (const file of ['jumping-jack.glsl', 'max-allowable-size.glsl', 'block-search.glsl', 'horn-search.glsl', 'block-totals.frag']) {
      expect(readFileSync(`glsl/${file}`, 'utf8'), file).not.toMatch(/0x80000000u|0x7FFFFFFFu/i);
    }
  });

  it('withDefines keeps #version on line 1 and renumbers sources without a #line', () => {
    const source = '#version 300 es\nvoid main() {}\n';
    const out = withDefines(source, { A: 1 }).split('\n');
    expect(out[0]).toBe('#version 300 es');
    expect(out.slice(1, 3)).toEqual(['#define A 1', '#line 2']);
    expect(withDefines(loadGlsl('glsl/copy-texel.frag'), { A: 1 }).split('\n').slice(1, 3)).toEqual(['#define A 1', expect.stringMatching(/^#line 2 \d+$/)]);
  });
});
