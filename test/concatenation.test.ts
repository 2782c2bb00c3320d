// The concatenation lines cover every output texel exactly once: no gap, no overlap, at every wrap
// position. Lines are drawn with the engine's own vertex shaders (both endpoint modes) but with a
// fragment shader that adds 1/255 per write into a blending RGBA8 target, so the red channel
// counts how often each texel was written.
import * as twgl from 'twgl.js';
import { describe, expect, it } from 'vitest';
import { drawBlockLines, type ConcatMode } from '../src/compact/concatenate.js';
import type { Engine } from '../src/index.js';
import { gpuOf, viewOf } from '../src/internal.js';
import { testContext } from './support/engine.js';

const countWrites = `#version 300 es
precision highp float;
flat in uvec2 v_block;
out vec4 writes;
void main() { writes = vec4(1.0 / 255.0, 0.0, 0.0, 1.0); }`;


function coverage(gl: WebGL2RenderingContext, engine: Engine, mode: ConcatMode, width: number, height: number, counts: number[]) {
  const gpu = gpuOf(engine);
  const prefix: number[] = [];
  counts.reduce((sum, c) => (prefix.push(sum + c), sum + c), 0);
  const countsStream = engine.stream(Uint32Array.from(counts));
  const prefixStream = engine.stream(Uint32Array.from(prefix));
  const target = twgl.createFramebufferInfo(gl, [{ internalFormat: gl.RGBA8, format: gl.RGBA, type: gl.UNSIGNED_BYTE, minMag: gl.NEAREST }], width, height);
  try {
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE);
    drawBlockLines(gpu, mode, {
      blockCounts: viewOf(countsStream).target,
      blockKeptPrefix: viewOf(prefixStream).target,
      blockCount: counts.length,
    }, { framebuffer: target.framebuffer, width, height }, { name: 'count-writes.frag', source: countWrites, uniforms: {} });
    gl.disable(gl.BLEND);
    const pixels = new Uint8Array(width * height * 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return { writes: Array.from({ length: width * height }, (_, i) => pixels[i * 4]), total: prefix[prefix.length - 1] };
  } finally {
    gl.disable(gl.BLEND);
    countsStream.dispose();
    prefixStream.dispose();
    gl.deleteFramebuffer(target.framebuffer);
    for (const attachment of target.attachments) gl.deleteTexture(attachment as WebGLTexture);
  }
}

function expectExactlyOnce(writes: number[], total: number, label: string) {
  const wrong = writes.findIndex((w, i) => w !== (i < total ? 1 : 0));
  expect(wrong, `${label}: texel ${wrong} written ${writes[wrong]} times`).toBe(-1);
}

describe.each(['vertex-fetch', 'transform-feedback'] as const)('concatenation lines, %s', (mode) => {
  async function setup() {
    const { gl, engine } = await testContext();
    // Both test platforms capture (headless-gl through glcompact/node's patches): never skipped.
    if (mode === 'transform-feedback') expect(engine.caps.transformFeedback).toBe(true);
    return { gl, engine };
  }

  it('every start column and every length of a block on a 64-wide output (all wrap positions)', async () => {
    const { gl, engine } = await setup();
    const width = 64;
    const blockSize = 16;
    // Block 0 shifts the start column by `start`; block 1 then has every length 0..16, so its
    // segment ends at every column and wraps at every possible split.
    for (let start = 0; start < width; start++) {
      for (let length = 0; length <= blockSize; length++) {
        const counts = [start, length, blockSize, 3];
        const { writes, total } = coverage(gl, engine, mode, width, 4, counts);
        expectExactlyOnce(writes, total, `start ${start}, length ${length}`);
      }
    }
  });

  it('many full and empty blocks in a 2048-wide output', async () => {
    const { gl, engine } = await setup();
    const counts = Array.from({ length: 2048 }, (_, i) => (i * 37) % 257);
    const total = counts.reduce((a, b) => a + b, 0);
    const { writes } = coverage(gl, engine, mode, 2048, Math.ceil(total / 2048) + 1, counts);
    expectExactlyOnce(writes, total, 'mixed blocks');
  });
});
