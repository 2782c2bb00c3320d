// The engine refuses options a path does not use (a typo never passes silently). Tests that draw
// options at random, or loop one set of options over every path, pass them through these first.
import type { CompactOptions, ScanOptions } from '../../src/index.js';
import { defaultScan } from '../../src/scan/algorithms.js';

/** `options` without what its path ignores: blockSize/concat without blocks, scan without a scan, radix without recursive doubling. */
export function applicableCompactOptions<T extends CompactOptions>(options: T): T {
  const out: CompactOptions = { ...options };
  const blockOptions = options.blockSize !== undefined || options.scan !== undefined || options.concat !== undefined;
  const algorithm = options.algorithm ?? 'auto';
  const blocks = !options.global && (algorithm === 'jumping-jack' || algorithm === 'horn' || (algorithm === 'auto' && blockOptions));
  const scans = blocks || options.global === true;
  if (!blocks) {
    delete out.blockSize;
    delete out.concat;
  }
  if (!scans) delete out.scan;
  const scan = out.scan ?? defaultScan(out.blockSize ?? 256);
  if (!scans || scan !== 'recursive-doubling') delete out.radix;
  return out as T;
}

/** `options` without radix unless the scan is recursive doubling. */
export function applicableScanOptions<T extends ScanOptions>(options: T): T {
  const out: ScanOptions = { ...options };
  if (out.algorithm !== 'recursive-doubling') delete out.radix;
  return out as T;
}
