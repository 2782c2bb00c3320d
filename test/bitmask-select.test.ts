// The bitmask compaction's output side in both forms, against the CPU, in every engine: the select
// pass (where a pass writes 4 or 8 attachments: one search per 16 or 32 ranks, then a walk along
// the words, bitmask-select.frag) and the search per output element from a directory (one
// attachment: headless-gl without the GPU server's shim). The engine uses either only for streams
// of more than BITMASK_SHAPE.directWordsUpTo words, so this file lowers that bound to force them at
// small sizes, where word, fragment and row boundaries are many; densities from one element in
// thousands (long walks) to all; values, indices, 4-component and float streams.
import { afterEach, describe, expect, it } from 'vitest';
import { BITMASK_SHAPE } from '../src/compact/bitmask.js';
import type { Engine } from '../src/index.js';
import { engineWithDrawBuffers, expectSameBits, restoreDrawBuffers } from './support/engine.js';
import { random } from './support/reference.js';

const defaults = { ...BITMASK_SHAPE };
afterEach(() => {
  Object.assign(BITMASK_SHAPE, defaults);
});

/**
 * Attachments per pass; whether the select pass writes one-component values (else positions, which
 * the output pass then reads the value at); whether the output pass writes the padding (else a pass
 * of its own does, first).
 */
const forms = [
  [1, true, true],
  [1, true, false],
  [4, true, true],
  [8, true, true],
  [8, false, false],
] as const;

/** The engine with `drawBuffers` attachments per pass and no small-stream shortcut; undefined where the context has fewer. */
async function engineWith(drawBuffers: 1 | 4 | 8, selectValues: boolean, paddingInOutput: boolean): Promise<Engine | undefined> {
  const engine = await engineWithDrawBuffers(drawBuffers);
  if (engine) Object.assign(BITMASK_SHAPE, { directWordsUpTo: 0, selectValues, paddingInOutput });
  return engine;
}

/** Kept where the flag is set: `keepOneIn` = 1 keeps all, 0 none. */
function flagsFor(n: number, keepOneIn: number, seed: number): Uint32Array {
  const next = random(seed);
  return Uint32Array.from({ length: n }, () => (keepOneIn > 0 && Math.floor(next() * keepOneIn) === 0 ? 1 : 0));
}

describe.each(forms)('bitmask compaction with %i attachment(s) per pass, values selected: %s, padding by the output pass: %s', (drawBuffers, selectValues, paddingInOutput) => {
  it('values and indices at densities from 1 in 5000 to all, across word, fragment and row boundaries', async (context) => {
    const engine = await engineWith(drawBuffers, selectValues, paddingInOutput);
    context.skip(!engine, `this context writes fewer than ${drawBuffers} attachments per pass (engine.caps.drawBuffers); headless-gl writes 1`);
    try {
      for (const n of [1, 31, 33, 1000, 2048 * 3 + 5, 2 ** 16 + 17]) {
        const next = random(n);
        const data = Uint32Array.from({ length: n }, () => Math.floor(next() * 2 ** 32));
        const stream = engine!.stream(data);
        for (const keepOneIn of [0, 5000, 37, 2, 1]) {
          const flags = flagsFor(n, keepOneIn, n + keepOneIn);
          const flagStream = engine!.stream(flags);
          const expectedIndices = Uint32Array.from(Array.from(flags).flatMap((f, i) => (f ? [i] : [])));
          const values = engine!.compact(stream, { keep: { flags: flagStream }, algorithm: 'bitmask' });
          const indices = engine!.compact(stream, { keep: { flags: flagStream }, algorithm: 'bitmask', output: 'indices' });
          const label = `n=${n}, 1 in ${keepOneIn}`;
          expect(await values.count(), label).toBe(expectedIndices.length);
          expectSameBits((await values.stream.read()) as Uint32Array, data.filter((_, i) => flags[i] !== 0), label);
          expectSameBits((await indices.stream.read()) as Uint32Array, expectedIndices, `${label}, indices`);
          values.dispose();
          indices.dispose();
          flagStream.dispose();
        }
        stream.dispose();
      }
    } finally {
      restoreDrawBuffers(engine!);
    }
  });

  it('4-component int32 and float32 streams with a keep test in GLSL', async (context) => {
    const engine = await engineWith(drawBuffers, selectValues, paddingInOutput);
    context.skip(!engine, `this context writes fewer than ${drawBuffers} attachments per pass`);
    try {
      const next = random(drawBuffers);
      const n = 5000;
      const ints = Int32Array.from({ length: 4 * n }, () => Math.floor(next() * 2 ** 32) - 2 ** 31);
      const vec4 = engine!.stream(ints, { components: 4 });
      const kept = engine!.compact(vec4, { keep: { glsl: 'return value.x > 0;' }, algorithm: 'bitmask' });
      const expected = Int32Array.from(Array.from({ length: n }, (_, i) => ints.subarray(4 * i, 4 * i + 4)).filter((v) => v[0] > 0).flatMap((v) => [...v]));
      expectSameBits((await kept.stream.read()) as Int32Array, expected, 'int32 vec4');
      kept.dispose();
      vec4.dispose();
      const floats = Float32Array.from({ length: 70_000 }, () => next() * 2 - 1);
      const floatStream = engine!.stream(floats);
      const positive = engine!.compact(floatStream, { keep: { glsl: 'return value.x > 0.0;' }, algorithm: 'bitmask' });
      expectSameBits((await positive.stream.read()) as Float32Array, floats.filter((v) => v > 0), 'float32');
      positive.dispose();
      floatStream.dispose();
    } finally {
      restoreDrawBuffers(engine!);
    }
  });
});
