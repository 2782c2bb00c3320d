// Every compaction path refuses the same names in a keep snippet and its uniforms, with the same
// message (issue 25: FLAGS_PER_TEXEL, a define of the bitmask's keep pass only, worked on 'horn' and
// 'histopyramid' and failed to compile on 'bitmask' with "'32' : syntax error"). The reserved names
// come from every pass a snippet is inserted into and the defines the engine gives them.
import { describe, expect, it } from 'vitest';
import { engineNames } from '../src/compact/keep-snippet.js';
import type { CompactOptions } from '../src/index.js';
import { testEngine } from './support/engine.js';

const paths: Array<[string, Partial<CompactOptions>]> = [
  ['auto (the default)', {}],
  ['bitmask', { algorithm: 'bitmask' }],
  ['horn', { algorithm: 'horn' }],
  ['horn, global', { algorithm: 'horn', global: true }],
  ['jumping-jack', { algorithm: 'jumping-jack' }],
  ['histopyramid', { algorithm: 'histopyramid' }],
];

// Names the keep passes define or declare, per pass (each must be reserved for all).
const perPassNames = ['FLAGS_PER_TEXEL', 'COMPONENTS', 'FLOAT_VALUES', 'INT_VALUES', 'LENGTH_FROM_TEXTURE', 'KEPT_FLAGS', 'keepElement', 'outValue'];

describe('reserved names are the same on every compaction path', () => {
  it('the reserved set holds the names and defines of every keep pass', () => {
    for (const name of perPassNames) expect(engineNames.has(name), name).toBe(true);
  });

  for (const name of perPassNames) {
    it(`'${name}': refused as a uniform and as a local on every path, with one message each`, async () => {
      const engine = await testEngine();
      const stream = engine.stream(new Uint32Array([1, 2, 3, 4, 5]));
      const messages = { uniform: new Set<string>(), local: new Set<string>() };
      for (const [, options] of paths) {
        const asUniform = () => engine.compact(stream, { ...options, keep: { glsl: `return value.x > ${name};`, uniforms: { [name]: 2 } } } as CompactOptions);
        const asLocal = () => engine.compact(stream, { ...options, keep: { glsl: `uint ${name} = 2u; return value.x > ${name};` } } as CompactOptions);
        for (const [kind, call] of [['uniform', asUniform], ['local', asLocal]] as const) {
          let message = '(no error)';
          try {
            call().dispose();
          } catch (error) {
            message = (error as Error).message;
          }
          messages[kind].add(message);
        }
      }
      stream.dispose();
      expect([...messages.uniform], 'uniform').toEqual([expect.stringMatching(/is a name the engine's shader reserves/)]);
      expect([...messages.local], 'local').toEqual([expect.stringMatching(/is a name the engine's shader reserves/)]);
    });
  }

  it('a name that is not reserved works on every path, exactly', async () => {
    const engine = await testEngine();
    const data = Uint32Array.from({ length: 3000 }, (_, i) => (i * 7) % 11);
    const stream = engine.stream(data);
    for (const [label, options] of paths) {
      const result = engine.compact(stream, { ...options, keep: { glsl: 'uint FLAGS_PER_TEXT = limit; return value.x > FLAGS_PER_TEXT;', uniforms: { limit: 6 } } } as CompactOptions);
      const got = Array.from(await result.read());
      const want = Array.from(data).filter((v) => v > 6);
      expect(options.algorithm === 'jumping-jack' ? got.sort((a, b) => a - b) : got, label).toEqual(options.algorithm === 'jumping-jack' ? want.sort((a, b) => a - b) : want);
      result.dispose();
    }
    stream.dispose();
  });
});
