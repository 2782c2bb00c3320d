// engine.scan(stream, { segments }): a scan that restarts wherever segments[i] is not zero, at any
// positions (not only at fixed blocks). Where each segment starts is found first (one pass, then a
// max-scan by recursive doubling: glsl/segment-heads*.frag); then recursive doubling adds values
// while they lie in the element's own segment (glsl/segmented-scan-step.frag). With radix 4:
// 2·ceil(log4 n) + 1 passes (+1 when exclusive), 21 for 2^20 texels.
import segmentHeads from '../../glsl/segment-heads.frag';
import segmentHeadsStep from '../../glsl/segment-heads-step.frag';
import segmentedExclusive from '../../glsl/segmented-exclusive.frag';
import segmentedScanStep from '../../glsl/segmented-scan-step.frag';
import type { Gpu } from '../gpu.js';
import { PingPong } from '../ping-pong.js';
import type { RenderTarget } from '../render-target.js';
import { lengthUniforms, type StreamView } from '../stream.js';
import { COUNT_FORMAT } from '../texel-format.js';

/** Elements each doubling step adds (the offsets grow 4-fold). */
const SEGMENTED_RADIX = 4;

export function segmentedScan(gpu: Gpu, stream: StreamView, segments: StreamView, exclusive: boolean): RenderTarget {
  const { width, height, widthLog2, capacity } = stream.layout;
  const steps = Math.max(1, Math.ceil(Math.log2(capacity) / Math.log2(SEGMENTED_RADIX)));
  const length = lengthUniforms(stream);
  const lengthFromTexture = stream.length === undefined;
  return gpu.scope((scope) => {
    // Where each element's segment starts.
    const heads = new PingPong(scope, width, height, COUNT_FORMAT);
    gpu.pass(gpu.program({ name: 'segment-heads.frag', fragment: segmentHeads, defines: { FLOAT_SEGMENTS: segments.type === 'float32' } }), heads.output, {
      u_segments: segments.target.texture,
      u_segmentsWidthLog2: segments.layout.widthLog2,
      u_widthLog2: widthLog2,
    });
    let headTexture = heads.swap();
    const headStep = gpu.program({ name: 'segment-heads-step.frag', fragment: segmentHeadsStep, defines: { RADIX: SEGMENTED_RADIX } });
    for (let step = 0; step < steps; step++) {
      gpu.pass(headStep, heads.output, { u_heads: headTexture, u_offset: SEGMENTED_RADIX ** step, u_widthLog2: widthLog2 });
      headTexture = heads.swap();
    }
    // The sums, restarting at each segment's start.
    const sums = new PingPong(scope, width, height, stream.format);
    let input = stream.target.texture;
    for (let step = 0; step < steps; step++) {
      const last = step === steps - 1;
      const program = gpu.program({
        name: 'segmented-scan-step.frag',
        fragment: segmentedScanStep,
        defines: { RADIX: SEGMENTED_RADIX, FLOAT_VALUES: stream.type === 'float32', LAST: last, LENGTH_FROM_TEXTURE: last && lengthFromTexture },
      });
      gpu.pass(program, sums.output, { u_input: input, u_heads: headTexture, u_offset: SEGMENTED_RADIX ** step, u_widthLog2: widthLog2, ...(last ? length : {}) });
      input = sums.swap();
    }
    if (!exclusive) return scope.keep(sums.result);
    const shifted = scope.target(width, height, stream.format);
    gpu.pass(gpu.program({ name: 'segmented-exclusive.frag', fragment: segmentedExclusive, defines: { LENGTH_FROM_TEXTURE: lengthFromTexture } }), shifted, {
      u_input: input,
      u_heads: headTexture,
      u_widthLog2: widthLog2,
      ...length,
    });
    return scope.keep(shifted);
  });
}

/** Passes of a scan with segments over `capacity` texels. */
export function segmentedScanPasses(capacity: number, exclusive: boolean): number {
  return 2 * Math.max(1, Math.ceil(Math.log2(capacity) / Math.log2(SEGMENTED_RADIX))) + 1 + (exclusive ? 1 : 0);
}
