// glsl/bit-count.glsl on the GPU against the CPU, in every engine: the population count, the lowest
// set bit and the set bit of each rank (selectBit: no loop, the bytes' running counts compared with
// the rank in one subtraction, so a borrow between bytes or a wrong byte would show here first) for
// every rank of words of every density, single bits, and the words whose bytes are all full or empty.
import { describe, expect, it } from 'vitest';
import bitCount from '../glsl/bit-count.glsl';
import { gpuOf } from '../src/internal.js';
import { readWholeTexture, testEngine } from './support/engine.js';
import { random } from './support/reference.js';

// Case i: texel i holds (word, rank); the output packs selectBit | bitCount32 << 8 | lowestBit << 16.
const probe = `#version 300 es
precision highp float;
precision highp int;
precision highp usampler2D;
${bitCount}
uniform usampler2D u_cases;
out uvec4 outValue;
void main() {
  uvec4 c = texelFetch(u_cases, ivec2(gl_FragCoord.xy), 0);
  outValue = uvec4(selectBit(c.x, c.y) | (bitCount32(c.x) << 8) | (lowestBit(c.x) << 16), 0u, 0u, 0u);
}
`;

const setBits = (word: number): number[] => Array.from({ length: 32 }, (_, b) => b).filter((b) => (word >>> b) & 1);

function words(): number[] {
  const next = random(2026);
  const draw = () => Math.floor(next() * 2 ** 32) >>> 0;
  const list = [0xffffffff, 0x80000000, 0x80000001, 0xaaaaaaaa, 0x55555555, 0xff000000, 0x000000ff, 0x00ff0000, 0x0000ff00, 0xff00ff00, 0x00ff00ff, 0xffff0000, 0x0000ffff, 0x7fffffff, 0xfffffffe];
  for (let b = 0; b < 32; b++) list.push((1 << b) >>> 0);
  // Dense, half, sparse and very sparse words (ANDs of random words), and words of whole bytes.
  for (let i = 0; i < 400; i++) list.push((draw() | draw()) >>> 0, draw(), (draw() & draw()) >>> 0, (draw() & draw() & draw() & draw()) >>> 0);
  for (let i = 0; i < 100; i++) list.push(Array.from({ length: 4 }, (_, k) => (next() < 0.5 ? 0xff << (8 * k) : 0)).reduce((a, b) => (a | b) >>> 0, 0) || 0xff);
  return list;
}

describe('bit-count.glsl', () => {
  it('selectBit, bitCount32 and lowestBit equal the CPU for every rank of every word', async () => {
    const engine = await testEngine();
    const gpu = gpuOf(engine);
    const cases: Array<[number, number]> = [];
    for (const word of words()) for (let r = 0; r < setBits(word).length; r++) cases.push([word, r]);
    const input = new Uint32Array(cases.length * 4);
    cases.forEach(([word, r], i) => input.set([word, r], i * 4));
    const stream = engine.stream(input, { components: 4 });
    const { width, height } = stream.layout;
    let target: ReturnType<typeof gpu.target> | undefined;
    try {
      target = gpu.target(width, height);
      gpu.pass(gpu.program({ name: 'bit-count probe', fragment: probe }), target, { u_cases: stream.texture });
      const out = readWholeTexture(engine, { texture: target.texture, layout: { width, height } });
      let wrong = 0;
      const firstWrong: string[] = [];
      cases.forEach(([word, r], i) => {
        const bits = setBits(word);
        const expected = bits[r]! | (bits.length << 8) | (bits[0]! << 16);
        if (out[i] !== expected) {
          wrong++;
          if (firstWrong.length < 5) firstWrong.push(`word 0x${word.toString(16)} rank ${r}: got select ${out[i]! & 0xff}, count ${(out[i]! >>> 8) & 0xff}, lowest ${out[i]! >>> 16}; expected ${bits[r]}, ${bits.length}, ${bits[0]}`);
        }
      });
      expect(cases.length).toBeGreaterThan(20000);
      expect(wrong, firstWrong.join('\n')).toBe(0);
    } finally {
      target?.free();
      stream.dispose();
    }
  });
});
