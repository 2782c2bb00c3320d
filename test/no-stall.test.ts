// The page behind issue 18, as a test: an app draws heavy full-screen passes into its on-screen canvas
// in one animation frame, then calls engine.compact() at the start of the next. A call that asks the
// context anything (getParameter, isEnabled, ...) waits there until the GPU process has drawn the
// app's frame: with the engine of 2026-11-22 (state saved by queries) this test measured compact() at
// 15 ms after light frames and 1,950 ms after heavy ones (SwiftShader, this 2-core machine). Now
// compact() must take about as long after heavy frames as after light ones (at most 3×, with a 1 ms
// floor for the browser's timer resolution); a one-pixel synchronous read at the same moment shows
// the GPU really is busy (it waits ~1.9 s), so the comparison means something. The same again with
// compact() right after the app's draws in one task, which is where WebKit shows a stall (see below).
// Browser only: headless-gl renders in the calling thread (no GPU process to wait for).
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { testGl } from './support/phone-profile.js';
import { testPlatform } from './support/platform.js';

const inBrowser = typeof document !== 'undefined';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** Runs `body` in the next animation frame. */
const inNextFrame = <T>(body: () => T) => new Promise<T>((resolve) => requestAnimationFrame(() => resolve(body())));

/** The app's full-screen pass: `iterations` rounds of hashing per pixel (heavy at 400, light at 1). */
function appProgram(gl: WebGL2RenderingContext, iterations: number): WebGLProgram {
  return linkFullScreen(gl, `out vec4 color;
void main() {
  vec2 p = gl_FragCoord.xy;
  float a = 0.0;
  for (int i = 0; i < ${iterations}; i++) a = fract(sin(a + dot(p, vec2(12.9898, 78.233)) + float(i)) * 43758.5453);
  color = vec4(a, a, a, 1.0);
}`);
}

/** A program drawing a full-screen triangle with this fragment shader (after its version and precision lines). */
function linkFullScreen(gl: WebGL2RenderingContext, fragment: string): WebGLProgram {
  const compile = (type: number, source: string) => {
    const shader = gl.createShader(type)!;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    return shader;
  };
  const program = gl.createProgram()!;
  gl.attachShader(program, compile(gl.VERTEX_SHADER, '#version 300 es\nvoid main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }'));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, `#version 300 es\nprecision highp float;\nprecision highp int;\n${fragment}`));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`test program: ${gl.getProgramInfoLog(program)}`);
  return program;
}

describe('no stall after an app\'s heavy frame (browser)', () => {
  it.runIf(inBrowser)('compact() costs the main thread about the same after heavy app frames as after light ones', async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 512;
    canvas.height = 512;
    document.body.appendChild(canvas);
    const gl = testGl(canvas.getContext('webgl2')!);
    const heavy = appProgram(gl, 400);
    const light = appProgram(gl, 1);
    const vertexArray = gl.createVertexArray();
    const engine = createEngine(gl);
    const n = 20_000;
    const data = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) % 5);
    const expected = data.filter((v) => v > 1).length;
    const stream = engine.stream(data);
    const appFrame = (program: WebGLProgram, draws: number) => {
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, 512, 512);
      gl.useProgram(program);
      gl.bindVertexArray(vertexArray);
      for (let i = 0; i < draws; i++) gl.drawArrays(gl.TRIANGLES, 0, 3);
      gl.bindVertexArray(null);
      gl.useProgram(null);
    };
    /**
     * compact()'s main-thread time after an app frame: at the start of the next animation frame
     * (`sameTask` false, issue 18's page), or right after the app's draws in the same task.
     */
    const frames = 3;
    const measure = async (program: WebGLProgram, draws: number, sameTask: boolean) => {
      const times: number[] = [];
      for (let frame = 0; frame < frames; frame++) {
        if (!sameTask) await inNextFrame(() => appFrame(program, draws));
        const result = await inNextFrame(() => {
          if (sameTask) appFrame(program, draws);
          const start = performance.now();
          const kept = engine.compact(stream, { keep: { greaterThan: 1 } });
          times.push(performance.now() - start);
          return kept;
        });
        expect(await result.count()).toBe(expected);
        result.dispose();
        await engine.finish(); // the next frame starts with an idle GPU
      }
      return median(times);
    };
    /** What waiting for the GPU would have cost at that moment: a one-pixel synchronous read. */
    const blockingRead = async (sameTask: boolean) => {
      if (!sameTask) await inNextFrame(() => appFrame(heavy, 4));
      const wait = await inNextFrame(() => {
        if (sameTask) appFrame(heavy, 4);
        const start = performance.now();
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
        return performance.now() - start;
      });
      await engine.finish();
      return wait;
    };
    try {
      // First use of the path (compiles), then steady state.
      engine.compact(stream, { keep: { greaterThan: 1 } }).dispose();
      await engine.finish();
      // WebKitGTK renders WebGL in the page's own process, so a call right after the app's draws
      // waits for them there whatever the engine does (the quirk test below shows it).
      for (const sameTask of testPlatform() === 'webkit' ? [false] : [false, true]) {
        const afterLight = await measure(light, 1, sameTask);
        const afterHeavy = await measure(heavy, 4, sameTask);
        // (Which queries wait depends on the browser and the renderer: in Chromium
        // getParameter(COLOR_WRITEMASK) answered at once here, in the three.js app of issue 18 it
        // waited 1.26 s; a synchronous read always waits for the draws queued before it.)
        const blockingWait = await blockingRead(sameTask);
        const when = sameTask ? 'in the same task as the app\'s draws' : 'in the next animation frame';
        console.log(`[no-stall] ${testPlatform()}, compact() of ${n} elements ${when}, main thread: ${afterLight.toFixed(2)} ms after light frames, ${afterHeavy.toFixed(2)} ms after heavy frames; a one-pixel synchronous read at that moment waits ${blockingWait.toFixed(1)} ms`);
        // A floor of 5 ms: Chromium's clock steps by 0.1 ms and, on a busy 2-core host, the median of
        // three calls read 1.8-2.5 ms after heavy frames in 1 of 3 runs (0.3-0.7 otherwise); waiting
        // for the app's draws costs ~1,000 ms here (the read below), so 5 ms still tells them apart.
        // Not asserted in WebKitGTK: there the page's process has drawn the app's frame before the next
        // one starts (the read below waits 2-31 ms), so nothing is left to wait for, and compact()'s
        // own time on the thread (it renders before it returns) varies 5-30 ms on this host: medians
        // of 7 frames read 6 against 20 ms in a CI run of ace1d4e, failing a 3x bound with no stall.
        // The quirk test below shows what does wait there.
        if (testPlatform() === 'webkit') console.log('[no-stall] webkit: the heavy/light comparison is not asserted (the app\'s frame is drawn before the next one starts; compact() renders before it returns)');
        else expect(afterHeavy).toBeLessThanOrEqual(Math.max(3 * afterLight, 5));
        // The setting is heavy enough for the test to mean something: waiting for the GPU costs far
        // more. Not so in WebKitGTK's next frame: the page's process has finished drawing the frame
        // before the next requestAnimationFrame (measured: the read waits 2-31 ms there, ~1,000 ms in
        // Firefox), so there neither comparison is asserted (above).
        if (testPlatform() !== 'webkit') expect(blockingWait).toBeGreaterThan(5 * Math.max(afterHeavy, 1));
      }
    } finally {
      stream.dispose();
      engine.dispose();
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
  });

  // An engine quirk, not the engine's: WebKitGTK (2.50 here) runs WebGL inside the page's own web
  // process, on Mesa's llvmpipe (no WebKitGPUProcess runs), like headless-gl in Node. A draw that
  // samples a texture rendered earlier in the same task then waits until the renderer has drawn
  // everything queued before it: measured 1.1-1.3 s after the heavy app draws below, where the same
  // draw without the earlier render costs ~0 ms. Every multi-pass call (each pass samples the last)
  // therefore costs its rendering time on the main thread there, and a call right after an app's
  // heavy draws waits for them. Chromium and Firefox render in another process: no wait. Safari on
  // Apple devices renders in a GPU process; this quirk is WebKitGTK-on-a-CPU-renderer's.
  it.runIf(inBrowser)('a pass sampling the texture the pass before it rendered waits for the app\'s queued draws only in WebKitGTK (WebGL in the page\'s own process)', async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 512;
    canvas.height = 512;
    document.body.appendChild(canvas);
    const gl = canvas.getContext('webgl2')!;
    const heavy = appProgram(gl, 400);
    const vertexArray = gl.createVertexArray();
    const write = linkFullScreen(gl, 'out uvec4 o; void main() { o = uvec4(1u); }');
    const fetch = linkFullScreen(gl, 'uniform highp usampler2D s; out uvec4 o; void main() { o = texelFetch(s, ivec2(gl_FragCoord.xy), 0) + 1u; }');
    const target = () => {
      const texture = gl.createTexture()!;
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R32UI, 256, 256);
      // Integer textures are incomplete with the default filters; an incomplete one is not sampled.
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      const framebuffer = gl.createFramebuffer()!;
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
      return { texture, framebuffer };
    };
    const a = target();
    const b = target();
    const draw = (program: WebGLProgram, into: WebGLFramebuffer, width: number) => {
      gl.bindFramebuffer(gl.FRAMEBUFFER, into);
      gl.viewport(0, 0, width, width);
      gl.useProgram(program);
      const start = performance.now();
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      return performance.now() - start;
    };
    gl.bindVertexArray(vertexArray);
    /** Heavy app draws, then write a, then sample a into b, in one task: each draw's main-thread ms. */
    const run = () => inNextFrame(() => {
      for (let i = 0; i < 4; i++) draw(heavy, null as unknown as WebGLFramebuffer, 512);
      const writeMs = draw(write, a.framebuffer, 256);
      gl.bindTexture(gl.TEXTURE_2D, a.texture);
      const sampleMs = draw(fetch, b.framebuffer, 256);
      return { writeMs, sampleMs };
    });
    try {
      await run(); // compiles
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
      const { writeMs, sampleMs } = await run();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
      console.log(`[no-stall] ${testPlatform()}: after heavy app draws, a pass writing a texture costs ${writeMs.toFixed(1)} ms of main thread, the next pass sampling it ${sampleMs.toFixed(1)} ms`);
      expect(writeMs).toBeLessThan(50);
      if (testPlatform() === 'webkit') expect(sampleMs).toBeGreaterThan(200);
      else expect(sampleMs).toBeLessThan(50);
    } finally {
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
  });

  it.skipIf(inBrowser)('(the blocking-query test above runs in the browsers only)', (context) => {
    context.skip('headless-gl renders in the calling thread, so there is no GPU process for a query to wait on');
  });
});
