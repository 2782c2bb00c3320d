// createHeadlessContext() without an X display fails with an error that says why and what to do.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('createHeadlessContext', () => {
  it('explains the missing display instead of returning null', () => {
    const script = `import('./dist/node.js').then(m => { try { m.createHeadlessContext(); console.log('made a context'); } catch (e) { console.log(e.message); } })`;
    const env = { ...process.env };
    delete env.DISPLAY;
    delete env.ANGLE_DEFAULT_PLATFORM;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
    expect(output).toMatch(/could not create a WebGL2 context \(no DISPLAY set\)/);
    expect(output).toMatch(/xvfb-run/);
    expect(output).toMatch(/libgl1-mesa-dri/);
    // It reaches package consumers, who have none of this repository's scripts.
    expect(output).not.toMatch(/scripts\//);
  });
});

describe('createHeadlessContext options', () => {
  it('rejects a drawing-buffer size that is not a positive integer', async () => {
    const { createHeadlessContext } = await import('../src/node.js');
    expect(() => createHeadlessContext({ width: 0 })).toThrow('createHeadlessContext(): options.width must be a positive integer (pixels); got 0');
    expect(() => createHeadlessContext({ height: 1.5 })).toThrow('options.height must be a positive integer (pixels); got 1.5');
    expect(() => createHeadlessContext({ width: Number.NaN })).toThrow('options.width must be a positive integer (pixels); got NaN');
    expect(() => createHeadlessContext(null as never)).toThrow('createHeadlessContext(options) must be an options object; got null');
    expect(() => createHeadlessContext({ widht: 4 } as never)).toThrow(/createHeadlessContext\(options\).*widht/);
  });
});

describe('the renderer string under headless-gl (README "Node")', () => {
  it("quirk: headless-gl's wrapper answers RENDERER with a fixed 'ANGLE' and has no WEBGL_debug_renderer_info; the patched context has it, so engine.caps.renderer names the real renderer", async () => {
    const { createHeadlessContext, destroyHeadlessContext, headlessRenderer } = await import('../src/node.js');
    const { createEngine } = await import('../src/index.js');
    const { createRequire } = await import('node:module');
    const makeGl = createRequire(import.meta.url)('gl') as (w: number, h: number, o: object) => WebGL2RenderingContext | null;
    const raw = makeGl(1, 1, { createWebGL2Context: true });
    expect(raw, 'an unpatched headless-gl WebGL2 context').not.toBeNull();
    expect(raw!.getParameter(raw!.RENDERER)).toBe('ANGLE');
    expect(raw!.getExtension('WEBGL_debug_renderer_info')).toBeNull();
    destroyHeadlessContext(raw!);
    const gl = createHeadlessContext();
    const engine = createEngine(gl);
    const info = gl.getExtension('WEBGL_debug_renderer_info')!;
    expect(info.UNMASKED_RENDERER_WEBGL).toBe(0x9246);
    // The native string: ANGLE and the GL driver it runs on, e.g. "ANGLE (Mesa/X.org, llvmpipe (...), OpenGL 4.5)".
    expect(headlessRenderer(gl)).toMatch(/^ANGLE \(.+\)$/);
    expect(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)).toBe(headlessRenderer(gl));
    expect(engine.caps.renderer).toBe(headlessRenderer(gl));
    expect(gl.getParameter(gl.RENDERER)).toBe('ANGLE'); // the masked string stays as headless-gl gives it
    engine.dispose();
    destroyHeadlessContext(gl);
  });
});

describe('draw buffers under headless-gl (capabilities.ts probeDrawBuffers)', () => {
  it("quirk: headless-gl's drawBuffers turns every attachment into COLOR_ATTACHMENT0, so only one is written; the engine probes 1 and its scans take the single-attachment form", async () => {
    const { createHeadlessContext, destroyHeadlessContext } = await import('../src/node.js');
    const { createEngine } = await import('../src/index.js');
    const gl = createHeadlessContext();
    expect(gl.getParameter(gl.MAX_DRAW_BUFFERS), 'the context claims 8').toBeGreaterThanOrEqual(8);
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D_ARRAY, texture);
    gl.texStorage3D(gl.TEXTURE_2D_ARRAY, 1, gl.RGBA32UI, 1, 1, 2);
    const framebuffer = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, texture, 0, 0);
    gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT1, texture, 0, 1);
    while (gl.getError() !== gl.NO_ERROR);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1]);
    // GL saw [ATTACHMENT0, ATTACHMENT0]: rejected, and attachment 1 stays off.
    expect(gl.getError()).toBe(gl.INVALID_OPERATION);
    expect(gl.getParameter(gl.DRAW_BUFFER1)).toBe(gl.NONE);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0]);
    expect(gl.getError(), 'attachment 0 alone is accepted').toBe(gl.NO_ERROR);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(framebuffer);
    gl.deleteTexture(texture);

    const engine = createEngine(gl);
    expect(engine.caps.drawBuffers).toBe(1);
    expect(engine.caps.mixedFormatAttachments, 'probed only with 8 attachments').toBe(false);
    const stream = engine.stream(Uint32Array.from({ length: 5000 }, (_, i) => i % 7));
    const scanned = engine.scan(stream, { algorithm: 'reduce-then-scan' });
    const got = await scanned.read();
    let sum = 0;
    expect(Array.from(got)).toEqual(Array.from({ length: 5000 }, (_, i) => (sum += i % 7)));
    scanned.dispose();
    stream.dispose();
    engine.dispose();
    destroyHeadlessContext(gl);
  });
});
