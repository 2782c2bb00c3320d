// Blelloch's balanced-tree scan (paper Fig. 3), segmented per block and work-efficient: tree
// level l lives in its own texture of width W / 2^l, so pass l shades only that level's nodes.
// Up-sweep to level L-1 (the roots' sums are never needed: a root's prefix is 0), then down-sweep
// to level 0 with the inclusive/MAS step fused into the last pass: 2·log2(b) - 1 passes,
// about 3n fragments in all, linear in n.
import blellochDownSweep from '../../glsl/blelloch-down-sweep.frag';
import blellochUpSweep from '../../glsl/blelloch-up-sweep.frag';
import type { RenderTarget } from '../render-target.js';
import type { BlockScan } from './block-scan.js';
import { hillisSteeleBlockScan } from './hillis-steele.js';

export const blellochBlockScan: BlockScan = (gpu, input, options) => {
  const { blockLog2, floatValues } = options;
  if (blockLog2 === 0) return hillisSteeleBlockScan(gpu, input, options);
  return gpu.scope((scope) => {
    // sums[l] = subtree sums of tree level l (level 0 is the input itself).
    const sums: WebGLTexture[] = [input.texture];
    const up = gpu.program({ name: 'blelloch-up-sweep.frag', fragment: blellochUpSweep, defines: { FLOAT_VALUES: floatValues } });
    for (let level = 1; level < blockLog2; level++) {
      const target = scope.target(input.width >> level, input.height, input.format);
      gpu.pass(up, target, { u_children: sums[level - 1] });
      sums.push(target.texture);
    }

    let parentPrefix: WebGLTexture | null = null;
    let result: RenderTarget | undefined;
    for (let level = blockLog2 - 1; level >= 0; level--) {
      const last = level === 0;
      const program = gpu.program({
        name: 'blelloch-down-sweep.frag',
        fragment: blellochDownSweep,
        defines: {
          FLOAT_VALUES: floatValues,
          ROOT: level === blockLog2 - 1,
          INCLUSIVE: last && !options.exclusive && !options.maxAllowableSize,
          MAX_ALLOWABLE_SIZE: last && options.maxAllowableSize,
          BLOCK_SIZE: last && options.maxAllowableSize ? `${2 ** blockLog2}u` : undefined,
        },
      });
      const target = scope.target(input.width >> level, input.height, input.format);
      gpu.pass(program, target, {
        u_parentPrefix: parentPrefix ?? sums[0],
        u_subtreeSums: sums[level],
        u_invalidFlags: input.texture,
      });
      parentPrefix = target.texture;
      result = target;
    }
    return scope.keep(result!); // the last level written is the scan; the tree levels are freed
  });
};
