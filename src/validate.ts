// Argument checks for the public entry points. Each error names the argument, what was given and
// what is allowed, and is thrown before any GL object is made, so a bad call leaves nothing behind.

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (ArrayBuffer.isView(value)) {
    const length = (value as unknown as { length?: unknown }).length;
    return typeof length === 'number' ? `${value.constructor.name}(${length})` : `${value.constructor.name}(${value.byteLength} bytes)`;
  }
  if (Array.isArray(value)) return `an Array(${value.length})`;
  if (typeof value === 'object') {
    // Class instances by their class (a WebGLRenderingContext, an ArrayBuffer); plain objects by their keys.
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string' && name !== '' && name !== 'Object') return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
    return `an object with keys {${Object.keys(value as object).join(', ')}}`;
  }
  return typeof value;
}

export function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}; got ${describe(value)}`);
}

/** An options object (undefined: none); a key outside `allowed` is an error, so a misspelt option never passes silently. */
export function optionsObject(name: string, value: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${name} must be an options object; got ${describe(value)}`);
  }
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw new Error(`${name}: unknown option(s) ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`);
  return value as Record<string, unknown>;
}

export function finiteNumber(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`${name} must be a finite number; got ${describe(value)}`);
  }
  return value;
}
