// Recursive doubling (Hillis & Steele; paper Algorithm 1), segmented per block: log2(b) ping-pong
// passes with offsets 1, 2, 4, ..., b/2. Simple and few passes, but every pass shades all n texels
// (n·log2 b fragments in total).
import hillisSteeleStep from '../../glsl/hillis-steele-step.frag';
import { PingPong } from '../ping-pong.js';
import type { BlockScan } from './block-scan.js';

export const hillisSteeleBlockScan: BlockScan = (gpu, input, options) => {
  const { blockLog2 } = options;
  const pingPong = new PingPong(gpu, input.width, input.height, input.format);
  // A block of one element still needs one pass (a copy, or zeros when exclusive); an offset of
  // 1 adds nothing there, since no element has a left neighbour in its block.
  const steps = Math.max(blockLog2, 1);
  let source = input.texture;
  for (let step = 0; step < steps; step++) {
    const last = step === steps - 1;
    const program = gpu.program({
      name: 'hillis-steele-step.frag',
      fragment: hillisSteeleStep,
      defines: {
        FLOAT_VALUES: options.floatValues,
        EXCLUSIVE: last && options.exclusive,
        MAX_ALLOWABLE_SIZE: last && options.maxAllowableSize,
      },
    });
    gpu.pass(program, pingPong.output, {
      u_input: source,
      u_offset: 2 ** step,
      u_blockLog2: blockLog2,
      u_invalidFlags: input.texture,
    });
    source = pingPong.swap();
  }
  return pingPong.takeResult();
};

export function hillisSteeleFragments(width: number, height: number, blockLog2: number): number {
  return width * height * Math.max(blockLog2, 1);
}

