#version 300 es
// Capability probe (src/capabilities.ts): writes attachment a's number into it, so the probe can
// check that a pass really reaches ATTACHMENTS layers of a TEXTURE_2D_ARRAY at once, as the scans'
// lanes need (glsl/scan-lanes-up.frag).
// With COMPANION, one more output goes to an R32UI texture attached after the layers (the sort's
// select target: render-target.ts companion), which gets its .x.
precision highp float;
#ifdef COMPANION
layout(location = 0) out uvec4 outLayers[ATTACHMENTS + 1];
#else
layout(location = 0) out uvec4 outLayers[ATTACHMENTS];
#endif

void main() {
  // Fragment outputs take constant indices only.
#define LAYER(a) outLayers[a] = uvec4(uint(a) + 1u, 0xa5u, uint(a) * 3u, 7u)
  LAYER(0); LAYER(1); LAYER(2); LAYER(3);
#if ATTACHMENTS == 8
  LAYER(4); LAYER(5); LAYER(6); LAYER(7);
#endif
#ifdef COMPANION
  outLayers[ATTACHMENTS] = uvec4(0xc0u + uint(ATTACHMENTS), 0u, 0u, 0u);
#endif
}
