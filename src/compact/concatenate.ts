// Block concatenation (paper Sec. 3.4 and 5, Fig. 8): every compacted block is drawn as at most two
// horizontal lines into the output texture (glsl/block-endpoints.glsl). The endpoints come either
// from a transform-feedback pass into a buffer that then feeds gl.LINES ('transform-feedback', the
// WebGL2 form of the paper's render-to-vertex-array), or are computed in the line vertex shader
// itself from gl_VertexID ('vertex-fetch': what concat 'auto' takes, see AUTO_CONCAT).
import { mat4 } from 'gl-matrix';
import blockEndpoints from '../../glsl/block-endpoints.vert';
import blockLinesFeedback from '../../glsl/block-lines-feedback.vert';
import blockLinesFetch from '../../glsl/block-lines-fetch.vert';
import blockLines from '../../glsl/block-lines.frag';
import captureOnly from '../../glsl/capture-only.frag';
import type { DrawTarget, Gpu, Uniforms } from '../gpu.js';
import type { Defines } from '../programs.js';
import type { RenderTarget } from '../render-target.js';
import { zeroPadding } from '../zero-padding.js';

/** The two ways to get the lines' endpoints. */
export const concatModes = ['transform-feedback', 'vertex-fetch'] as const;
/**
 * How compacted blocks are joined: the line endpoints come from a 'transform-feedback' pass or are
 * computed in the line vertex shader ('vertex-fetch', what 'auto' takes: faster where measured).
 */
export type ConcatMode = 'transform-feedback' | 'vertex-fetch';
// Spelt out for the API reference; it must match the list.
const listMatchesType: [ConcatMode] extends [(typeof concatModes)[number]] ? ([(typeof concatModes)[number]] extends [ConcatMode] ? true : false) : false = true;
void listMatchesType;

/**
 * What concat 'auto' takes: vertex fetch, measured faster everywhere on the H200 (headless-gl, egl
 * backend, bench/results/nvidia-h200-pcie-sse2-2026-11-22.json): at 2^22, block 256, 'auto' with
 * vertex fetch beat transform feedback at 21 of 22 densities by 5-15 % (tied at 75 % invalid), and at
 * 2^24 by 1.0-1.6 ms (8-14 %) for Jumping Jack, Horn and auto alike. Transform feedback costs a
 * capture pass and a buffer per call; computing 4 endpoints per block in the line vertex shader is
 * cheaper. The paper's transform-feedback path stays selectable (and tested) wherever it works.
 */
export const AUTO_CONCAT: ConcatMode = 'vertex-fetch';

/** @internal */
export interface ConcatInput {
  /** The per-block search the line fragments run (glsl/block-search.glsl): variant and inputs. */
  search: { defines: Defines; uniforms: Uniforms };
  /** Kept count per block, one texel per block (row-major block order). */
  blockCounts: RenderTarget;
  /** Inclusive scan of blockCounts, same layout. */
  blockKeptPrefix: RenderTarget;
  blockLog2: number;
  blockCount: number;
}

/** The line vertex shader's `a_endpoint` location (glsl/block-lines-feedback.vert). */
const ENDPOINT_LOCATION = 0;

/** Bytes per captured vertex: one uvec4 (position bits, first output index, block number). */
const ENDPOINT_BYTES = 16;

/** @internal The fragment shader the lines run, with its uniforms (block-lines.frag for a compaction). */
export interface LineShading {
  name: string;
  source: string;
  uniforms: Uniforms;
  defines?: Defines;
}

/** @internal */
export function concatenateBlocks(gpu: Gpu, mode: ConcatMode, input: ConcatInput, output: RenderTarget, count: RenderTarget): void {
  // Texels past the kept count are padding and must read as zero for later passes.
  zeroPadding(gpu, output, count);
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

/** @internal Draws 2 line segments per block (4 vertices) into `output`, endpoints by `mode`. */
export function drawBlockLines(
  gpu: Gpu,
  mode: ConcatMode,
  blocks: Pick<ConcatInput, 'blockCounts' | 'blockKeptPrefix' | 'blockCount'>,
  output: DrawTarget,
  shading: LineShading,
): void {
  const blockUniforms = {
    u_blockCounts: blocks.blockCounts.texture,
    u_blockKeptPrefix: blocks.blockKeptPrefix.texture,
    u_countsWidthLog2: Math.log2(blocks.blockCounts.width),
    u_outputWidthLog2: Math.log2(output.width),
  };
  const lineUniforms = { ...shading.uniforms, u_pixelToClip: pixelToClip(output) };
  const count = blocks.blockCount * 4;
  if (mode === 'vertex-fetch') {
    const program = gpu.lookUp({ name: `block-lines-fetch.vert+${shading.name}`, vertex: blockLinesFetch, fragment: shading.source, defines: shading.defines });
    gpu.draw({ program, target: output, primitive: 'lines', count, uniforms: { ...blockUniforms, ...lineUniforms } });
    return;
  }
  const capture = gpu.lookUp({ name: 'block-endpoints.vert', vertex: blockEndpoints, fragment: captureOnly, transformFeedbackVarying: 'v_endpoint' });
  const lines = gpu.lookUp({ name: `block-lines-feedback.vert+${shading.name}`, vertex: blockLinesFeedback, fragment: shading.source, defines: shading.defines });
  gpu.scope((scope) => {
    const gl = gpu.gl;
    const buffer = scope.create('buffers');
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, count * ENDPOINT_BYTES, gl.DYNAMIC_COPY);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    // Pass 1: one point per endpoint, rasterizer off, the endpoint captured into the buffer.
    gpu.draw({ program: capture, primitive: 'points', count, uniforms: blockUniforms, capture: { feedback: scope.create('transformFeedbacks'), buffer } });
    // Pass 2: the captured vertices as gl.LINES into the output.
    const vertexArray = endpointVertexArray(gpu, buffer);
    scope.release('vertexArrays', vertexArray);
    gpu.draw({ program: lines, target: output, primitive: 'lines', count, vertexArray, uniforms: lineUniforms });
  });
}

/** The matrix taking `output`'s pixel coordinates to clip space (the lines' u_pixelToClip). */
function pixelToClip(output: DrawTarget): mat4 {
  return mat4.ortho(mat4.create(), 0, output.width, 0, output.height, -1, 1);
}

/**
 * A vertex array reading one uvec4 `a_endpoint` per vertex from `buffer` (integer attribute, no
 * conversion). The shader fixes its location (layout(location = 0)): no getAttribLocation query.
 */
function endpointVertexArray(gpu: Gpu, buffer: WebGLBuffer): WebGLVertexArrayObject {
  const gl = gpu.gl;
  const vertexArray = gpu.create('vertexArrays');
  const location = ENDPOINT_LOCATION;
  gl.bindVertexArray(vertexArray);
  gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.enableVertexAttribArray(location);
  gl.vertexAttribIPointer(location, 4, gl.UNSIGNED_INT, ENDPOINT_BYTES, 0);
  gl.bindVertexArray(null);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  return vertexArray;
}
