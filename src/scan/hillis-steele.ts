// Recursive doubling (Hillis & Steele; paper Algorithm 1), segmented per block: log2(b) ping-pong
// passes with offsets 1, 2, 4, ..., b/2. Simple and few passes, but every pass shades all n texels
// (n·log2 b fragments in total). With radix r > 2 each pass adds r - 1 neighbours and the offsets
// grow r-fold: ceil(log_r b) passes (glsl/hillis-steele-step.frag).
import hillisSteeleStep from '../../glsl/hillis-steele-step.frag';
import { PingPong } from '../ping-pong.js';
import type { BlockScan } from './block-scan.js';

export const hillisSteeleBlockScan: BlockScan = (gpu, input, options) =>
  gpu.scope((scope) => {
    const { blockLog2 } = options;
    const radix = options.radix ?? 2;
    const pingPong = new PingPong(scope, input.width, input.height, input.format);
    // A block of one element still needs one pass (a copy, or zeros when exclusive); an offset of
    // 1 adds nothing there, since no element has a left neighbour in its block.
    const steps = hillisSteelePasses(blockLog2, radix);
    let source = input.texture;
    for (let step = 0; step < steps; step++) {
      const last = step === steps - 1;
      const program = gpu.program({
        name: 'hillis-steele-step.frag',
        fragment: hillisSteeleStep,
        defines: {
          FLOAT_VALUES: options.floatValues,
          RADIX: radix,
          EXCLUSIVE: last && options.exclusive,
          MAX_ALLOWABLE_SIZE: last && options.maxAllowableSize,
        },
      });
      gpu.pass(program, pingPong.output, {
        u_input: source,
        u_offset: radix ** step,
        u_blockLog2: blockLog2,
        ...(last && options.maxAllowableSize ? { u_invalidFlags: input.texture } : {}),
      });
      source = pingPong.swap();
    }
    return scope.keep(pingPong.result);
  });

/** Passes for one block scan: ceil(log_radix b), at least 1. */
export function hillisSteelePasses(blockLog2: number, radix: number): number {
  return Math.max(1, Math.ceil(blockLog2 / Math.log2(radix)));
}

