// What a benchmark measures: the commit of this checkout and the files of src/ and glsl/ changed
// since, read as the run (or the bundle for the GPU machine, which has no git) is built, so every
// result file says which engine it timed.
import { execFileSync } from 'node:child_process';

const git = (...args) => {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trimEnd();
  } catch {
    return ''; // not a checkout
  }
};

/** `{ commit, uncommitted }`: the short commit ('' outside a checkout) and the engine files changed since. */
export function sourceState() {
  return {
    commit: git('rev-parse', '--short', 'HEAD'),
    uncommitted: git('status', '--porcelain', '--', 'src', 'glsl').split('\n').filter(Boolean).map((line) => line.slice(3)),
  };
}
