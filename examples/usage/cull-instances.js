// GPU culling of instances with several attributes (shown in the README): one predicate reads the
// view-projection matrix and the app's visibility texture, and gather() selects every attribute
// stream of the kept instances by their indices. Nothing comes back to the CPU.

/** Inside the frustum (clip-space test of the sphere's centre, widened by its radius) and not hidden. */
export const visibleGlsl = `
vec4 clip = viewProj * vec4(value.xyz, 1.0);
float reach = clip.w + value.w * radiusToClip;
if (any(greaterThan(abs(clip.xy), vec2(reach))) || clip.z < -reach || clip.z > reach) return false;
return texelFetch(hidden, ivec2(index % 64u, index / 64u), 0).r == 0u;`;

/**
 * spheres: vec4 float32 stream (centre xyz, radius w); colors, transforms: any streams of the same length.
 * viewProj: 16 numbers, column-major (a gl-matrix mat4); hidden: the app's R32UI texture, one texel per
 * instance, 64 wide (non-zero: hidden).
 */
export function cullInstances(engine, { spheres, colors, viewProj, radiusToClip, hidden }) {
  const visible = engine.compact(spheres, {
    keep: {
      glsl: visibleGlsl,
      uniforms: { viewProj, radiusToClip },
      textures: { hidden: { texture: hidden, type: 'uint' } },
    },
    output: 'indices',
  });
  const kept = { spheres: engine.gather(spheres, visible.stream), colors: engine.gather(colors, visible.stream) };
  visible.dispose(); // the gathered streams keep their own copy of the count
  return kept; // draw from kept.spheres.texture and kept.spheres.lengthTexture; dispose both when done
}
