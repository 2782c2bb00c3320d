// Browser usage (shown in the README): drop dead particles on the GPU, keep the live ones.
import { createEngine } from 'glcompact';

export async function liveParticles(canvas, particles /* Float32Array: x, y, z, life per particle */) {
  const gl = canvas.getContext('webgl2');
  const engine = createEngine(gl);

  const stream = engine.stream(particles, { components: 4 });
  const live = engine.compact(stream, {
    keep: { glsl: 'return value.w > 0.0;' }, // body of bool keep(vec4 value, uint index)
    algorithm: 'jumping-jack', // order does not matter for particles
  });

  const count = await live.count(); // reads back one texel
  // live.stream.texture now holds `count` particles for the next draw or pass;
  // here we read them back to show the result.
  const values = await live.read();

  live.dispose();
  stream.dispose();
  engine.dispose();
  return { count, values };
}
