// glcompact/node: a WebGL2 context for Node from headless-gl (npm `gl`, 9.0.0-rc.10 is the one
// release with WebGL2), made recognisable to twgl.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface HeadlessContextOptions {
  /** Drawing-buffer size; the engine renders into its own textures, so 1×1 is enough. */
  width?: number;
  height?: number;
}

const setupHint =
  'headless-gl renders through ANGLE on the host OpenGL: it needs an X display with Mesa ' +
  '(run under `xvfb-run -a`, Debian packages: xvfb libgl1-mesa-dri libglapi-mesa), or ' +
  'ANGLE_DEFAULT_PLATFORM=vulkan with libvulkan.so.1 copied next to node_modules/gl/build/Release/libGLESv2.so ' +
  '(Debian: libvulkan1 mesa-vulkan-drivers). In this repository `bash scripts/setup-system.sh` installs them ' +
  'and `bash scripts/with-display.sh <command>` provides the display.';

let classesPatched = false;

/**
 * twgl recognises GL objects by `typeof WebGLTexture` globals and Object.prototype.toString, and
 * headless-gl's classes provide neither (twgl's createFramebufferInfo then throws "unknown
 * attachment type"). Expose them as globals with a matching Symbol.toStringTag, as browsers do.
 */
function patchHeadlessClasses(): void {
  if (classesPatched) return;
  classesPatched = true;
  const modules: Record<string, string> = {
    WebGLBuffer: 'webgl-buffer',
    WebGLFramebuffer: 'webgl-framebuffer',
    WebGLProgram: 'webgl-program',
    WebGLRenderbuffer: 'webgl-renderbuffer',
    WebGLShader: 'webgl-shader',
    WebGLTexture: 'webgl-texture',
    WebGLVertexArrayObject: 'webgl-vertex-array-object',
    WebGLUniformLocation: 'webgl-uniform-location',
  };
  const globals = globalThis as Record<string, unknown>;
  for (const [name, file] of Object.entries(modules)) {
    const cls = (require(`gl/src/javascript/${file}.js`) as Record<string, { prototype: object }>)[name];
    if (!cls) continue;
    if (!Object.prototype.hasOwnProperty.call(cls.prototype, Symbol.toStringTag)) {
      Object.defineProperty(cls.prototype, Symbol.toStringTag, { value: name, configurable: true });
    }
    if (globals[name] === undefined) globals[name] = cls;
  }
}

export function createHeadlessContext(options: HeadlessContextOptions = {}): WebGL2RenderingContext {
  for (const key of ['width', 'height'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      throw new Error(`createHeadlessContext(): options.${key} must be a positive integer (pixels); got ${JSON.stringify(value)}`);
    }
  }
  let createGL: (width: number, height: number, attributes: object) => WebGL2RenderingContext | null;
  try {
    createGL = require('gl');
  } catch (error) {
    throw new Error(`createHeadlessContext(): headless-gl is not installed or not built (npm install gl@9.0.0-rc.10): ${(error as Error).message}`);
  }
  patchHeadlessClasses();
  const gl = createGL(options.width ?? 1, options.height ?? 1, { createWebGL2Context: true, preserveDrawingBuffer: true });
  if (!gl) {
    const where = process.env.DISPLAY ? `DISPLAY=${process.env.DISPLAY}` : 'no DISPLAY set';
    throw new Error(`createHeadlessContext(): headless-gl could not create a WebGL2 context (${where}). ${setupHint}`);
  }
  return gl;
}

/** The renderer behind a headless-gl context, unmasked (headless-gl reports only "ANGLE"). */
export function headlessRenderer(gl: WebGL2RenderingContext): string {
  const native = (require('gl/src/javascript/native-gl.js') as { gl: { getParameter(this: unknown, p: number): unknown } }).gl;
  return String(native.getParameter.call(gl, 0x1f01 /* RENDERER */));
}

/** Frees a headless-gl context's native resources (no-op for other contexts). */
export function destroyHeadlessContext(gl: WebGL2RenderingContext): void {
  const ext = gl.getExtension('STACKGL_destroy_context') as { destroy(): void } | null;
  ext?.destroy();
}
