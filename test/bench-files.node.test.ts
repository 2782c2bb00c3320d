// The bench's result files: a run never replaces an earlier run's file (bench/lib/format.mjs#writeNewFile).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeNewFile } from '../bench/lib/format.mjs';

describe('writeNewFile', () => {
  it('writes a fresh name, then -2, -3 for the same name, leaving the earlier files as they were', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'glcompact-bench-files-'));
    try {
      const file = join(dir, 'tuned-sweep-chromium-2026-11-29-tag.json');
      expect(await writeNewFile(file, 'first')).toBe(file);
      expect(await writeNewFile(file, 'second')).toBe(join(dir, 'tuned-sweep-chromium-2026-11-29-tag-2.json'));
      expect(await writeNewFile(file, 'third')).toBe(join(dir, 'tuned-sweep-chromium-2026-11-29-tag-3.json'));
      expect(await readFile(file, 'utf8')).toBe('first');
      expect(await readFile(join(dir, 'tuned-sweep-chromium-2026-11-29-tag-2.json'), 'utf8')).toBe('second');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('passes on an error other than an existing file (a folder that is not there)', async () => {
    await expect(writeNewFile(join(tmpdir(), 'glcompact-no-such-folder', 'x.json'), 'x')).rejects.toThrow(/ENOENT/);
  });
});
