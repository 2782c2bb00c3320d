// Block concatenation (paper Sec. 3.4 and 5, Fig. 8): every compacted block is drawn as at most two
// horizontal lines into the output texture (glsl/block-endpoints.glsl). The endpoints come either
// from a transform-feedback pass into a buffer that then feeds gl.LINES ('transform-feedback', the
// WebGL2 form of the paper's render-to-vertex-array), or are computed in the line vertex shader
// itself from gl_VertexID ('vertex-fetch'), where transform feedback is missing.
import { mat4 } from 'gl-matrix';
import * as twgl from 'twgl.js';
import blockEndpoints from '../../glsl/block-endpoints.vert';
import blockLinesFeedback from '../../glsl/block-lines-feedback.vert';
import blockLinesFetch from '../../glsl/block-lines-fetch.vert';
import blockLines from '../../glsl/block-lines.frag';
import captureOnly from '../../glsl/capture-only.frag';
import type { Defines } from '../programs.js';
import type { Gpu } from '../gpu.js';
import type { RenderTarget } from '../render-target.js';

export type ConcatMode = 'transform-feedback' | 'vertex-fetch';

export interface ConcatInput {
  /** The per-block search the line fragments run (glsl/block-search.glsl): variant and inputs. */
  search: { defines: Defines; uniforms: Record<string, unknown> };
  /** Kept count per block, one texel per block (row-major block order). */
  blockCounts: RenderTarget;
  /** Inclusive scan of blockCounts, same layout. */
  blockKeptPrefix: RenderTarget;
  blockLog2: number;
  blockCount: number;
}

/** Bytes per captured vertex: vec2 position + uvec2 (first output index, block number). */
const FEEDBACK_STRIDE = 16;

/** Where the lines go: any framebuffer (the coverage test uses a blending RGBA8 one). */
export interface LineTarget {
  framebuffer: WebGLFramebuffer;
  width: number;
  height: number;
}

/** The fragment shader the lines run, with its uniforms (block-lines.frag for a compaction). */
export interface LineShading {
  name: string;
  source: string;
  uniforms: Record<string, unknown>;
  defines?: Defines;
}

export function concatenateBlocks(gpu: Gpu, mode: ConcatMode, input: ConcatInput, output: RenderTarget): void {
  const gl = gpu.gl;
  gl.bindFramebuffer(gl.FRAMEBUFFER, output.framebuffer);
  // Texels past the kept count are padding and must read as zero for later passes.
  gl.clearBufferuiv(gl.COLOR, 0, new Uint32Array(4));
  drawBlockLines(gpu, mode, input, output, {
    name: 'block-lines.frag',
    source: blockLines,
    defines: input.search.defines,
    uniforms: {
      ...input.search.uniforms,
      u_outputWidthLog2: Math.log2(output.width),
      u_blocksPerRowLog2: Math.log2(output.width) - input.blockLog2,
    },
  });
  gpu.stats.lineFragmentsAtMost += output.width * output.height;
}

/** Draws 2 line segments per block (4 vertices) into `output`, endpoints by `mode`. */
export function drawBlockLines(
  gpu: Gpu,
  mode: ConcatMode,
  blocks: Pick<ConcatInput, 'blockCounts' | 'blockKeptPrefix' | 'blockCount'>,
  output: LineTarget,
  shading: LineShading,
): void {
  const gl = gpu.gl;
  const blockUniforms = {
    u_blockCounts: blocks.blockCounts.texture,
    u_blockKeptPrefix: blocks.blockKeptPrefix.texture,
    u_countsWidthLog2: Math.log2(blocks.blockCounts.width),
    u_outputWidthLog2: Math.log2(output.width),
  };
  const lineUniforms = {
    ...shading.uniforms,
    u_pixelToClip: mat4.ortho(mat4.create(), 0, output.width, 0, output.height, -1, 1),
  };
  const vertexCount = blocks.blockCount * 4;
  if (mode === 'vertex-fetch') {
    const program = gpu.programs.get({ name: `block-lines-fetch.vert+${shading.name}`, vertex: blockLinesFetch, fragment: shading.source, defines: shading.defines });
    gl.bindFramebuffer(gl.FRAMEBUFFER, output.framebuffer);
    gl.viewport(0, 0, output.width, output.height);
    gl.useProgram(program.program);
    twgl.setUniforms(program, { ...blockUniforms, ...lineUniforms });
    gpu.bindEmptyVertexArray();
    gl.drawArrays(gl.LINES, 0, vertexCount);
  } else {
    drawFromTransformFeedback(gpu, vertexCount, blockUniforms, lineUniforms, output, shading);
  }
  gpu.stats.passes += 1;
  gpu.stats.drawCalls += 1;
}

function drawFromTransformFeedback(
  gpu: Gpu,
  vertexCount: number,
  blockUniforms: Record<string, unknown>,
  lineUniforms: Record<string, unknown>,
  output: LineTarget,
  shading: LineShading,
): void {
  const gl = gpu.gl;
  const capture = gpu.programs.get({
    name: 'block-endpoints.vert',
    vertex: blockEndpoints,
    fragment: captureOnly,
    transformFeedbackVaryings: ['v_position', 'v_block'],
  });
  const lines = gpu.programs.get({ name: `block-lines-feedback.vert+${shading.name}`, vertex: blockLinesFeedback, fragment: shading.source, defines: shading.defines });
  const buffer = gl.createBuffer()!;
  gpu.tracker.created('buffers');
  const feedback = gl.createTransformFeedback()!;
  gpu.tracker.created('transformFeedbacks');
  let vertexArray: WebGLVertexArrayObject | undefined;
  try {
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, vertexCount * FEEDBACK_STRIDE, gl.DYNAMIC_COPY);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);

    // Pass 1: one point per endpoint, rasterizer off, varyings captured into the buffer.
    gl.useProgram(capture.program);
    twgl.setUniforms(capture, blockUniforms);
    gpu.bindEmptyVertexArray();
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, feedback);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, vertexCount);
    gl.endTransformFeedback();
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.disable(gl.RASTERIZER_DISCARD);
    gpu.stats.passes += 1;
    gpu.stats.drawCalls += 1;

    // Pass 2: the captured vertices as gl.LINES into the output.
    const bufferInfo: twgl.BufferInfo = {
      numElements: vertexCount,
      attribs: {
        a_position: { buffer, numComponents: 2, type: gl.FLOAT, stride: FEEDBACK_STRIDE, offset: 0 },
        a_block: { buffer, numComponents: 2, type: gl.UNSIGNED_INT, stride: FEEDBACK_STRIDE, offset: 8 },
      },
    };
    const vertexArrayInfo = twgl.createVertexArrayInfo(gl, lines, bufferInfo);
    vertexArray = vertexArrayInfo.vertexArrayObject!;
    gpu.tracker.created('vertexArrays');
    gl.bindFramebuffer(gl.FRAMEBUFFER, output.framebuffer);
    gl.viewport(0, 0, output.width, output.height);
    gl.useProgram(lines.program);
    twgl.setUniforms(lines, lineUniforms);
    gl.bindVertexArray(vertexArray);
    gl.drawArrays(gl.LINES, 0, vertexCount);
    gl.bindVertexArray(null);
  } finally {
    if (vertexArray) gpu.release('vertexArrays', vertexArray);
    gpu.release('transformFeedbacks', feedback);
    gpu.release('buffers', buffer);
  }
}
