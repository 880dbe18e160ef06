const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/** A lone surrogate would reach SQLite as U+FFFD, so two different names could become one. */
export function isWellFormed(text: string): boolean {
  return !/\p{Surrogate}/u.test(text);
}

/**
 * A WHERE clause matching rows whose `column` starts with `prefix`, compared as UTF-8 bytes, so
 * `%`, `_` and NUL in the prefix are plain characters.
 */
export function startsWith(
  column: string,
  prefix: string | undefined,
): { where: string; params: Array<string | number> } {
  if (!prefix) return { where: "1", params: [] };
  return {
    where: `substr(CAST(${column} AS BLOB), 1, ?) = CAST(? AS BLOB)`,
    params: [utf8Bytes(prefix), prefix],
  };
}
