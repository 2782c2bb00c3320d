// The tune's second-opinion samples through glFinish (src/tuning.ts TUNE_SAMPLING), set from a bench
// CLI's flags so variants are compared on one build: --second-opinion-ms (calls back to back until
// they have held the thread this long), --second-opinion-calls (at most this many),
// --second-opinion-elements (log2: at most this many elements over the sample's calls),
// --second-opinion-samples (how many such samples per path asked, the lower counting; never more than
// the tune's repeats).
import { secondOpinionSamples, TUNE_SAMPLING } from '../../src/tuning.js';

export const secondOpinionOptions = {
  'second-opinion-ms': { type: 'string' }, 'second-opinion-calls': { type: 'string' }, 'second-opinion-elements': { type: 'string' },
  'second-opinion-samples': { type: 'string' },
} as const;

/** Applies the flags given; a bad one is a message (the caller prints it and exits), else undefined. */
export function applySecondOpinionFlags(values: { 'second-opinion-ms'?: string | undefined; 'second-opinion-calls'?: string | undefined; 'second-opinion-elements'?: string | undefined; 'second-opinion-samples'?: string | undefined }): string | undefined {
  const ms = values['second-opinion-ms'];
  const calls = values['second-opinion-calls'];
  const elements = values['second-opinion-elements'];
  const samples = values['second-opinion-samples'];
  if (ms !== undefined && !(Number(ms) >= 0 && Number(ms) <= 50)) return `--second-opinion-ms takes ms, 0 to 50; got ${ms}`;
  if (calls !== undefined && !(Number.isInteger(Number(calls)) && Number(calls) >= 1 && Number(calls) <= 256)) return `--second-opinion-calls takes a whole number, 1 to 256; got ${calls}`;
  if (elements !== undefined && !(Number.isInteger(Number(elements)) && Number(elements) >= 4 && Number(elements) <= 24)) return `--second-opinion-elements takes a log2 length, 4 to 24; got ${elements}`;
  if (samples !== undefined && !(Number.isInteger(Number(samples)) && Number(samples) >= 1 && Number(samples) <= 10)) return `--second-opinion-samples takes a whole number, 1 to 10; got ${samples}`;
  if (ms !== undefined) TUNE_SAMPLING.secondOpinionMs = Number(ms);
  if (calls !== undefined) TUNE_SAMPLING.secondOpinionMaxCalls = Number(calls);
  if (elements !== undefined) TUNE_SAMPLING.secondOpinionElements = 2 ** Number(elements);
  if (samples !== undefined) TUNE_SAMPLING.secondOpinionSamples = Number(samples);
  return undefined;
}

/** One line naming the second opinions a run used with `repeats` (which caps the samples: tuning.ts#secondOpinionSamples). */
export function describeSecondOpinions(repeats: number): string {
  return `second opinions through glFinish: ${TUNE_SAMPLING.secondOpinionMs} ms, at most ${TUNE_SAMPLING.secondOpinionMaxCalls} calls and 2^${Math.log2(TUNE_SAMPLING.secondOpinionElements)} elements, ${secondOpinionSamples(repeats, true)} samples per path`;
}
