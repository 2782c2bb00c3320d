// The GL state contract (issue 10, first phase): GlStateGuard sets the state the engine depends on and
// gives the app back its context exactly as found. Each case applies app leftover state
// (test/support/gl-state.ts), snapshots the FULL state, enters the guard, checks the state the engine
// needs, does what an engine call does (create a texture on the active unit, four uploads into textures
// on units 0–3, a transform-feedback pass's state changes, a draw into an R32UI target, a readPixels),
// exits, and expects the snapshot unchanged and the data exact.
//
// Knobs (reach the Chromium project too, see vitest.config.ts):
//   GLCOMPACT_STATE_RUNS   random subsets of app state (default 200)
//   GLCOMPACT_STATE_SEED   fast-check seed (default fixed)
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { GlStateGuard, glStateItems } from '../src/gl-state.js';
import { testContext } from './support/engine.js';
import { compileProgram } from '../examples/demo/src/shared/gl-program.js';
import { envCount } from './support/env.js';
import { testGl } from './support/phone-profile.js';
import {
  appStates,
  appStatesFor,
  createAppObjects,
  deleteAppObjects,
  required,
  resetState,
  snapshotState,
  type AppObjects,
  type AppStateItem,
  type Platform,
  type StateSnapshot,
} from './support/gl-state.js';

const runs = envCount('GLCOMPACT_STATE_RUNS', 200);
const seed = envCount('GLCOMPACT_STATE_SEED', 20261201);

type Gl = WebGL2RenderingContext;

// An odd-sized target, so an app's row length, skips or alignment would move or stride the data.
const W = 5;
const H = 3;

/** What the engine's own objects look like inside a call. */
interface EngineObjects {
  target: WebGLTexture;
  framebuffer: WebGLFramebuffer;
  sources: WebGLTexture[];
  program: WebGLProgram;
  vertexArray: WebGLVertexArrayObject;
  buffer: WebGLBuffer;
  feedback: WebGLTransformFeedback;
  feedbackBuffer: WebGLBuffer;
}

interface Fixture {
  gl: Gl;
  platform: Platform;
  /** 'integer' (RED_INTEGER into R32UI) or 'float-bits' (RED/FLOAT into R32F: headless-gl rejects integer uploads). */
  uploadPath: 'integer' | 'float-bits';
  /** headless-gl's readPixels(RGBA_INTEGER) raises INVALID_ENUM with correct data. */
  drainReadError: boolean;
  app: AppObjects;
  engine: EngineObjects;
  /** The snapshot of the context at its defaults. */
  baseline: StateSnapshot;
}

const vertexSource = `#version 300 es
void main() {
  // One counter-clockwise triangle over the viewport: culled by FRONT_AND_BACK, or by CW + BACK.
  vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
  gl_Position = vec4(p, 0.0, 1.0);
}`;

function fragmentSource(uploadPath: Fixture['uploadPath']): string {
  const sampler = uploadPath === 'integer' ? 'usampler2D' : 'sampler2D';
  const fetch = (s: string) => (uploadPath === 'integer' ? `texelFetch(${s}, p, 0).r` : `floatBitsToUint(texelFetch(${s}, p, 0).r)`);
  return `#version 300 es
precision highp float;
precision highp int;
uniform highp ${sampler} u_t0, u_t1, u_t2, u_t3;
out uvec4 o;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  o = uvec4(${fetch('u_t0')} ^ ${fetch('u_t1')} ^ ${fetch('u_t2')} ^ ${fetch('u_t3')}, 0u, 0u, 0u);
}`;
}


/** Made at the context's defaults, before any app state. */
function createEngineObjects(gl: Gl, uploadPath: Fixture['uploadPath']): EngineObjects {
  const texture = (format: number) => {
    const t = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texStorage2D(gl.TEXTURE_2D, 1, format, W, H);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.bindTexture(gl.TEXTURE_2D, null);
    return t;
  };
  const target = texture(gl.R32UI);
  const framebuffer = gl.createFramebuffer()!;
  gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target, 0);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  const sources = [0, 1, 2, 3].map(() => texture(uploadPath === 'integer' ? gl.R32UI : gl.R32F));
  const program = compileProgram(gl, vertexSource, fragmentSource(uploadPath), 'engine-like');
  gl.useProgram(program);
  for (let u = 0; u < 4; u++) gl.uniform1i(gl.getUniformLocation(program, `u_t${u}`), u);
  gl.useProgram(null);
  return {
    target,
    framebuffer,
    sources,
    program,
    vertexArray: gl.createVertexArray()!,
    buffer: gl.createBuffer()!,
    feedback: gl.createTransformFeedback()!,
    feedbackBuffer: gl.createBuffer()!,
  };
}

// testContext() registers its afterAll (destroying the context) first; vitest runs after-hooks in
// reverse, so the cleanup below runs while the context is alive.
const context = testContext();
let fixturePromise: Promise<Fixture> | undefined;

function fixture(): Promise<Fixture> {
  fixturePromise ??= (async () => {
    const { gl, platform, engine } = await context;
    resetState(gl);
    const uploadPath = engine.caps.uploadPath;
    const f: Fixture = {
      gl,
      platform,
      uploadPath,
      drainReadError: engine.caps.readPixelsRaisesError,
      app: createAppObjects(gl),
      engine: createEngineObjects(gl, uploadPath),
      baseline: snapshotState(gl),
    };
    drainErrors(gl);
    return f;
  })();
  return fixturePromise;
}

afterAll(async () => {
  if (!fixturePromise) return;
  const { gl, app, engine } = await fixturePromise;
  resetState(gl);
  deleteAppObjects(gl, app);
  gl.deleteTexture(engine.target);
  engine.sources.forEach((t) => gl.deleteTexture(t));
  gl.deleteFramebuffer(engine.framebuffer);
  gl.deleteProgram(engine.program);
  gl.deleteVertexArray(engine.vertexArray);
  gl.deleteBuffer(engine.buffer);
  gl.deleteBuffer(engine.feedbackBuffer);
  gl.deleteTransformFeedback(engine.feedback);
});

function errorName(gl: Gl, code: number): string {
  const names = ['INVALID_ENUM', 'INVALID_VALUE', 'INVALID_OPERATION', 'INVALID_FRAMEBUFFER_OPERATION', 'OUT_OF_MEMORY', 'CONTEXT_LOST_WEBGL'] as const;
  return names.find((n) => gl[n] === code) ?? `0x${code.toString(16)}`;
}

function drainErrors(gl: Gl): string[] {
  const seen: string[] = [];
  for (let i = 0; i < 16; i++) {
    const code = gl.getError();
    if (code === gl.NO_ERROR) break;
    seen.push(errorName(gl, code));
  }
  return seen;
}


/** Expects two snapshots equal, naming only the keys that differ ({ key: [expected, actual] }). */
function expectSameState(actual: StateSnapshot, expected: StateSnapshot, what = 'state after exit()'): void {
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  const diff = Object.fromEntries(
    [...keys].filter((k) => JSON.stringify(actual[k]) !== JSON.stringify(expected[k])).map((k) => [k, [expected[k], actual[k]]]),
  );
  if (Object.keys(diff).length) throw new Error(`${what}: differing items as [expected, actual]: ${JSON.stringify(diff)}`);
}

function pick(snapshot: StateSnapshot, keys: readonly string[]): StateSnapshot {
  return Object.fromEntries(keys.map((k) => [k, snapshot[k]]));
}

/** The required state is set; after touchTextureUnits(4), no sampler object on units 0–3. */
function expectRequiredState(gl: Gl, samplersCleared: boolean): void {
  const inside = snapshotState(gl);
  expect(pick(inside, Object.keys(required))).toEqual(required);
  if (samplersCleared) {
    const units = [0, 1, 2, 3].map((u) => `unit ${u} SAMPLER_BINDING`);
    expect(pick(inside, units)).toEqual(Object.fromEntries(units.map((k) => [k, null])));
  }
}

/** Four words per texel position, one array per source texture. */
function sourceWords(dataSeed: number): Uint32Array[] {
  let a = dataSeed >>> 0 || 1;
  const next = () => (a = (Math.imul(a, 1664525) + 1013904223) >>> 0);
  return [0, 1, 2, 3].map(() => Uint32Array.from({ length: W * H }, next));
}

function expectedWords(words: Uint32Array[]): Uint32Array {
  return words[0].map((w, i) => (w ^ words[1][i] ^ words[2][i] ^ words[3][i]) >>> 0);
}

/**
 * What an engine call does with the context, inside the guard. Returns the red words read back.
 * Leaves the state the engine depends on as the guard set it (the contract).
 */
function engineWork(f: Fixture, guard: GlStateGuard, words: Uint32Array[]): Uint32Array {
  const { gl, engine } = f;
  // Texture creation binds on whichever unit is active (twgl.createTexture does): the app's.
  const scratch = gl.createTexture()!;
  gl.bindTexture(gl.TEXTURE_2D, scratch);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);

  guard.touchTextureUnits(4);
  for (let u = 0; u < 4; u++) {
    gl.activeTexture(gl.TEXTURE0 + u);
    gl.bindTexture(gl.TEXTURE_2D, engine.sources[u]);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    if (f.uploadPath === 'integer') {
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, W, H, gl.RED_INTEGER, gl.UNSIGNED_INT, words[u]);
    } else {
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, W, H, gl.RED, gl.FLOAT, new Float32Array(words[u].buffer));
    }
  }
  // A transform-feedback pass's state changes (src/compact/concatenate.ts).
  gl.bindBuffer(gl.ARRAY_BUFFER, engine.buffer);
  gl.bufferData(gl.ARRAY_BUFFER, 64, gl.STATIC_DRAW); // (headless-gl: DYNAMIC_COPY is INVALID_ENUM)
  gl.enable(gl.RASTERIZER_DISCARD);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, engine.feedback);
  gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, engine.feedbackBuffer);
  gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
  gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
  gl.disable(gl.RASTERIZER_DISCARD);
  // A fragment pass (src/gpu.ts).
  gl.bindFramebuffer(gl.FRAMEBUFFER, engine.framebuffer);
  gl.viewport(0, 0, W, H);
  gl.useProgram(engine.program);
  gl.bindVertexArray(engine.vertexArray);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  // The read (src/adapter.ts readBits).
  gl.pixelStorei(gl.PACK_ALIGNMENT, 4);
  const rgba = new Uint32Array(W * H * 4);
  gl.readPixels(0, 0, W, H, gl.RGBA_INTEGER, gl.UNSIGNED_INT, rgba);
  if (f.drainReadError) gl.getError();
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.activeTexture(gl.TEXTURE2);
  gl.deleteTexture(scratch);
  return rgba.filter((_, i) => i % 4 === 0);
}

function applyItems(f: Fixture, items: readonly AppStateItem[]): void {
  for (const item of items) item.apply(f.gl, f.app);
  expect(drainErrors(f.gl), `GL errors from applying ${items.map((i) => i.name).join(', ')}`).toEqual([]);
}

/** One whole case: app state, guard around engine work, state back and data exact. */
function checkCase(f: Fixture, items: readonly AppStateItem[], dataSeed: number): void {
  const { gl } = f;
  resetState(gl);
  applyItems(f, items);
  const before = snapshotState(gl);
  const guard = new GlStateGuard(gl);
  const words = sourceWords(dataSeed);
  guard.enter();
  let got: Uint32Array;
  try {
    expectRequiredState(gl, false);
    got = engineWork(f, guard, words);
    expectRequiredState(gl, true);
  } finally {
    guard.exit();
  }
  const after = snapshotState(gl);
  expectSameState(after, before);
  expect(Array.from(got)).toEqual(Array.from(expectedWords(words)));
  expect(drainErrors(gl), 'GL errors').toEqual([]);
  resetState(gl);
}

describe('GlStateGuard', () => {
  it('the test support: resetState gives the defaults back, applying an item changes the snapshot', async () => {
    const f = await fixture();
    const { gl } = f;
    expect(appStates.length).toBeGreaterThanOrEqual(30);
    resetState(gl);
    expect(snapshotState(gl)).toEqual(f.baseline);
    for (const item of appStatesFor(f.platform)) {
      applyItems(f, [item]);
      expect(snapshotState(gl), item.name).not.toEqual(f.baseline);
      resetState(gl);
      expect(snapshotState(gl), `after ${item.name}`).toEqual(f.baseline);
    }
    expect(drainErrors(gl)).toEqual([]);
  });

  it('items an app cannot leave on this platform fail with the recorded error and change nothing', async () => {
    const f = await fixture();
    const { gl } = f;
    const unavailable = appStates.filter((item) => item.unavailable?.[f.platform]);
    for (const item of unavailable) {
      resetState(gl);
      item.apply(gl, f.app);
      expect(drainErrors(gl), item.name).toEqual([item.unavailable![f.platform]!.error]);
      expect(snapshotState(gl), item.name).toEqual(f.baseline);
    }
    console.log(`[gl-state] ${f.platform}: ${appStatesFor(f.platform).length} of ${appStates.length} app state items available` +
      (unavailable.length ? `; unavailable: ${unavailable.map((i) => i.name).join('; ')}` : ''));
  });

  it('with no app state', async () => {
    checkCase(await fixture(), [], 1);
  });

  it.for(appStates.map((item) => [item.name, item] as const))('app state: %s', async ([, item], context) => {
    const f = await fixture();
    const unavailable = item.unavailable?.[f.platform];
    if (unavailable) return context.skip(`unavailable on ${f.platform} (its absence is checked in the test before): ${unavailable.why}`);
    checkCase(f, [item], item.name.length);
  });

  it('all app state items at once', async () => {
    const f = await fixture();
    checkCase(f, appStatesFor(f.platform), 7);
  });

  it(`random subsets of app state, in random order (${runs} runs)`, async () => {
    const f = await fixture();
    const items = appStatesFor(f.platform);
    fc.assert(
      fc.property(fc.shuffledSubarray(items, { minLength: 1 }), fc.integer({ min: 1, max: 0x7fffffff }), (subset, dataSeed) => {
        checkCase(f, subset, dataSeed);
      }),
      { numRuns: runs, seed },
    );
  });

  it('nested enter/exit: only the outermost saves and restores', async () => {
    const f = await fixture();
    const { gl } = f;
    resetState(gl);
    applyItems(f, appStatesFor(f.platform));
    const before = snapshotState(gl);
    const guard = new GlStateGuard(gl);
    const words = sourceWords(3);
    guard.enter();
    guard.enter();
    expect(engineWork(f, guard, words)).toEqual(expectedWords(words));
    guard.run(() => {
      gl.viewport(1, 1, 1, 1);
      expectRequiredState(gl, true);
    });
    guard.exit();
    // The inner exits restored nothing: the engine's viewport and program are still there.
    expect(gl.getParameter(gl.CURRENT_PROGRAM)).toBe(f.engine.program);
    expect(Array.from(gl.getParameter(gl.VIEWPORT) as Int32Array)).toEqual([1, 1, 1, 1]);
    expect(guard.active).toBe(true);
    guard.exit();
    expect(guard.active).toBe(false);
    expectSameState(snapshotState(gl), before);
    expect(() => guard.exit()).toThrow(/without enter/);
    expect(() => guard.touchTextureUnits(1)).toThrow(/outside enter/);
    expect(drainErrors(gl)).toEqual([]);
    resetState(gl);
  });

  it('a body that throws mid-pass: run() restores everything and rethrows the body error', async () => {
    const f = await fixture();
    const { gl } = f;
    for (const items of [[], appStatesFor(f.platform)]) {
      resetState(gl);
      applyItems(f, items);
      const before = snapshotState(gl);
      const guard = new GlStateGuard(gl);
      expect(() =>
        guard.run(() => {
          engineWork(f, guard, sourceWords(5));
          // Dies inside a transform-feedback pass: rasterizer off, its feedback object bound.
          gl.enable(gl.RASTERIZER_DISCARD);
          gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, f.engine.feedback);
          gl.colorMask(false, false, false, false);
          throw new Error('pass failed');
        }),
      ).toThrow('pass failed');
      expectSameState(snapshotState(gl), before);
      expect(guard.active).toBe(false);
      expect(drainErrors(gl)).toEqual([]);
    }
    resetState(gl);
  });

  it('preserve: false sets the state the engine needs and restores nothing', async () => {
    const f = await fixture();
    const { gl } = f;
    resetState(gl);
    applyItems(f, appStatesFor(f.platform));
    const guard = new GlStateGuard(gl, { preserve: false });
    expect(guard.preserving).toBe(false);
    const words = sourceWords(11);
    const got = guard.run(() => {
      expectRequiredState(gl, false);
      return engineWork(f, guard, words);
    });
    expect(got).toEqual(expectedWords(words));
    const after = snapshotState(gl);
    // Not restored: the engine's program, vertex array, viewport; the state it set.
    expect(gl.getParameter(gl.CURRENT_PROGRAM)).toBe(f.engine.program);
    expect(after.VIEWPORT).toEqual([0, 0, W, H]);
    expect(pick(after, Object.keys(required))).toEqual(required);
    expect(after['unit 0 SAMPLER_BINDING']).toBe(null);
    expect(drainErrors(gl)).toEqual([]);
    resetState(gl);
  });

  it('a context lost during the call: exit() and run() do not throw a restore error', async () => {
    const f = await fixture();
    const { gl } = f;
    resetState(gl);
    applyItems(f, appStatesFor(f.platform));
    // What a lost context does: isContextLost() true, every call a no-op answering null.
    let lost = false;
    const losable = new Proxy(gl, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        if (key === 'isContextLost') return () => lost;
        return (...args: unknown[]) => (lost ? null : (value as (...a: unknown[]) => unknown).apply(target, args));
      },
    });
    const guard = new GlStateGuard(losable);
    guard.enter();
    guard.touchTextureUnits(2);
    lost = true;
    expect(() => guard.exit()).not.toThrow();
    expect(() => guard.run(() => { throw new Error('body'); })).toThrow('body');
    guard.run(() => guard.touchTextureUnits(4));
    lost = false;
    drainErrors(gl);
    resetState(gl);
  });

  // Browsers only: headless-gl cannot lose a context (its WEBGL_lose_context never restores one).
  it.runIf(typeof document !== 'undefined')('a real context loss (WEBGL_lose_context) between enter and exit', (context) => {
    const gl = testGl(document.createElement('canvas').getContext('webgl2')!);
    const lose = gl.getExtension('WEBGL_lose_context');
    if (!lose) return context.skip('this browser\'s context offers no WEBGL_lose_context');
    gl.enable(gl.SCISSOR_TEST);
    const guard = new GlStateGuard(gl);
    guard.enter();
    lose.loseContext();
    expect(() => guard.exit()).not.toThrow();
    expect(() => guard.run(() => guard.touchTextureUnits(4))).not.toThrow();
  });

  it('GL calls per enter/touchTextureUnits(4)/exit (printed; no timing assertions)', async () => {
    const f = await fixture();
    const { gl } = f;
    const report: string[] = [];
    for (const [label, items] of [['no app state', []], ['every app state item', appStatesFor(f.platform)]] as const) {
      for (const preserve of [true, false]) {
        resetState(gl);
        applyItems(f, items);
        const before = snapshotState(gl);
        const calls = new Map<string, number>();
        let phase = '';
        const counted = new Proxy(gl, {
          get(target, key) {
            const value = Reflect.get(target, key);
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              calls.set(phase, (calls.get(phase) ?? 0) + 1);
              calls.set(`${phase} ${String(key)}`, (calls.get(`${phase} ${String(key)}`) ?? 0) + 1);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
        const guard = new GlStateGuard(counted, { preserve });
        phase = 'enter';
        guard.enter();
        phase = 'touch';
        guard.touchTextureUnits(4);
        guard.touchTextureUnits(4); // a second pass in the same call costs nothing
        phase = 'exit';
        guard.exit();
        const n = (p: string) => calls.get(p) ?? 0;
        const queries = ['enter', 'touch', 'exit'].map((p) => n(`${p} getParameter`) + n(`${p} isEnabled`)).reduce((a, b) => a + b);
        report.push(`${label}, preserve ${preserve}: enter ${n('enter')} + touch(4) ${n('touch')} + exit ${n('exit')} = ${n('enter') + n('touch') + n('exit')} calls (${queries} queries)`);
        if (preserve) expectSameState(snapshotState(gl), before);
        expect(drainErrors(gl)).toEqual([]);
      }
    }
    resetState(gl);
    console.log(`[gl-state] ${f.platform} GL calls per public call:\n  ${report.join('\n  ')}\n` +
      `  guard sets ${glStateItems.set.length} items, restores ${glStateItems.restored.length} more`);
  });
});
