// The GL state contract of the PUBLIC API (issue 10, item 2): a property test runs random sequences of
// engine calls on a context an app shares, and before EACH call leaves random app state on it (the
// leftover items of test/support/gl-state.ts: scissor, culling, colour mask, pixel-store values, the
// app's framebuffers, vertex array, program, textures and samplers on units 0–7, ...). After each call
// the full state snapshot must equal the one taken just before the call, and every result a later
// call of the sequence reads or counts must be exact against the CPU reference (results no call reads
// are disposed unread: this file's subject is the state; the other test files check every result). test/gl-state.test.ts tests the guard alone; this file tests that the
// engine's entry points really run inside it and leave nothing behind.
//
// A sequence is 3–8 calls among: createEngine (its probe; caps must equal those made at the defaults;
// sometimes with no texture pool), engine.stream (float32/uint32/int32, 1 or 4 components, 0..4097
// elements), engine.scan (recursive doubling, Blelloch or reduce-then-scan; radix, exclusive,
// blockSize), engine.compact (Jumping Jack, Horn, auto, global Horn, the HistoPyramid, the bitmask;
// every block scan; every concatenation engine.caps allows; values or indices; nonzero / lessEqual /
// greaterThan, or keep.flags / keep.streams / keep.textures with the app's own texture), engine.partition,
// engine.gather, result.count(), result.read() / stream.read(), engine.finish(), engine.gpuTime(run),
// stream / result dispose, engine.dispose(); calls use earlier calls' outputs (scans and compactions
// of compaction outputs whose length is still on the GPU, too). Each call gets a random subset of the
// app state items available on the platform (mostly 25 or more of them, sometimes any number), on top
// of what the previous calls saw or on a reset context; for a quarter of the calls the app changes
// its state again a task after the call began (while an async read waits on its fence, in browsers),
// and the state after the call must then be that latest one. Float scans are checked only where the CPU
// sum is exact in any order (integer values, no -0): test/support has no float reference in the
// GPU's summation order; every other result is compared bit for bit.
//
// Knobs (reach the Chromium project too, see vitest.config.ts):
//   GLCOMPACT_CONTRACT_RUNS   random call sequences (default 200)
//   GLCOMPACT_CONTRACT_SEED   fast-check seed (default fixed)
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type CompactOptions, type CompactResult, type Engine, type ScanOptions, type Stream } from '../src/index.js';
import { testContext } from './support/engine.js';
import { envCount } from './support/env.js';
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
import { random, referenceScan, sortedTuples } from './support/reference.js';
import { applicableCompactOptions, applicableScanOptions } from './support/options.js';

const runs = envCount('GLCOMPACT_CONTRACT_RUNS', 200);
const seed = envCount('GLCOMPACT_CONTRACT_SEED', 20261210);

type Gl = WebGL2RenderingContext;
type ElementType = 'uint32' | 'int32' | 'float32';
type Words = Uint32Array;

// --- the context and the app's objects -------------------------------------------------------------

// testContext() registers its afterAll (destroying the context) first; vitest runs after-hooks in
// reverse, so the cleanup below runs while the context is alive.
const context = testContext();

interface Fixture {
  gl: Gl;
  platform: Platform;
  app: AppObjects;
  /** The app's own R8 texture a keep snippet samples (keep.textures): texels 255, 0, 255, 255. */
  mask: WebGLTexture;
  /** The app state items an app can leave on this platform. */
  items: AppStateItem[];
}

let fixturePromise: Promise<Fixture> | undefined;
/** Engines that outlive one sequence (made by a sequence's first createEngine), disposed at the end. */
const longLived = new Set<Engine>();

function fixture(): Promise<Fixture> {
  fixturePromise ??= (async () => {
    const { gl, platform } = await context;
    resetState(gl);
    const mask = gl.createTexture()!;
    gl.bindTexture(gl.TEXTURE_2D, mask);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8, 4, 1, 0, gl.RED, gl.UNSIGNED_BYTE, new Uint8Array(MASK));
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    resetState(gl);
    const f: Fixture = { gl, platform, app: createAppObjects(gl), items: appStatesFor(platform), mask };
    drainErrors(gl);
    return f;
  })();
  return fixturePromise;
}

afterAll(async () => {
  if (!fixturePromise) return;
  const { gl, app } = await fixturePromise;
  for (const engine of longLived) engine.dispose();
  resetState(gl);
  deleteAppObjects(gl, app);
  gl.deleteTexture((await fixturePromise).mask);
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

/** Throws naming only the keys that differ ({ key: [expected, actual] }). */
function expectSameState(actual: StateSnapshot, expected: StateSnapshot, what: string): void {
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  const diff = Object.fromEntries(
    [...keys].filter((k) => JSON.stringify(actual[k]) !== JSON.stringify(expected[k])).map((k) => [k, [expected[k], actual[k]]]),
  );
  if (Object.keys(diff).length) throw new Error(`${what}: the call changed the app's state; differing items as [before, after]: ${JSON.stringify(diff)}`);
}

function applyItems(f: Fixture, items: readonly AppStateItem[]): void {
  for (const item of items) item.apply(f.gl, f.app);
  const errors = drainErrors(f.gl);
  if (errors.length) throw new Error(`GL errors from applying ${items.map((i) => i.name).join(', ')}: ${errors.join(', ')}`);
}

// --- data and the CPU reference ---------------------------------------------------------------------

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const bitsOf = (value: number) => ((f32[0] = value), u32[0]);
const valueOf = (word: number, type: ElementType) => (type === 'uint32' ? word : type === 'int32' ? word | 0 : ((u32[0] = word), f32[0]));

/** Float specials whose bits must survive: NaN payloads, -0, ±Infinity, the largest finite. (No denormals: a GPU may flush them in the keep test.) */
const floatSpecials = [0x7fc00001, 0xffc12345, 0x80000000, 0x7f800000, 0xff800000, 0x7f7fffff, 0xff7fffff];

type Flavor = 'small' | 'wide';

/**
 * Element words for `length` elements. 'small': integers in [-8, 8] ([0, 16] for uint32), many zeros
 * (float streams of them are exactly scannable in any summation order). 'wide': any 32-bit pattern
 * (floats: random bits with float specials mixed in, denormals replaced).
 */
function makeWords(type: ElementType, components: number, length: number, flavor: Flavor, dataSeed: number): Words {
  const next = random(dataSeed);
  const words = new Uint32Array(length * components);
  for (let i = 0; i < words.length; i++) {
    if (flavor === 'small') {
      const v = next() < 0.4 ? 0 : Math.floor(next() * 17) - (type === 'uint32' ? 0 : 8);
      words[i] = type === 'float32' ? bitsOf(v) : v >>> 0;
    } else {
      let w = Math.floor(next() * 2 ** 32) >>> 0;
      if (type === 'float32') {
        const denormal = (w & 0x7f800000) === 0 && (w & 0x007fffff) !== 0;
        if (denormal || next() < 0.15) w = floatSpecials[Math.floor(next() * floatSpecials.length)];
      } else if (next() < 0.3) {
        w = 0;
      }
      words[i] = w;
    }
  }
  return words;
}

type Keep = 'nonzero' | { lessEqual: number } | { greaterThan: number };

/** The app texture's texels (keep.textures): element i is kept where MASK[i % 4] is set. */
const MASK = [255, 0, 255, 255];

/**
 * What a compaction or partition keeps by: the call's predicate, or one of the keep inputs an app passes
 * (issue 21): another stream's flags (keep.flags), a snippet reading another stream (keep.streams), or a
 * snippet sampling the app's own texture (keep.textures, bound for the call, the app's units restored).
 */
type KeepInput = 'predicate' | 'flags' | 'stream' | 'texture';

/** The keep option for `input` and the positions it keeps, in order. */
function keepFor(f: Fixture, model: Model, known: StreamModel[], input: StreamModel, c: { keep: Keep; keepInput: KeepInput; pick: number; dataSeed: number }): { keep: CompactOptions['keep']; kept: number[]; what: string } {
  const n = input.length;
  const all = Array.from({ length: n }, (_, i) => i);
  let sameLength = known.filter((s) => s.owner === input.owner && s.length === n && s.words !== undefined && s.stream !== input.stream);
  if ((c.keepInput === 'flags' || c.keepInput === 'stream') && !sameLength.some((s) => s.type === 'uint32' && s.components === 1)) {
    // None of the right length yet: the call uploads one (0/1 flags) before compacting by it.
    const words = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + c.dataSeed, 2654435761) >>> 31) & 1);
    const stream = input.owner.engine.stream(words);
    sameLength = [addStream(model, { owner: input.owner, stream, type: 'uint32', components: 1, length: n, words }, `0/1 flags, ${n}`)];
  }
  const used = (kind: string) => count(`keep by ${kind}`);
  if (c.keepInput === 'flags') {
    const flags = sameLength.filter((s) => s.type === 'uint32' && s.components === 1);
    if (flags.length > 0) {
      const other = flags[c.pick % flags.length]!;
      used('keep.flags');
      return { keep: { flags: other.stream as Stream<Uint32Array> }, kept: all.filter((i) => other.words![i] !== 0), what: `flags of ${other.label}` };
    }
  } else if (c.keepInput === 'stream' && sameLength.length > 0) {
    const other = sameLength[c.pick % sameLength.length]!;
    const keep = { glsl: 'return glcompactElement(other, index).x != 0u;', streams: { other: other.stream } };
    used('keep.streams');
    return { keep, kept: all.filter((i) => other.words![i * other.components] !== 0), what: `a snippet reading ${other.label}` };
  } else if (c.keepInput === 'texture') {
    const keep = { glsl: 'return texelFetch(mask, ivec2(int(index % 4u), 0), 0).r > 0.5;', textures: { mask: { texture: f.mask, type: 'float' as const } } };
    used('keep.textures');
    return { keep, kept: all.filter((i) => MASK[i % 4] !== 0), what: "a snippet sampling the app's texture" };
  }
  used('the predicate');
  return { keep: c.keep, kept: keptPositions(input.words!, input.type, input.components, c.keep), what: JSON.stringify(c.keep) };
}

/** Input positions the predicate keeps, in order (float compares in float32; integer thresholds exactly). */
function keptPositions(words: Words, type: ElementType, components: number, keep: Keep): number[] {
  const n = words.length / components;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    let kept: boolean;
    if (keep === 'nonzero') {
      kept = false;
      for (let c = 0; c < components; c++) if (valueOf(words[i * components + c], type) !== 0) kept = true; // NaN !== 0, -0 === 0
    } else {
      const x = valueOf(words[i * components], type);
      const t = type === 'float32' ? Math.fround('lessEqual' in keep ? keep.lessEqual : keep.greaterThan) : 'lessEqual' in keep ? keep.lessEqual : keep.greaterThan;
      kept = 'lessEqual' in keep ? x <= t : x > t;
    }
    if (kept) out.push(i);
  }
  return out;
}

/** A stream gather() takes as indices: uint32 scalars (values past a source's length read as zeros). */
const isIndexStream = (s: StreamModel) => s.type === 'uint32' && s.components === 1 && s.words !== undefined;

function gather(words: Words, components: number, positions: number[]): Words {
  const out = new Uint32Array(positions.length * components);
  positions.forEach((p, k) => out.set(words.subarray(p * components, (p + 1) * components), k * components));
  return out;
}

/**
 * Whether a scan's CPU reference is exact whatever order the GPU sums in: integer streams always
 * (sums wrap mod 2^32); float streams only when every value is an integer (not -0) small enough that
 * every partial sum is exact in float32. test/support has no float reference in the GPU's order.
 */
function scannable(words: Words, type: ElementType): boolean {
  if (type !== 'float32') return true;
  for (const w of words) {
    const v = valueOf(w, type);
    if (w === 0x80000000 || !Number.isInteger(v) || Math.abs(v) > 1024) return false;
  }
  return words.length * 1024 < 2 ** 24;
}

function typed(words: Words, type: ElementType): Float32Array | Uint32Array | Int32Array {
  return type === 'uint32' ? words.slice() : type === 'int32' ? new Int32Array(words.slice().buffer) : new Float32Array(words.slice().buffer);
}

function wordsOf(data: Float32Array | Uint32Array | Int32Array): Words {
  return new Uint32Array(data.buffer, data.byteOffset, data.length);
}

function expectWords(got: Words, expected: Words, what: string): void {
  if (got.length !== expected.length) throw new Error(`${what}: ${got.length} words, expected ${expected.length}`);
  for (let i = 0; i < got.length; i++) {
    if (got[i] !== expected[i]) throw new Error(`${what}: first difference at word ${i}: got 0x${got[i].toString(16)}, expected 0x${expected[i].toString(16)}`);
  }
}

// --- the model of a sequence -------------------------------------------------------------------------

interface EngineModel {
  engine: Engine;
  label: string;
}

interface StreamModel {
  owner: EngineModel;
  stream: Stream;
  /** Set for a compaction's output: count() and read() go through it. */
  result?: CompactResult;
  type: ElementType;
  components: number;
  /** Elements expected. */
  length: number;
  /** A partition's count() (the kept part); a compaction's is its length. */
  keptCount?: number;
  /** Expected words in order; undefined while the order is unspecified (Jumping Jack, hybrid) and unread. */
  words: Words | undefined;
  /** Expected words as a multiset (sortedTuples), for unordered outputs. */
  multiset?: Words;
  label: string;
}

interface Model {
  engines: EngineModel[];
  streams: StreamModel[];
}

// --- the calls ----------------------------------------------------------------------------------------

const callKinds = ['createEngine', 'stream', 'scan', 'compact', 'partition', 'gather', 'count', 'read', 'finish', 'gpuTime', 'disposeStream', 'disposeEngine'] as const;
type CallKind = (typeof callKinds)[number];

const scanAlgorithms = ['recursive-doubling', 'blelloch', 'reduce-then-scan'] as const;
const blockSizes = [16, 32, 64, 128, 256, 512, 1024, 2048] as const;
const radices = [2, 4, 8, 16] as const;

/** One call, with every parameter any kind could need (each kind reads its own). */
const callArbitrary = (items: AppStateItem[]) =>
  fc.record({
    kind: fc.oneof(
      // Engines are rarer: each compiles its own shaders (SwiftShader's are slow to compile).
      { weight: 1, arbitrary: fc.constant<CallKind>('createEngine') },
      { weight: 10, arbitrary: fc.constant<CallKind>('stream') },
      { weight: 6, arbitrary: fc.constant<CallKind>('scan') },
      { weight: 10, arbitrary: fc.constant<CallKind>('compact') },
      { weight: 3, arbitrary: fc.constant<CallKind>('partition') },
      { weight: 3, arbitrary: fc.constant<CallKind>('gather') },
      { weight: 4, arbitrary: fc.constant<CallKind>('count') },
      { weight: 6, arbitrary: fc.constant<CallKind>('read') },
      { weight: 2, arbitrary: fc.constant<CallKind>('finish') },
      { weight: 2, arbitrary: fc.constant<CallKind>('gpuTime') },
      { weight: 4, arbitrary: fc.constant<CallKind>('disposeStream') },
      { weight: 1, arbitrary: fc.constant<CallKind>('disposeEngine') },
    ),
    /** Which engine / stream the call uses (modulo the candidates). */
    pick: fc.nat(),
    // The app's leftover state before the call: on top of what earlier calls saw, or on a reset
    // context; mostly 25 items or more, sometimes any number (0 included).
    resetFirst: fc.boolean(),
    // (By name, so that a counterexample reads as a list of names.)
    appState: fc.oneof(
      { weight: 3, arbitrary: fc.shuffledSubarray(items.map((i) => i.name), { minLength: Math.min(25, items.length) }) },
      { weight: 1, arbitrary: fc.shuffledSubarray(items.map((i) => i.name)) },
    ),
    // Sometimes the app changes its state again while the call is in flight (the synchronous parts
    // of an async read, finish, gpuTime run at different times; the app draws in between): the state
    // after the call must then be the app's latest.
    midState: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.shuffledSubarray(items.map((i) => i.name), { minLength: 1 }) },
    ),
    // stream
    type: fc.constantFrom<ElementType>('uint32', 'int32', 'float32'),
    components: fc.constantFrom(1, 4),
    length: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 40 }) },
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 600 }) },
      { weight: 1, arbitrary: fc.constantFrom(0, 1, 2047, 2048, 2049, 4097) },
    ),
    flavor: fc.constantFrom<Flavor>('small', 'wide'),
    dataSeed: fc.integer({ min: 1, max: 0x7fffffff }),
    // scan
    scanAlgorithm: fc.constantFrom(...scanAlgorithms),
    exclusive: fc.boolean(),
    scanBlockSize: fc.option(fc.constantFrom(...blockSizes), { nil: undefined }),
    radix: fc.constantFrom(...radices),
    // compact
    algorithm: fc.constantFrom('jumping-jack', 'horn', 'auto', 'horn-global', 'histopyramid', 'bitmask'),
    concat: fc.constantFrom('vertex-fetch', 'transform-feedback', 'auto'),
    output: fc.constantFrom<'values' | 'indices'>('values', 'indices'),
    keepInput: fc.constantFrom<KeepInput>('predicate', 'predicate', 'flags', 'stream', 'texture'),
    keep: fc.oneof(
      fc.constant<Keep>('nonzero'),
      fc.constantFrom(-1e30, -5.5, -0.5, 0, 0.5, 3, 7.5, 1e30, 5e9).map((t): Keep => ({ lessEqual: t })),
      fc.constantFrom(-1e30, -5.5, -0.5, 0, 0.5, 3, 7.5, 1e30, -5e9).map((t): Keep => ({ greaterThan: t })),
    ),
    blockSize: fc.constantFrom(...blockSizes),
    innerScan: fc.constantFrom(...scanAlgorithms),
    /** createEngine: idle texture pool (0: every freed target is deleted at once). */
    poolBytes: fc.constantFrom(undefined, 0),
    /** gpuTime: what `run` submits. */
    timed: fc.constantFrom('scan', 'nothing'),
  });

type Call = ReturnType<typeof callArbitrary> extends fc.Arbitrary<infer T> ? T : never;

let engineCount = 0;
let streamCount = 0;
/** Calls made per kind (printed: shows what the random sequences exercised). */
const tally = new Map<string, number>();
/** Milliseconds per kind of call (printed, to see where the time goes). */
const spent = new Map<string, number>();

function count(key: string): void {
  tally.set(key, (tally.get(key) ?? 0) + 1);
}

function addStream(model: Model, s: Omit<StreamModel, 'label'>, what: string): StreamModel {
  const entry = { ...s, label: `stream ${++streamCount} (${what})` };
  model.streams.push(entry);
  return entry;
}

function newStream(model: Model, owner: EngineModel, c: Call): StreamModel {
  const words = makeWords(c.type, c.components, c.length, c.flavor, c.dataSeed);
  const stream = owner.engine.stream(typed(words, c.type), { components: c.components as 1 | 4 });
  return addStream(model, { owner, stream, type: c.type, components: c.components, length: c.length, words }, `${c.type}×${c.components}, ${c.length} ${c.flavor}`);
}

function scanStream(model: Model, input: StreamModel, c: Call): StreamModel {
  const options: ScanOptions = applicableScanOptions({ algorithm: c.scanAlgorithm, exclusive: c.exclusive, blockSize: c.scanBlockSize, radix: c.radix });
  const stream = input.owner.engine.scan(input.stream, options);
  const expected = referenceScan(typed(input.words!, input.type), { exclusive: c.exclusive, blockSize: c.scanBlockSize, components: input.components });
  return addStream(model, { owner: input.owner, stream, type: input.type, components: input.components, length: input.length, words: wordsOf(expected).slice() }, `scan of ${input.label}: ${JSON.stringify(options)}`);
}

/** Describes what a call did, for the failure message. */
type Log = string[];

/** Runs one call: the engine call itself (state checked by the caller) and its result checks. */
async function runCall(f: Fixture, model: Model, c: Call, log: Log): Promise<void> {
  const live = model.streams;
  const known = live.filter((s) => s.words !== undefined);
  const pickFrom = <T>(list: T[]) => list[c.pick % list.length];
  let kind: CallKind = c.kind;
  // A call with nothing to act on becomes a stream upload (or an engine, when there is none).
  if (model.engines.length === 0) kind = 'createEngine';
  else if ((kind === 'scan' && !known.some((s) => scannable(s.words!, s.type))) || ((kind === 'compact' || kind === 'partition') && known.length === 0)) kind = 'stream';
  else if (kind === 'gather' && !(known.length > 0 && known.some(isIndexStream))) kind = 'stream';
  else if (['count', 'read', 'disposeStream'].includes(kind) && live.length === 0) kind = 'stream';
  else if (kind === 'count' && !live.some((s) => s.result)) kind = 'read';
  count(kind);
  const t0 = performance.now();
  try {
    await runKind(f, model, c, log, kind, known, live, pickFrom);
  } finally {
    spent.set(kind, (spent.get(kind) ?? 0) + performance.now() - t0);
  }
}

async function runKind(f: Fixture, model: Model, c: Call, log: Log, kind: CallKind, known: StreamModel[], live: StreamModel[], pickFrom: <T>(list: T[]) => T): Promise<void> {
  switch (kind) {
    case 'createEngine': {
      const engine = createEngine(f.gl, c.poolBytes === undefined ? undefined : { texturePoolBytes: c.poolBytes });
      const owner = { engine, label: `engine ${++engineCount}${c.poolBytes === 0 ? ' (no pool)' : ''}` };
      model.engines.push(owner);
      log.push(`createEngine → ${owner.label}`);
      // The probe's answers must not depend on the app's state either.
      const reference = (await context).engine.caps;
      if (JSON.stringify(engine.caps) !== JSON.stringify(reference)) throw new Error(`${owner.label}: caps ${JSON.stringify(engine.caps)}, expected (as made at the defaults) ${JSON.stringify(reference)}`);
      return;
    }
    case 'stream': {
      const s = newStream(model, pickFrom(model.engines), c);
      log.push(`stream → ${s.label}`);
      return;
    }
    case 'scan': {
      const input = pickFrom(known.filter((s) => scannable(s.words!, s.type)));
      const s = scanStream(model, input, c);
      log.push(`scan → ${s.label}`);
      return;
    }
    case 'compact': {
      const input = pickFrom(known);
      const global = c.algorithm === 'horn-global';
      const algorithm = global ? 'horn' : (c.algorithm as 'jumping-jack' | 'horn' | 'auto' | 'histopyramid' | 'bitmask');
      const blocks = !global && algorithm !== 'histopyramid' && algorithm !== 'bitmask';
      const concat = !input.owner.engine.caps.transformFeedback && c.concat === 'transform-feedback' ? 'vertex-fetch' : c.concat;
      const by = keepFor(f, model, known, input, c);
      const options: CompactOptions = applicableCompactOptions({
        keep: by.keep,
        algorithm,
        global,
        concat: blocks ? (concat as CompactOptions['concat']) : undefined,
        output: c.output,
        blockSize: c.blockSize,
        scan: c.innerScan,
        radix: c.radix,
      });
      const result = input.owner.engine.compact(input.stream, options);
      const positions = by.kept;
      const ordered = algorithm === 'horn' || algorithm === 'histopyramid' || algorithm === 'bitmask';
      const indices = c.output === 'indices';
      const expected = indices ? Uint32Array.from(positions) : gather(input.words!, input.components, positions);
      const type = indices ? 'uint32' : input.type;
      const components = indices ? 1 : input.components;
      const s = addStream(model, {
        owner: input.owner,
        stream: result.stream,
        result,
        type,
        components,
        length: positions.length,
        words: ordered ? expected : undefined,
        multiset: ordered ? undefined : sortedTuples(expected, components),
      }, `compact of ${input.label} by ${by.what}: ${JSON.stringify({ ...options, keep: undefined })}`);
      log.push(`compact → ${s.label}`);
      return;
    }
    case 'partition': {
      const input = pickFrom(known);
      const by = keepFor(f, model, known, input, c);
      const options = { keep: by.keep, output: c.output };
      const result = input.owner.engine.partition(input.stream, options);
      const kept = by.kept;
      const keptSet = new Set(kept);
      const positions = [...kept, ...Array.from({ length: input.length }, (_, i) => i).filter((i) => !keptSet.has(i))];
      const indices = c.output === 'indices';
      const s = addStream(model, {
        owner: input.owner,
        stream: result.stream,
        result,
        type: indices ? 'uint32' : input.type,
        components: indices ? 1 : input.components,
        length: input.length,
        keptCount: kept.length,
        words: indices ? Uint32Array.from(positions) : gather(input.words!, input.components, positions),
      }, `partition of ${input.label} by ${by.what}: output ${c.output}`);
      log.push(`partition → ${s.label}`);
      return;
    }
    case 'gather': {
      const source = pickFrom(known);
      const indices = known.filter(isIndexStream)[c.pick % known.filter(isIndexStream).length]!;
      const stream = source.owner === indices.owner ? source.owner.engine.gather(source.stream, indices.stream as Stream<Uint32Array>) : undefined;
      if (!stream) {
        log.push(`gather skipped: ${source.label} and ${indices.label} belong to different engines`);
        return;
      }
      const words = new Uint32Array(indices.length * source.components);
      indices.words!.forEach((i, j) => {
        if (i < source.length) words.set(source.words!.subarray(i * source.components, (i + 1) * source.components), j * source.components);
      });
      const s = addStream(model, { owner: source.owner, stream, type: source.type, components: source.components, length: indices.length, words }, `gather of ${source.label} by ${indices.label}`);
      log.push(`gather → ${s.label}`);
      return;
    }
    case 'count': {
      const s = pickFrom(live.filter((x) => x.result));
      const n = await s.result!.count();
      log.push(`count of ${s.label} → ${n}`);
      const expected = s.keptCount ?? s.length;
      if (n !== expected) throw new Error(`${s.label}: count() ${n}, expected ${expected}`);
      return;
    }
    case 'read': {
      const s = pickFrom(live);
      const data = s.result && c.pick % 2 === 0 ? await s.result.read() : await s.stream.read();
      log.push(`read of ${s.label}`);
      const got = wordsOf(data).slice();
      const expectedType = s.type === 'uint32' ? Uint32Array : s.type === 'int32' ? Int32Array : Float32Array;
      if (!(data instanceof expectedType)) throw new Error(`${s.label}: read() gave a ${data.constructor.name}`);
      if (s.words) {
        expectWords(got, s.words, s.label);
      } else {
        expectWords(sortedTuples(got, s.components), s.multiset!, `${s.label} (as a multiset)`);
        s.words = got; // the order is now known: the stream can be an input
      }
      return;
    }
    case 'finish': {
      const owner = pickFrom(model.engines);
      await owner.engine.finish();
      log.push(`finish ${owner.label}`);
      return;
    }
    case 'gpuTime': {
      const owner = pickFrom(model.engines);
      const inputs = known.filter((s) => s.owner === owner && scannable(s.words!, s.type));
      let made: StreamModel | undefined;
      const ms = await owner.engine.gpuTime(() => {
        if (c.timed === 'scan' && inputs.length) made = scanStream(model, pickFrom(inputs), c);
      });
      log.push(`gpuTime on ${owner.label} → ${ms}${made ? `, ran scan → ${made.label}` : ''}`);
      if (ms !== undefined && !(ms >= 0)) throw new Error(`gpuTime gave ${ms}`);
      return;
    }
    case 'disposeStream': {
      const s = pickFrom(live);
      if (s.result && c.pick % 2 === 0) s.result.dispose();
      else s.stream.dispose();
      model.streams = live.filter((x) => x !== s);
      log.push(`dispose ${s.label}`);
      return;
    }
    case 'disposeEngine': {
      const owner = pickFrom(model.engines);
      owner.engine.dispose();
      model.engines = model.engines.filter((e) => e !== owner);
      longLived.delete(owner.engine);
      for (const s of model.streams) if (s.owner === owner && !s.stream.isDisposed) throw new Error(`${s.label} not disposed by ${owner.label}.dispose()`);
      model.streams = model.streams.filter((s) => s.owner !== owner);
      log.push(`dispose ${owner.label}`);
      return;
    }
  }
}

/** The app state, then one call; the state after the call must be the state before it. */
async function checkedCall(f: Fixture, model: Model, c: Call, log: Log): Promise<void> {
  const { gl } = f;
  if (c.resetFirst) resetState(gl);
  applyItems(f, c.appState.map((name) => f.items.find((item) => item.name === name)!));
  const t0 = performance.now();
  let before = snapshotState(gl);
  spent.set('snapshot+apply', (spent.get('snapshot+apply') ?? 0) + performance.now() - t0);
  try {
    const call = runCall(f, model, c, log);
    if (c.midState) {
      // A task later: an async read is then waiting on its fence (browsers) or done (headless-gl).
      // A failed call's error waits for the await below.
      let settled = false;
      call.then(() => (settled = true), () => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 0));
      applyItems(f, c.midState.map((name) => f.items.find((item) => item.name === name)!));
      before = snapshotState(gl);
      count(settled ? 'app state changed after a call settled' : 'app state changed while a call was in flight');
    }
    await call;
  } finally {
    // Errors the engine leaves queued are not the app's to see, but are not this test's subject
    // (issue 10 item 6: headless-gl's INVALID_ENUM after a new pool texture): drained, counted.
    for (const e of drainErrors(gl)) count(`GL error left queued: ${e}`);
  }
  expectSameState(snapshotState(gl), before, log[log.length - 1] ?? c.kind);
}

/**
 * The engine every sequence starts with: made once (by the first sequence, under its app state) and
 * kept, so that the shaders it compiles serve later sequences; a sequence's createEngine calls make
 * short-lived ones, and a sequence that disposes it makes the next one create a new one.
 */
let mainEngine: EngineModel | undefined;

async function runSequence(f: Fixture, calls: Call[]): Promise<void> {
  const log: Log = [];
  const model: Model = { engines: [], streams: [] };
  if (mainEngine && !mainEngine.engine.isDisposed) model.engines.push(mainEngine);
  try {
    resetState(f.gl);
    for (const c of calls) {
      await checkedCall(f, model, c, log);
      if (!mainEngine || mainEngine.engine.isDisposed) {
        mainEngine = model.engines[0];
        if (mainEngine) longLived.add(mainEngine.engine);
      }
    }
    // The end of the sequence: its streams and its other engines go, under the last call's app
    // state (public calls too; checked together, as one step, to save snapshots).
    const before = snapshotState(f.gl);
    const others = model.engines.filter((e) => e !== mainEngine);
    for (const s of model.streams) (s.result && s.stream.layout.length % 2 ? s.result : s.stream).dispose();
    for (const e of others) e.engine.dispose();
    log.push(`end: dispose ${model.streams.length} streams, ${others.length} engines`);
    count('end-of-sequence disposals');
    model.streams = [];
    model.engines = model.engines.filter((e) => e === mainEngine);
    expectSameState(snapshotState(f.gl), before, log[log.length - 1]);
  } catch (error) {
    // Leave nothing of this sequence behind for the next one (fast-check goes on to shrink).
    for (const s of model.streams) s.stream.dispose();
    for (const e of model.engines) if (e !== mainEngine) e.engine.dispose();
    resetState(f.gl);
    drainErrors(f.gl);
    throw new Error(`${(error as Error).message}\n  calls so far:\n    ${log.join('\n    ')}`);
  }
  resetState(f.gl);
}


/**
 * A fixed workload for the focused tests: an upload, scans (Blelloch segmented, reduce-then-scan),
 * compactions (Jumping Jack with transform-feedback or vertex-fetch concatenation, Horn, global Horn,
 * the bitmask, Horn with reduce-then-scan in its blocks), counts and reads, each exact.
 */
async function workload(engine: Engine, tag: number): Promise<void> {
  const n = 777;
  const ints = makeWords('int32', 1, n, 'small', 1000 + tag);
  const floats = makeWords('float32', 4, n, 'wide', 2000 + tag);
  const a = engine.stream(new Int32Array(ints.buffer));
  const b = engine.stream(new Float32Array(floats.buffer), { components: 4 });
  const disposables: Array<{ dispose(): void }> = [a, b];
  try {
    const scanned = engine.scan(a, { exclusive: true, blockSize: 64 });
    disposables.push(scanned);
    expectWords(wordsOf(await scanned.read()), wordsOf(referenceScan(new Int32Array(ints.buffer), { exclusive: true, blockSize: 64 })), 'segmented scan');
    const tree = engine.scan(a, { algorithm: 'reduce-then-scan' });
    disposables.push(tree);
    expectWords(wordsOf(await tree.read()), wordsOf(referenceScan(new Int32Array(ints.buffer))), 'reduce-then-scan');
    const concat = engine.caps.transformFeedback ? 'transform-feedback' : 'vertex-fetch';
    const int32 = [a, ints, 'int32', 1] as const;
    const float4 = [b, floats, 'float32', 4] as const;
    for (const [options, ordered, [input, words, type, components]] of [
      [{ keep: 'nonzero', algorithm: 'jumping-jack', concat, blockSize: 32 }, false, float4],
      [{ keep: { greaterThan: 0.5 }, algorithm: 'horn', concat: 'vertex-fetch', output: 'indices' }, true, int32],
      [{ keep: { lessEqual: 3 }, algorithm: 'horn', global: true }, true, float4],
      [{ keep: { greaterThan: -2 }, algorithm: 'bitmask', output: 'indices' }, true, int32],
      [{ keep: 'nonzero', algorithm: 'horn', scan: 'reduce-then-scan', blockSize: 128 }, true, float4],
    ] as const) {
      {
        const result = engine.compact(input as Stream, options as CompactOptions);
        disposables.push(result);
        const positions = keptPositions(words, type, components, options.keep as Keep);
        const indices = 'output' in options;
        const expected = indices ? Uint32Array.from(positions) : gather(words, components, positions);
        const what = `${type} ${JSON.stringify(options)}`;
        expect(await result.count(), what).toBe(positions.length);
        const got = wordsOf(await result.read());
        const c = indices ? 1 : components;
        expectWords(ordered ? got : sortedTuples(got, c), ordered ? expected : sortedTuples(expected, c), what);
      }
    }
    await engine.finish();
  } finally {
    for (const d of disposables) d.dispose();
  }
}

function pick(snapshot: StateSnapshot, keys: readonly string[]): StateSnapshot {
  return Object.fromEntries(keys.map((k) => [k, snapshot[k]]));
}

describe('the GL state contract of the public API', () => {
  it('the pool of app state items', async () => {
    const f = await fixture();
    expect(f.items.length).toBeGreaterThanOrEqual(25);
    console.log(`[state-contract] ${f.platform}: ${f.items.length} of ${appStates.length} app state items available:\n  ${f.items.map((i) => i.name).join('\n  ')}`);
  });

  it(`random call sequences under random app state (${runs} sequences, seed ${seed})`, { timeout: Math.max(120_000, runs * 1_500) }, async () => {
    const f = await fixture();
    tally.clear();
    spent.clear();
    let sequences = 0;
    let calls = 0;
    const start = performance.now();
    await fc.assert(
      fc.asyncProperty(fc.array(callArbitrary(f.items), { minLength: 3, maxLength: 8 }), async (sequence) => {
        sequences++;
        calls += sequence.length;
        await runSequence(f, sequence);
      }),
      { numRuns: runs, seed },
    );
    const seconds = (performance.now() - start) / 1000;
    const kinds = [...tally].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${n}`).join(', ');
    const times = [...spent].map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ');
    console.log(`[state-contract] ${f.platform}: ${runs} sequences passed (${sequences} run, ${calls} calls) in ${seconds.toFixed(1)} s, seed ${seed}; ` +
      `GLCOMPACT_CONTRACT_RUNS / GLCOMPACT_CONTRACT_SEED to change\n  calls made: ${kinds}\n  time: ${times}`);
    expect(sequences).toBeGreaterThanOrEqual(runs);
  });

  it('preserveState: false: the state the engine needs is set (not restored) and results are exact, under every app state item', { timeout: 600_000 }, async () => {
    const f = await fixture();
    const { gl } = f;
    const reference = (await context).engine.caps;
    // One engine for the workload (its shaders compiled once), made under every item at once.
    resetState(gl);
    applyItems(f, f.items);
    const engine = createEngine(gl, { preserveState: false });
    try {
      for (const item of f.items) {
        // Engine creation (its probe) under the item alone: the same capabilities as at the defaults.
        resetState(gl);
        applyItems(f, [item]);
        const fresh = createEngine(gl, { preserveState: false });
        fresh.dispose();
        expect({ uploadPath: fresh.caps.uploadPath, transformFeedback: fresh.caps.transformFeedback, readPixelsRaisesError: fresh.caps.readPixelsRaisesError }, item.name)
          .toEqual({ uploadPath: reference.uploadPath, transformFeedback: reference.transformFeedback, readPixelsRaisesError: reference.readPixelsRaisesError });
        // The calls, with the item applied again (creation set what it needed and restored nothing).
        resetState(gl);
        applyItems(f, [item]);
        const before = snapshotState(gl);
        await workload(engine, item.name.length).catch((error: Error) => {
          throw new Error(`under '${item.name}': ${error.message}`);
        });
        const after = snapshotState(gl);
        // Set: everything the engine depends on holds its required value after the calls.
        expect(pick(after, Object.keys(required)), item.name).toEqual(required);
        // Not restored: the engine's last program is still in use (the app's, or none, before).
        expect(after.CURRENT_PROGRAM, item.name).not.toBe(before.CURRENT_PROGRAM);
        expect(after.CURRENT_PROGRAM, item.name).not.toBe(null);
      }
    } finally {
      engine.dispose();
    }
    drainErrors(gl);
    resetState(gl);
  });

  // The random sequences above do not call the sort family; its passes (the select writing several
  // layers, the copy out of the carried pairs into two targets, the gathers of float keys) are checked here: every
  // app state item at once, before each call, and the state after each call equal to the one before.
  it('sort (values carried with integer keys, gathered with float keys) and argsort under every app state item: the app\'s state comes back, results exact', async () => {
    const f = await fixture();
    const { gl } = f;
    const { engine } = await context;
    const n = 3000;
    const ukeys = Uint32Array.from({ length: n }, (_, i) => Math.imul(i, 2654435761) >>> 20); // duplicates
    const values = Uint32Array.from({ length: n }, (_, i) => (i ^ 0x5bd1e995) >>> 0);
    const fkeys = new Float32Array(Uint32Array.from({ length: n }, (_, i) => (i % 7 === 0 ? 0x7fc00001 + i : Math.imul(i + 3, 2654435761) >>> 0)).buffer);
    const ikeys = Int32Array.from(ukeys, (k, i) => (i % 2 ? -k : k));
    // Under every item at once, checked after each call (engine.stream included).
    const under = <T>(what: string, call: () => T): T => {
      resetState(gl);
      applyItems(f, f.items);
      const before = snapshotState(gl);
      const result = call();
      expectSameState(snapshotState(gl), before, what);
      return result;
    };
    const underAsync = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
      resetState(gl);
      applyItems(f, f.items);
      const before = snapshotState(gl);
      const result = await call();
      expectSameState(snapshotState(gl), before, what);
      return result;
    };
    // Stable orders on the CPU (float keys in Float32Array.prototype.sort's order: NaN last).
    const stable = (keys: ArrayLike<number>, descending: boolean) => Array.from({ length: keys.length }, (_, i) => i).sort((i, j) => {
      const [a, b] = [keys[i]!, keys[j]!];
      if (Number.isNaN(a) || Number.isNaN(b)) return Number(Number.isNaN(a)) - Number(Number.isNaN(b)) || i - j;
      return (descending ? b - a : a - b) || i - j;
    });
    const uStream = under('stream', () => engine.stream(ukeys));
    const vStream = under('stream', () => engine.stream(values));
    const fStream = under('stream', () => engine.stream(fkeys));
    const iStream = under('stream', () => engine.stream(ikeys));
    try {
      const carried = under('sort, uint32 keys + values (carried)', () => engine.sort(uStream, { values: vStream }));
      const gathered = under('sort, float32 keys + values (gathered)', () => engine.sort(fStream, { values: vStream, descending: true }));
      const keysOnly = under('sort, int32 keys alone, descending', () => engine.sort(iStream, { descending: true }));
      const order = under('argsort', () => engine.argsort(uStream, { descending: true }));
      try {
        const u = stable(ukeys, false);
        expectWords(wordsOf(await underAsync('read', () => carried.keys.read())), Uint32Array.from(u, (i) => ukeys[i]!), 'carried keys');
        expectWords(wordsOf(await underAsync('read', () => carried.values!.read())), Uint32Array.from(u, (i) => values[i]!), 'carried values');
        const fl = stable(fkeys, true);
        const fWords = new Uint32Array(fkeys.buffer);
        expectWords(wordsOf(await underAsync('read', () => gathered.keys.read())), Uint32Array.from(fl, (i) => fWords[i]!), 'gathered float keys');
        expectWords(wordsOf(await underAsync('read', () => gathered.values!.read())), Uint32Array.from(fl, (i) => values[i]!), 'gathered values');
        const iWords = new Uint32Array(ikeys.buffer);
        expectWords(wordsOf(await underAsync('read', () => keysOnly.keys.read())), Uint32Array.from(stable(ikeys, true), (i) => iWords[i]!), 'int32 keys alone');
        expectWords(wordsOf(await underAsync('read', () => order.read())), Uint32Array.from(stable(ukeys, true)), 'argsort');
      } finally {
        for (const r of [carried, gathered, keysOnly, order]) r.dispose();
      }
    } finally {
      for (const s of [uStream, vStream, fStream, iStream]) s.dispose();
    }
    drainErrors(gl);
    resetState(gl);
  });

  it('three.js-like leftovers (frontFace CW + CULL_FACE, UNPACK_FLIP_Y, scissor): exact, with and without preserveState', async () => {
    const f = await fixture();
    const { gl } = f;
    const threeJs = ['frontFace CW + cull BACK (three.js BackSide)', 'UNPACK_FLIP_Y_WEBGL true (three.js after a canvas texture)', 'scissor test on, 1×1 box']
      .map((name) => f.items.find((item) => item.name === name)!);
    expect(threeJs.every(Boolean)).toBe(true);
    for (const preserveState of [true, false]) {
      resetState(gl);
      applyItems(f, threeJs);
      const before = snapshotState(gl);
      expect(pick(before, ['CULL_FACE', 'FRONT_FACE', 'UNPACK_FLIP_Y_WEBGL', 'SCISSOR_TEST'])).toEqual({ CULL_FACE: true, FRONT_FACE: gl.CW, UNPACK_FLIP_Y_WEBGL: true, SCISSOR_TEST: true });
      const engine = createEngine(gl, { preserveState });
      try {
        await workload(engine, preserveState ? 1 : 2);
      } finally {
        engine.dispose();
      }
      const after = snapshotState(gl);
      if (preserveState) expectSameState(after, before, 'preserveState true');
      else expect(pick(after, ['CULL_FACE', 'UNPACK_FLIP_Y_WEBGL', 'SCISSOR_TEST'])).toEqual({ CULL_FACE: false, UNPACK_FLIP_Y_WEBGL: false, SCISSOR_TEST: false });
    }
    drainErrors(gl);
    resetState(gl);
  });
});
