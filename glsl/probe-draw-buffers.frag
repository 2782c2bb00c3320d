#version 300 es
// Capability probe (src/capabilities.ts): writes attachment a's number into it, so the probe can
// check that a pass really reaches ATTACHMENTS layers of a TEXTURE_2D_ARRAY at once, as the scans'
// lanes need (glsl/scan-lanes-up.frag).
precision highp float;
layout(location = 0) out uvec4 outLayers[ATTACHMENTS];

void main() {
  // Fragment outputs take constant indices only.
#define LAYER(a) outLayers[a] = uvec4(uint(a) + 1u, 0xa5u, uint(a) * 3u, 7u)
  LAYER(0); LAYER(1); LAYER(2); LAYER(3);
#if ATTACHMENTS == 8
  LAYER(4); LAYER(5); LAYER(6); LAYER(7);
#endif
}
