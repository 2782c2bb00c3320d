// Test knobs from environment variables, in both projects. Node reads process.env; in the browser
// project vitest.config.ts copies the GLCOMPACT_* variables into `test.env`, which vitest exposes
// as import.meta.env there (process.env does not exist in the page).

function readEnv(name: string): string | undefined {
  const fromMeta = (import.meta as unknown as { env?: Record<string, string | undefined> }).env?.[name];
  if (fromMeta !== undefined && fromMeta !== '') return fromMeta;
  const fromProcess = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env?.[name];
  return fromProcess === '' ? undefined : fromProcess;
}

/** A positive integer from the environment, or `fallback`; anything else is an error, not a silent default. */
export function envCount(name: string, fallback: number): number {
  const raw = readEnv(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer; got ${JSON.stringify(raw)}`);
  return value;
}

/** A yes/no switch from the environment: unset, '' or '0' is off, '1' is on; anything else is an error. */
export function envFlag(name: string): boolean {
  const raw = readEnv(name);
  if (raw === undefined || raw === '0') return false;
  if (raw === '1') return true;
  throw new Error(`${name} must be 1 (on) or 0 (off); got ${JSON.stringify(raw)}`);
}
