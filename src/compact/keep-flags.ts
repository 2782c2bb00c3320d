// The discriminator pass every compaction starts with (paper Sec. 3.3): one flag per texel from
// the user's keep test; padding past the stream's length is never kept.
import type { Gpu } from '../gpu.js';
import { withDefines, type Program, type ShaderCompileError } from '../programs.js';
import type { RenderTarget } from '../render-target.js';
import { lengthUniforms, type StreamView } from '../stream.js';
import { describeUserCompileError, insertKeepFunction, type KeepFunction } from './keep-function.js';
import { KEEP_DEFINES, keepPasses } from './keep-passes.js';

/** What the flags say: 'not-kept' (1 = not kept, the paper's "invalid", for MAS) or 'kept' (1 = kept, Horn's global scan). */
export type FlagMeaning = 'kept' | 'not-kept';

/**
 * Compiles the discriminator (keep-flags.frag, or another pass that runs the keep test, such as
 * keep-bitmask.frag). Drivers call it before they take any target, so a user snippet that
 * fails to compile leaves nothing behind (not even an idle texture in the pool).
 */
export function keepFlagsProgram(
  gpu: Gpu,
  stream: StreamView,
  keep: KeepFunction,
  meaning: FlagMeaning,
  pass: { pass: (typeof keepPasses)[keyof typeof keepPasses]; defines?: Record<string, number | boolean> } = { pass: keepPasses.flags },
): Program {
  const defines = {
    ...stream.format.defines,
    FLOAT_VALUES: stream.type === 'float32',
    INT_VALUES: stream.type === 'int32',
    LENGTH_FROM_TEXTURE: stream.length === undefined,
    KEPT_FLAGS: meaning === 'kept',
    ...pass.defines,
  };
  const { name, fragment: passFragment } = pass.pass;
  // The source is spliced only when the program is not cached: the key stands for it (a keep test's
  // key covers its whole generated text), so a steady-state call builds no shader text.
  const fragment = () => {
    // Checked when a program is built: a define the reserved names do not cover would let a
    // snippet's name be rewritten by the preprocessor in this pass only.
    const reserved: readonly string[] = [...KEEP_DEFINES, ...pass.pass.defines];
    const unlisted = Object.keys(defines).filter((define) => !reserved.includes(define));
    if (unlisted.length > 0) throw new Error(`internal: keep pass ${name} is given define(s) ${unlisted.join(', ')} that keep-passes.ts does not list`);
    return insertKeepFunction(passFragment, keep);
  };
  const body = keep.userBody;
  // A user's snippet that does not compile: its own lines quoted (also when engine.warmUp() finds it).
  const explainFailure = body === undefined ? undefined : (error: ShaderCompileError) => new Error(describeUserCompileError(gpu.gl, withDefines(fragment(), defines), body) ?? error.message);
  return gpu.program({ name, fragment, sourceKey: `${name}\u0000${keep.key}`, defines, ...(explainFailure ? { explainFailure } : {}) });
}

/** Runs a pass compiled by keepFlagsProgram; `extra` adds that pass's own uniforms. */
export function keepFlagsPass(gpu: Gpu, stream: StreamView, keep: KeepFunction, program: Program, flags: RenderTarget, extra: Record<string, unknown> = {}): void {
  gpu.pass(program, flags, {
    ...extra,
    ...keep.uniforms,
    u_values: stream.target.texture,
    u_widthLog2: stream.layout.widthLog2,
    ...lengthUniforms(stream),
  });
}
