// How elements sit in texels: one descriptor per texture format the engine renders into, so no
// code asks "1 or 4 components?" itself. Every format stores raw 32-bit patterns (floats are
// bit-cast), so moving data through any pass is bit-exact. Today each texel holds one element;
// `elementsPerTexel` is where a packed format (e.g. 4 scalars per RGBA32UI texel) would say so.

// GL enums, so the descriptors need no context (values from the WebGL2 specification).
const GL = {
  R32UI: 0x8236,
  RG32UI: 0x823c,
  RGBA32UI: 0x8d70,
  R32F: 0x822e,
  RG32F: 0x8230,
  RGBA32F: 0x8814,
  RED: 0x1903,
  RG: 0x8227,
  RGBA: 0x1908,
  RED_INTEGER: 0x8d94,
  RG_INTEGER: 0x8228,
  RGBA_INTEGER: 0x8d99,
} as const;

/** A format the engine renders into: the streams' formats and its own (PAIR_FORMAT). */
export interface TargetFormat {
  readonly name: 'r32ui' | 'rg32ui' | 'rgba32ui';
  readonly components: 1 | 2 | 4;
  /** Elements stored per texel. */
  readonly elementsPerTexel: 1;
  readonly bytesPerTexel: number;
  readonly internalFormat: number;
  /** Format of an integer upload (texSubImage2D with UNSIGNED_INT). */
  readonly uploadFormat: number;
  /** The float format with the same bytes per texel (the float-bits upload path, adapter.ts). */
  readonly floatInternalFormat: number;
  readonly floatUploadFormat: number;
  /** Defines the passes that read this format need (keep-flags.frag). */
  readonly defines: { COMPONENTS: 1 | 2 | 4 };
}

/** A stream's format. */
export interface TexelFormat extends TargetFormat {
  readonly name: 'r32ui' | 'rgba32ui';
  /** Components per element (what a user's stream calls `components`). */
  readonly components: 1 | 4;
  readonly defines: { COMPONENTS: 1 | 4 };
}

export const texelFormats = {
  r32ui: {
    name: 'r32ui', components: 1, elementsPerTexel: 1, bytesPerTexel: 4,
    internalFormat: GL.R32UI, uploadFormat: GL.RED_INTEGER,
    floatInternalFormat: GL.R32F, floatUploadFormat: GL.RED,
    defines: { COMPONENTS: 1 },
  },
  rgba32ui: {
    name: 'rgba32ui', components: 4, elementsPerTexel: 1, bytesPerTexel: 16,
    internalFormat: GL.RGBA32UI, uploadFormat: GL.RGBA_INTEGER,
    floatInternalFormat: GL.RGBA32F, floatUploadFormat: GL.RGBA,
    defines: { COMPONENTS: 4 },
  },
} as const satisfies Record<string, TexelFormat>;

export type TexelFormatName = keyof typeof texelFormats;

/** Counts, flags, prefix sums and offsets: one uint32 per texel. */
export const COUNT_FORMAT: TexelFormat = texelFormats.r32ui;

/**
 * Two uint32 per texel, inside the engine only (no stream has 2 components): the sort's pairs of
 * (sort key, input position), moved together by one pass per digit where passes write one attachment
 * (src/sort.ts; with 4+, the select pass writes them two to an RGBA32UI texel instead).
 */
export const PAIR_FORMAT: TargetFormat = {
  name: 'rg32ui', components: 2, elementsPerTexel: 1, bytesPerTexel: 8,
  internalFormat: GL.RG32UI, uploadFormat: GL.RG_INTEGER,
  floatInternalFormat: GL.RG32F, floatUploadFormat: GL.RG,
  defines: { COMPONENTS: 2 },
};

/** Every format the engine renders into; createEngine checks each is complete (capabilities.ts). */
export const renderedFormats: readonly TargetFormat[] = [...Object.values(texelFormats), PAIR_FORMAT];

/** The components a stream may have, from the formats above. */
export const streamComponents = Object.values(texelFormats).map((format) => format.components);

/** The format that stores elements of `components` components, or undefined if none does. */
export function formatForComponents(components: unknown): TexelFormat | undefined {
  return Object.values(texelFormats).find((format) => format.components === components);
}
