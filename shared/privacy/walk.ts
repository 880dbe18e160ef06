/**
 * Iterative walks over JSON-like values (no recursion: depth is unbounded without a stack overflow).
 * Strings are visited everywhere, object keys included; numbers and other primitives are not text.
 * Binary data and dates are left whole; an object reached twice is walked once (cycles end).
 */

type Container = unknown[] | Record<string, unknown>;

function isContainer(value: unknown): value is Container {
  if (value === null || typeof value !== "object") return false;
  return !(value instanceof Date || value instanceof ArrayBuffer || ArrayBuffer.isView(value));
}

/** Calls `visit` on every string and key, in document order, until it returns false. */
export function forEachString(values: readonly unknown[], visit: (text: string) => boolean): void {
  const stack: unknown[] = [];
  for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
  const seen = new Set<object>();
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (!visit(value)) return;
      continue;
    }
    if (!isContainer(value) || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push(value[key], key);
      }
    }
  }
}

/**
 * A copy of `value` with every string and key passed through `map`, called in document order (a key
 * before its value). Arrays and plain objects are copied (key order kept); a shared object stays
 * shared in the copy.
 */
export function mapStrings<T>(value: T, map: (text: string) => string): T {
  const copies = new Map<Container, Container>();
  const frames: Frame[] = [];
  /** The copy of `v`, or, for a container met for the first time, an empty copy it will fill. */
  const convert = (v: unknown): unknown => {
    if (typeof v === "string") return map(v);
    if (!isContainer(v)) return v;
    const known = copies.get(v);
    if (known !== undefined) return known;
    const array = Array.isArray(v);
    const copy: Container = array ? new Array<unknown>(v.length) : {};
    copies.set(v, copy);
    frames.push({ source: v, copy, keys: array ? null : Object.keys(v), next: 0 });
    return copy;
  };
  const root = convert(value);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const { source, copy, keys } = frame;
    const length = keys === null ? (source as unknown[]).length : keys.length;
    if (frame.next >= length) {
      frames.pop();
      continue;
    }
    const i = frame.next++;
    if (keys === null) {
      (copy as unknown[])[i] = convert((source as unknown[])[i]);
    } else {
      const key = keys[i]!;
      const mappedKey = map(key);
      setOwn(copy as Record<string, unknown>, mappedKey, convert((source as Record<string, unknown>)[key]));
    }
  }
  return root as T;
}

interface Frame {
  source: Container;
  copy: Container;
  /** an object's keys; null for an array */
  keys: string[] | null;
  next: number;
}

/** `out[key] = value`, also for `__proto__` (an own property, never the prototype). */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    out[key] = value;
  }
}
