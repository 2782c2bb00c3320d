// A test's stand-in for one method of a (possibly shared) context, and the way back: the context may
// already hold its own property (an interceptor's), which comes back as it was; otherwise the
// stand-in is deleted and the prototype's method shows again.
export function replaceGlMethod<K extends keyof WebGL2RenderingContext>(
  gl: WebGL2RenderingContext,
  name: K,
  replacement: (original: WebGL2RenderingContext[K]) => WebGL2RenderingContext[K],
): () => void {
  const target = gl as unknown as Record<string, unknown>;
  const own = Object.prototype.hasOwnProperty.call(gl, name);
  const original = gl[name];
  target[name] = replacement(original);
  return () => {
    if (own) target[name] = original;
    else delete target[name];
  };
}
