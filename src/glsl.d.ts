// GLSL passes in glsl/ are imported as text; scripts/glsl-loader.mjs expands their #include lines.
declare module '*.frag' { const source: string; export default source; }
declare module '*.vert' { const source: string; export default source; }
declare module '*.glsl' { const source: string; export default source; }
