// The passes a user's keep snippet is inserted into, and every define the engine gives them. One list,
// read by the drivers (keep-flags.ts, bitmask.ts) and by keep-snippet.ts, which reserves every name
// these passes declare or are given: a snippet or uniform named like a define would be rewritten by
// the preprocessor in one pass and not in another (FLAGS_PER_TEXEL once worked on 'horn' and broke
// the bitmask with "'32' : syntax error"). keepFlagsProgram refuses a define missing from this list.
import keepBitmask from '../../glsl/keep-bitmask.frag';
import keepFlags from '../../glsl/keep-flags.frag';

/** Defines every keep pass gets (keepFlagsProgram), besides its own below. */
export const KEEP_DEFINES = ['COMPONENTS', 'FLOAT_VALUES', 'INT_VALUES', 'LENGTH_FROM_TEXTURE', 'KEPT_FLAGS'] as const;

/** Each pass that runs keep(): its source and the defines only it gets. */
export const keepPasses = {
  flags: { name: 'keep-flags.frag', fragment: keepFlags, defines: [] as readonly string[] },
  bitmask: { name: 'keep-bitmask.frag', fragment: keepBitmask, defines: ['FLAGS_PER_TEXEL'] as readonly string[] },
} as const;
