// Argument checks for the public entry points. Each error names the argument, what was given and
// what is allowed, and is thrown before any GL object is made, so a bad call leaves nothing behind.

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${(value as unknown as ArrayLike<unknown>).length})`;
  if (Array.isArray(value)) return `an Array(${value.length})`;
  if (typeof value === 'object') return `an object with keys {${Object.keys(value as object).join(', ')}}`;
  return typeof value;
}

export function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}; got ${describe(value)}`);
}

export function optionsObject(name: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${name} must be an options object; got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

export function finiteNumber(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`${name} must be a finite number; got ${describe(value)}`);
  }
  return value;
}
