// The program cache is bounded: however many distinct `{ glsl }` snippets an app compiles, the
// engine keeps at most PROGRAM_CACHE_SIZE programs, deletes the least recently used ones (counted
// on the context itself, not only by the engine), and every result stays exact, the engine's own
// passes included (they are evicted and recompiled like any other program).
// GLCOMPACT_SNIPPET_RUNS sets the number of distinct snippets (default 1,000, the figure: it
// took 45 s on llvmpipe (headless-gl) and 40 s on SwiftShader (Chromium) here).
import { expect, it } from 'vitest';
import { PROGRAM_CACHE_SIZE } from '../src/index.js';
import { envCount } from './support/env.js';
import { countGlObjects } from './support/gl-objects.js';
import { expectSameBits, testContext } from './support/engine.js';

const snippetRuns = envCount('GLCOMPACT_SNIPPET_RUNS', 1000);

const data = Uint32Array.from({ length: 300 }, (_, i) => (i * 7919) % 1000);
const snippet = (k: number) => `return value.x % ${k + 2}u == 0u;`;
const expected = (k: number) => data.filter((x) => x % (k + 2) === 0);

it(`${snippetRuns} distinct snippets: live programs stay at most PROGRAM_CACHE_SIZE (${PROGRAM_CACHE_SIZE}), every result exact`, async () => {
  const { gl, engine } = await testContext();
  const stream = engine.stream(data);
  const before = engine.resources.programs;
  const counter = countGlObjects(gl, ['Program', 'Shader']);
  let most = 0;
  try {
    for (let k = 0; k < snippetRuns; k++) {
      // alternate paths, so the engine's own programs are evicted and fetched again too (the bitmask's
      // keep test is a program of its own: keep-bitmask.frag)
      const options = k % 4 === 0 ? { algorithm: 'jumping-jack' as const } : k % 4 === 3 ? { algorithm: 'bitmask' as const } : { algorithm: 'horn' as const, global: k % 4 === 1 };
      const result = engine.compact(stream, { keep: { glsl: snippet(k) }, ...options });
      const got = (await result.read()) as Uint32Array;
      result.dispose();
      if (options.algorithm !== 'jumping-jack') expectSameBits(got, expected(k), `snippet ${k}`);
      else expectSameBits(got.slice().sort(), expected(k).slice().sort(), `snippet ${k}`);
      const live = engine.resources.programs;
      most = Math.max(most, live);
      expect(live, `after snippet ${k}`).toBeLessThanOrEqual(PROGRAM_CACHE_SIZE);
      // the context agrees: programs really deleted, not just forgotten; no shader outlives its program
      expect(before + counter.live.Program, `GL programs after snippet ${k}`).toBe(live);
      expect(counter.live.Shader, `GL shaders after snippet ${k}`).toBe(0);
    }
  } finally {
    counter.restore();
    stream.dispose();
  }
  if (snippetRuns >= PROGRAM_CACHE_SIZE) expect(most).toBe(PROGRAM_CACHE_SIZE);
});

/** Counts gl.createProgram calls (compiles) until restore(). */
function countCompiles(gl: WebGL2RenderingContext) {
  const target = gl as unknown as { createProgram: () => WebGLProgram | null };
  const hadOwn = Object.prototype.hasOwnProperty.call(target, 'createProgram');
  const original = target.createProgram;
  const counter = { compiles: 0, restore: () => (hadOwn ? (target.createProgram = original) : delete (target as { createProgram?: unknown }).createProgram) };
  target.createProgram = () => (counter.compiles++, original.call(gl));
  return counter;
}

it('least recently used goes first: recent snippets stay compiled, an evicted one compiles again', async () => {
  const { gl, engine } = await testContext();
  const stream = engine.stream(data);
  const run = async (k: number) => {
    const result = engine.compact(stream, { keep: { glsl: `// lru\n${snippet(k)}` }, algorithm: 'horn' });
    expectSameBits((await result.read()) as Uint32Array, expected(k), `snippet ${k}`);
    result.dispose();
  };
  const counter = countCompiles(gl);
  try {
    // fill the cache with snippets (the few programs of the horn path are fetched on every call, so they stay)
    for (let k = 0; k < PROGRAM_CACHE_SIZE; k++) await run(k);
    let compiles = counter.compiles;
    await run(PROGRAM_CACHE_SIZE - 1);
    expect(counter.compiles, 'the most recent snippet is still compiled').toBe(compiles);
    await run(0);
    expect(counter.compiles, 'the oldest snippet was evicted and compiles again').toBe(compiles + 1);
    compiles = counter.compiles;
    await run(0);
    expect(counter.compiles, 'and now stays').toBe(compiles);
    expect(engine.resources.programs).toBe(PROGRAM_CACHE_SIZE);
  } finally {
    counter.restore();
    stream.dispose();
  }
});
