// The discriminator pass every compaction starts with (paper Sec. 3.3): one flag per texel from
// the user's keep test; padding past the stream's length is never kept.
import keepFlagsFragment from '../../glsl/keep-flags.frag';
import type { Gpu } from '../gpu.js';
import { ShaderCompileError, withDefines, type Program } from '../programs.js';
import type { RenderTarget } from '../render-target.js';
import type { StreamView } from '../stream.js';
import { describeUserCompileError, insertKeepFunction, type KeepFunction } from './keep-function.js';

/** What the flags say: 'not-kept' (1 = not kept, the paper's "invalid", for MAS) or 'kept' (1 = kept, Horn's global scan). */
export type FlagMeaning = 'kept' | 'not-kept';

/**
 * Compiles the discriminator. Drivers call it before they take any target, so a user snippet that
 * fails to compile leaves nothing behind (not even an idle texture in the pool).
 */
export function keepFlagsProgram(gpu: Gpu, stream: StreamView, keep: KeepFunction, meaning: FlagMeaning): Program {
  const defines = {
    ...stream.format.defines,
    FLOAT_VALUES: stream.type === 'float32',
    INT_VALUES: stream.type === 'int32',
    LENGTH_FROM_TEXTURE: stream.length === undefined,
    KEPT_FLAGS: meaning === 'kept',
  };
  const fragment = insertKeepFunction(keepFlagsFragment, keep);
  try {
    return gpu.program({ name: 'keep-flags.frag', fragment, defines });
  } catch (error) {
    if (error instanceof ShaderCompileError && keep.userBody !== undefined) {
      throw new Error(describeUserCompileError(gpu.gl, withDefines(fragment, defines), keep.userBody) ?? error.message);
    }
    throw error;
  }
}

export function keepFlagsPass(gpu: Gpu, stream: StreamView, keep: KeepFunction, program: Program, flags: RenderTarget): void {
  gpu.pass(program, flags, {
    ...keep.uniforms,
    u_values: stream.target.texture,
    u_widthLog2: stream.layout.widthLog2,
    ...(stream.length === undefined ? { u_lengthTexture: stream.lengthTarget!.texture } : { u_length: stream.length }),
  });
}
