// A phone-like WebGL2 context for the tests: the limits and gaps of common phones, on the test's real
// context (headless-gl or a browser canvas). `GLCOMPACT_PHONE_PROFILE=1` (npm run test:phone) wraps
// every test context in it (test/support/engine.ts, and the files that make their own contexts).
//
// What it changes, and why (README "Device limits"):
// - getParameter(MAX_TEXTURE_SIZE) and (MAX_RENDERBUFFER_SIZE) answer 4096: many phones' limit
//   (KhronosGroup/WebGL#3700); MAX_DRAW_BUFFERS and MAX_COLOR_ATTACHMENTS answer 4, all WebGL2 promises.
// - getExtension answers null for EXT_color_buffer_float (missing on many iOS devices) and for
//   EXT_disjoint_timer_query_webgl2, and getSupportedExtensions leaves both out.
// - drawBuffers with more than 4 entries and framebufferTexture2D/framebufferTextureLayer on an
//   attachment past COLOR_ATTACHMENT3 throw, and are recorded (a phone's driver rejects them: the
//   engine must take its draw buffers from its probe, which sees the answer of 4).
// - texImage2D/texStorage2D/texImage3D/texStorage3D/renderbufferStorage* asking for a side above 4096
//   throw, and are recorded: iOS reports MAX_TEXTURE_SIZE 16384 but crashes above 4096
//   (three.js#27330, cosmosgl/graph#203), so a violation must fail the test even where the engine
//   would catch the throw (its capability probes catch everything). test/support/engine.ts fails
//   the file if any was recorded.
//
// Everything else is the real context: every method is an own property that calls the real
// context's method of that name at call time (so the engine's interceptors, src/context-state.ts,
// install on the wrapper as they would on the context, and headless-gl's patches still apply), every
// accessor (canvas, drawingBufferWidth, ...) reads the real context, and the wrapper's prototype is
// the context's, so `instanceof WebGL2RenderingContext` holds in a browser.
//
// Why here and not in src/adapter.ts: adapter.ts holds the engine's workarounds for real platforms and
// ships in the package; this is a test double that misreports a context's limits on purpose. The
// engine must never depend on it, and apps have no use for it.
import { envFlag } from './env.js';

/** The phone profile's limits. */
export const PHONE_MAX_TEXTURE_SIZE = 4096;
export const PHONE_MAX_DRAW_BUFFERS = 4;
/** Extensions the profile hides (getExtension answers null, getSupportedExtensions leaves them out). */
export const PHONE_MISSING_EXTENSIONS: readonly string[] = ['EXT_color_buffer_float', 'EXT_disjoint_timer_query_webgl2'];

export interface PhoneProfileOptions {
  /**
   * What getParameter(MAX_TEXTURE_SIZE) answers: the profile's 4096 by default; 'context' answers the
   * real context's limit, as iOS does (it reports 16384), while sides above 4096 still fail.
   */
  reportedMaxTextureSize?: number | 'context';
}

/** A request past the profile's limits: which call, and its sizes (texture sides, or attachments). */
export interface PhoneProfileViolation {
  call: string;
  sizes: number[];
}

const profiles = new WeakMap<object, { real: WebGL2RenderingContext; violations: PhoneProfileViolation[] }>();

/** Whether `gl` is a phone-profile wrapper, and if so its real context and the violations so far. */
export function phoneProfileOf(gl: unknown): { real: WebGL2RenderingContext; violations: readonly PhoneProfileViolation[] } | undefined {
  return typeof gl === 'object' && gl !== null ? profiles.get(gl) : undefined;
}

/** The side sizes a texture or renderbuffer allocation asks for; undefined where the call names none. */
function requestedSides(call: string, args: unknown[]): number[] | undefined {
  const numbers = (...indices: number[]) => indices.map((i) => args[i]).filter((v): v is number => typeof v === 'number');
  switch (call) {
    case 'texStorage2D': // (target, levels, internalformat, width, height)
      return numbers(3, 4);
    case 'texStorage3D': // (target, levels, internalformat, width, height, depth)
      return numbers(3, 4, 5);
    case 'texImage3D': // (target, level, internalformat, width, height, depth, border, format, type, ...)
      return numbers(3, 4, 5);
    case 'renderbufferStorage': // (target, internalformat, width, height)
      return numbers(2, 3);
    case 'renderbufferStorageMultisample': // (target, samples, internalformat, width, height)
      return numbers(3, 4);
    case 'texImage2D': {
      // (target, level, internalformat, width, height, border, format, type, pixels | offset [, srcOffset]),
      // or (target, level, internalformat, format, type, source): the source's own size.
      if (args.length >= 8) return numbers(3, 4);
      const source = args[5] as { width?: unknown; height?: unknown; videoWidth?: unknown; videoHeight?: unknown; displayWidth?: unknown; displayHeight?: unknown } | null | undefined;
      if (!source) return undefined;
      const width = source.videoWidth ?? source.displayWidth ?? source.width;
      const height = source.videoHeight ?? source.displayHeight ?? source.height;
      return [width, height].filter((v): v is number => typeof v === 'number');
    }
    default:
      return undefined;
  }
}

const sizedCalls = ['texImage2D', 'texStorage2D', 'texImage3D', 'texStorage3D', 'renderbufferStorage', 'renderbufferStorageMultisample'];

/**
 * `real` seen through a phone's limits (see the file's header). The wrapper is a new object: use it
 * everywhere in place of `real` (the engine, the test's own GL calls, the context's destruction).
 */
export function phoneProfile(real: WebGL2RenderingContext, options: PhoneProfileOptions = {}): WebGL2RenderingContext {
  const realMax = Number(real.getParameter(real.MAX_TEXTURE_SIZE));
  const reportedMax = options.reportedMaxTextureSize === 'context' ? realMax : Math.min(options.reportedMaxTextureSize ?? PHONE_MAX_TEXTURE_SIZE, realMax);
  const limit = Math.min(PHONE_MAX_TEXTURE_SIZE, realMax);
  const violations: PhoneProfileViolation[] = [];
  const missing = new Set(PHONE_MISSING_EXTENSIONS);
  const r = real as unknown as Record<PropertyKey, unknown>;
  const call = (name: PropertyKey, args: unknown[]) => (r[name] as (...a: unknown[]) => unknown).apply(real, args);
  const answers = new Map<number, number>([
    [real.MAX_TEXTURE_SIZE, reportedMax],
    [real.MAX_RENDERBUFFER_SIZE, Math.min(PHONE_MAX_TEXTURE_SIZE, Number(real.getParameter(real.MAX_RENDERBUFFER_SIZE)))],
    [real.MAX_DRAW_BUFFERS, Math.min(PHONE_MAX_DRAW_BUFFERS, Number(real.getParameter(real.MAX_DRAW_BUFFERS)))],
    [real.MAX_COLOR_ATTACHMENTS, Math.min(PHONE_MAX_DRAW_BUFFERS, Number(real.getParameter(real.MAX_COLOR_ATTACHMENTS)))],
  ]);

  const overrides: Record<string, (...args: unknown[]) => unknown> = {
    getParameter(pname) {
      const answer = answers.get(pname as number);
      return answer !== undefined ? answer : call('getParameter', [pname]);
    },
    getExtension(name) {
      return missing.has(name as string) ? null : call('getExtension', [name]);
    },
    getSupportedExtensions() {
      const names = call('getSupportedExtensions', []) as string[] | null;
      return names && names.filter((name) => !missing.has(name));
    },
  };
  const firstAttachmentPast = real.COLOR_ATTACHMENT0 + PHONE_MAX_DRAW_BUFFERS;
  const attachmentLimit = (call: string, attachment: unknown, args: unknown[]) => {
    if (typeof attachment === 'number' && attachment >= firstAttachmentPast && attachment <= real.COLOR_ATTACHMENT0 + 15) {
      violations.push({ call, sizes: [attachment - real.COLOR_ATTACHMENT0] });
      throw new Error(`phone profile: ${call} on colour attachment ${attachment - real.COLOR_ATTACHMENT0}, past the profile's ${PHONE_MAX_DRAW_BUFFERS}`);
    }
    return call === 'drawBuffers' ? undefined : (r[call] as (...a: unknown[]) => unknown).apply(real, args);
  };
  overrides.drawBuffers = (buffers) => {
    const list = Array.from(buffers as ArrayLike<number>);
    if (list.length > PHONE_MAX_DRAW_BUFFERS) {
      violations.push({ call: 'drawBuffers', sizes: [list.length] });
      throw new Error(`phone profile: drawBuffers of ${list.length} attachments, past the profile's ${PHONE_MAX_DRAW_BUFFERS}`);
    }
    for (const buffer of list) attachmentLimit('drawBuffers', buffer, []);
    return call('drawBuffers', [buffers]);
  };
  overrides.framebufferTexture2D = (...args) => attachmentLimit('framebufferTexture2D', args[1], args);
  overrides.framebufferTextureLayer = (...args) => attachmentLimit('framebufferTextureLayer', args[1], args);
  for (const name of sizedCalls) {
    overrides[name] = (...args) => {
      const sizes = requestedSides(name, args);
      if (sizes?.some((side) => side > limit)) {
        violations.push({ call: name, sizes });
        throw new Error(`phone profile: ${name} asked for ${sizes.join('×')}, above the profile's ${limit} texels a side (phones crash there)`);
      }
      return call(name, args);
    };
  }

  const phone = Object.create(Object.getPrototypeOf(real)) as Record<PropertyKey, unknown>;
  const seen = new Set<PropertyKey>();
  for (let from: object | null = real; from && from !== Object.prototype; from = Object.getPrototypeOf(from)) {
    for (const key of Reflect.ownKeys(from)) {
      if (seen.has(key) || key === 'constructor') continue;
      seen.add(key);
      const descriptor = Object.getOwnPropertyDescriptor(from, key)!;
      if (typeof key === 'string' && overrides[key]) {
        Object.defineProperty(phone, key, { value: overrides[key], writable: true, configurable: true, enumerable: descriptor.enumerable ?? false });
      } else if (descriptor.get || descriptor.set) {
        // canvas, drawingBufferWidth, ...: browsers' getters work on the real context only.
        Object.defineProperty(phone, key, {
          get: () => r[key],
          set: descriptor.set ? (value: unknown) => void (r[key] = value) : undefined,
          configurable: true,
          enumerable: descriptor.enumerable ?? false,
        });
      } else if (typeof descriptor.value === 'function') {
        // Looked up at call time, so that what was installed on the real context later still runs.
        Object.defineProperty(phone, key, { value: (...args: unknown[]) => call(key, args), writable: true, configurable: true, enumerable: descriptor.enumerable ?? false });
      } else if (from === real) {
        // The context's own data (headless-gl keeps its GL constants and markers here): read through.
        Object.defineProperty(phone, key, { get: () => r[key], set: (value: unknown) => void (r[key] = value), configurable: true, enumerable: descriptor.enumerable ?? false });
      }
      // Data on the prototypes (a browser's GL constants) is inherited as it is.
    }
  }
  profiles.set(phone, { real, violations });
  return phone as unknown as WebGL2RenderingContext;
}

/** Whether this run wraps its test contexts in the phone profile (GLCOMPACT_PHONE_PROFILE=1, npm run test:phone). */
export const phoneProfileRun = envFlag('GLCOMPACT_PHONE_PROFILE');

/** `gl` as this run's tests use it: in the phone profile under GLCOMPACT_PHONE_PROFILE=1, else as it is. */
export function testGl<T extends WebGL2RenderingContext>(gl: T): T {
  return (phoneProfileRun ? phoneProfile(gl) : gl) as T;
}

/** Throws if a phone-profile context was asked for a texture above its limit (even where the engine caught the throw). */
export function expectNoPhoneViolations(gl: unknown): void {
  const violations = phoneProfileOf(gl)?.violations ?? [];
  if (violations.length > 0) {
    throw new Error(`phone profile: ${violations.length} call(s) past its limits (${PHONE_MAX_TEXTURE_SIZE} texels a side, ${PHONE_MAX_DRAW_BUFFERS} colour attachments): ${violations.map((v) => `${v.call} ${v.sizes.join('×')}`).join(', ')}`);
  }
}
