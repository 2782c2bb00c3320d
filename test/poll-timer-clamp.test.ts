// The quirk behind adapter.ts#betweenPolls: browsers clamp a timer to 4 ms once timers nest more
// than 5 deep, so a loop polling the GPU by `await setTimeout(0)` polled every ~4 ms; the engine's
// waits between polls go through a message task first, which resets the nesting. In Node there is no
// such clamp, and headless-gl reads synchronously (no poll at all).
import { describe, expect, it } from 'vitest';
import { betweenPolls } from '../src/adapter.js';
import { testContext } from './support/engine.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** The duration of each of `count` waits made one after another. */
async function waits(count: number, wait: (attempt: number) => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let attempt = 0; attempt < count; attempt++) {
    const start = performance.now();
    await wait(attempt);
    durations.push(performance.now() - start);
  }
  return durations;
}

const browserOnly = 'browser-only: Node clamps no nested timer, and the engine polls nothing there (headless-gl reads synchronously)';

describe('waits between polls of the GPU', () => {
  it('a poll loop on setTimeout(0) is clamped to ~4 ms per poll after five; betweenPolls is not', async (context) => {
    if (typeof document === 'undefined') return context.skip(browserOnly);
    // Started from a message task, so both loops start at nesting level 0.
    await betweenPolls(0);
    const clamped = (await waits(20, () => new Promise((resolve) => setTimeout(resolve, 0)))).slice(10);
    await betweenPolls(0);
    const polls = await waits(20, betweenPolls);
    console.log(`setTimeout(0) polls 11-20: median ${median(clamped).toFixed(2)} ms; betweenPolls: first four ${polls.slice(0, 4).map((t) => t.toFixed(2)).join(' ')}, 11-20 median ${median(polls.slice(10)).toFixed(2)} ms`);
    // HTML: at least 4 ms (a timer may fire a little early by the page's clock).
    expect(median(clamped)).toBeGreaterThanOrEqual(3.5);
    // About 1 ms after the prompt ones (2.1 ms in WebKitGTK, 1.2 in Chromium, 1.6-2 in Firefox here).
    expect(median(polls.slice(10))).toBeLessThan(3.5);
  });

  it('a read polls its fence about every millisecond, not every 4 ms', async (context) => {
    if (typeof document === 'undefined') return context.skip(browserOnly);
    const { engine, gl } = await testContext();
    const input = engine.stream(new Uint32Array(2 ** 18).fill(1));
    const clientWaitSync = gl.clientWaitSync;
    let polls: number[] = [];
    gl.clientWaitSync = (...args: Parameters<WebGL2RenderingContext['clientWaitSync']>) => {
      polls.push(performance.now());
      return clientWaitSync.apply(gl, args);
    };
    // The gaps between polls after the sixth (the clamped loop's fifth prompt poll): at least 4 ms there.
    const gaps: number[] = [];
    const reads: string[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        // A scan whose work takes a CPU renderer tens of ms (2^18 elements).
        const scanned = engine.scan(input);
        try {
          polls = [];
          await betweenPolls(0);
          const start = performance.now();
          const values = await scanned.read();
          reads.push(`${(performance.now() - start).toFixed(1)} ms / ${polls.length} polls`);
          expect(values[values.length - 1]).toBe(2 ** 18);
          for (let i = 6; i < polls.length; i++) gaps.push(polls[i]! - polls[i - 1]!);
        } finally {
          scanned.dispose();
        }
      }
    } finally {
      gl.clientWaitSync = clientWaitSync;
      input.dispose();
    }
    console.log(`reads of a 2^18 scan: ${reads.join('; ')}; median gap after the sixth poll ${gaps.length ? median(gaps).toFixed(2) : '-'} ms`);
    // Where calls block (WebKitGTK) the work is mostly done by the first polls.
    if (gaps.length < 5) return context.skip(`the reads' fences signalled within a few polls here (${reads.join('; ')}): no gaps to measure`);
    expect(median(gaps)).toBeLessThan(3.5);
  });
});
