// The headless-gl 9.0.0-rc.10 quirks the adapter (src/adapter.ts) works around, shown on the raw
// context, plus proof that the workaround is exact. If a headless-gl upgrade fixes a quirk, its
// test fails here: then the workaround can go. (Node-only: these are headless-gl behaviours.)
import * as twgl from 'twgl.js';
import { describe, expect, it } from 'vitest';
import { clearErrors } from '../src/adapter.js';
import { trickyBits } from '../src/capabilities.js';
import { expectSameBits, testContext } from './support/engine.js';

function r32uiTexture(gl: WebGL2RenderingContext, width: number) {
  const texture = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32UI, width, 1);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  const framebuffer = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
  const read = () => {
    const out = new Uint32Array(width * 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.readPixels(0, 0, width, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, out);
    clearErrors(gl);
    return out.filter((_, i) => i % 4 === 0);
  };
  const free = () => {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(framebuffer);
    gl.deleteTexture(texture);
  };
  return { texture, framebuffer, read, free };
}

describe('headless-gl quirks and their workarounds', () => {
  it('integer uploads fail (INVALID_VALUE, data not stored), so the probe picks float-bits uploads', async () => {
    const { gl, engine } = await testContext();
    const target = r32uiTexture(gl, trickyBits.length);
    clearErrors(gl);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, trickyBits.length, 1, gl.RED_INTEGER, gl.UNSIGNED_INT, trickyBits);
    expect(clearErrors(gl)).toContain(gl.INVALID_VALUE);
    expect(Array.from(target.read())).not.toEqual(Array.from(trickyBits));
    target.free();
    expect(engine.caps.uploadPath).toBe('float-bits');
    expect(engine.caps.integerUpload).toBe(false);
    // the workaround is bit-exact on the patterns that break naive paths
    const stream = engine.stream(trickyBits);
    expectSameBits((await stream.read()) as Uint32Array, trickyBits);
    stream.dispose();
  });

  it('uniform1ui writes to location 0 instead of the given uniform, so the engine uses int uniforms', async () => {
    const { gl } = await testContext();
    const program = twgl.createProgramInfo(gl, [
      `#version 300 es
       void main() { gl_Position = vec4(vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0), 0.0, 1.0); }`,
      `#version 300 es
       precision highp float;
       uniform uint u_first;
       uniform uint u_second;
       out uvec4 value;
       void main() { value = uvec4(u_first * 1000u + u_second); }`,
    ]);
    const target = r32uiTexture(gl, 1);
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.viewport(0, 0, 1, 1);
    gl.useProgram(program.program);
    const first = gl.getUniformLocation(program.program, 'u_first');
    const second = gl.getUniformLocation(program.program, 'u_second');
    const firstIsLocationZero = (first as unknown as { _: number })._ === 0;
    gl.uniform1ui(first, 0);
    gl.uniform1ui(second, 0);
    gl.uniform1ui(second, 7); // lands on location 0 in headless-gl
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    const written = target.read()[0];
    target.free();
    gl.deleteProgram(program.program);
    expect(written).toBe(firstIsLocationZero ? 7000 : 7);
    expect(written).not.toBe(7); // correct WebGL2 would give 7 (u_first 0, u_second 7)
  });

  it('a float texture with default (mipmap) filtering is incomplete and texelFetch returns 0, so staging textures use NEAREST', async () => {
    const { gl } = await testContext();
    const staging = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, staging);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R32F, 1, 1, 0, gl.RED, gl.FLOAT, new Float32Array([42]));
    const program = twgl.createProgramInfo(gl, [
      `#version 300 es
       void main() { gl_Position = vec4(vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0), 0.0, 1.0); }`,
      `#version 300 es
       precision highp float;
       uniform highp sampler2D u_source;
       out uvec4 value;
       void main() { value = uvec4(texelFetch(u_source, ivec2(0), 0).r); }`,
    ]);
    const target = r32uiTexture(gl, 1);
    const fetch = () => {
      gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
      gl.viewport(0, 0, 1, 1);
      gl.useProgram(program.program);
      twgl.setUniforms(program, { u_source: staging });
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      return target.read()[0];
    };
    const withDefaultFilter = fetch();
    gl.bindTexture(gl.TEXTURE_2D, staging);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    const withNearest = fetch();
    target.free();
    gl.deleteTexture(staging);
    gl.deleteProgram(program.program);
    expect(withDefaultFilter).toBe(0);
    expect(withNearest).toBe(42);
  });

  it("readPixels ignores WebGL2's dstOffset argument (the data lands at the array's start), so reads at an offset pass a subarray", async () => {
    const { gl, engine } = await testContext();
    const texture = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32UI, 2, 1);
    const framebuffer = gl.createFramebuffer()!;
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    gl.clearBufferuiv(gl.COLOR, 0, new Uint32Array([7, 8, 9, 10]));
    const withOffset = new Uint32Array(12);
    (gl.readPixels as (...args: unknown[]) => void)(0, 0, 2, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, withOffset, 4);
    const viaSubarray = new Uint32Array(12);
    gl.readPixels(0, 0, 2, 1, gl.RGBA_INTEGER, gl.UNSIGNED_INT, viaSubarray.subarray(4));
    clearErrors(gl);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(framebuffer);
    gl.deleteTexture(texture);
    expect(Array.from(withOffset)).toEqual([7, 8, 9, 10, 7, 8, 9, 10, 0, 0, 0, 0]); // at 0, not at 4
    expect(Array.from(viaSubarray)).toEqual([0, 0, 0, 0, 7, 8, 9, 10, 7, 8, 9, 10]);
    // the workaround: a read whose last row is partial lands its second readPixels through a subarray
    const data = Uint32Array.from({ length: 2048 + 5 }, (_, i) => (i * 2654435761) >>> 0);
    const stream = engine.stream(data);
    expectSameBits((await stream.read()) as Uint32Array, data);
    stream.dispose();
  });

  it('transform feedback works on a createHeadlessContext() context (patched, test/headless-transform-feedback.node.test.ts)', async () => {
    const { engine } = await testContext();
    expect(engine.caps.transformFeedback).toBe(true);
    const result = engine.compact(engine.stream(new Uint32Array([0, 5, 0, 6])), { keep: 'nonzero', algorithm: 'horn', concat: 'transform-feedback' });
    expect(result.stats.concat).toBe('transform-feedback');
    expect(Array.from(await result.read())).toEqual([5, 6]);
    result.dispose();
  });
});
