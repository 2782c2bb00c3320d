// A stream's length is a uniform when the CPU knows it, or one texel on the GPU when the stream is
// the output of a compaction whose count was never read back (LENGTH_FROM_TEXTURE), so results
// can be chained without a GPU->CPU round trip.
#ifdef LENGTH_FROM_TEXTURE
uniform usampler2D u_lengthTexture;
uint streamLength() { return texelFetch(u_lengthTexture, ivec2(0), 0).r; }
#else
uniform int u_length;
uint streamLength() { return uint(u_length); }
#endif
