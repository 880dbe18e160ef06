// What converting a JSON Schema to a TypeScript type is told (TsOptions) and gives back (TsResult), and
// the keywords it cannot express (schema-ts.ts does the conversion).

export interface TsOptions {
  /** One line, no doc comments, object literals `collapseDepth` deep shown as `{…}`, long unions cut with `…`. */
  compact: boolean;
  collapseDepth: number;
  /** Object and array nesting beyond which a schema is typed `unknown`. */
  maxDepth: number;
  /** Rough size budget in characters; past it, what is left is typed `unknown` (or left out, with a note). */
  maxChars: number;
  /** Longest property description kept in a doc comment. */
  maxDescription: number;
}

export const DEFAULT_TS_OPTIONS: TsOptions = {
  compact: false,
  collapseDepth: 2,
  maxDepth: 8,
  maxChars: 12_000,
  maxDescription: 600,
};

export interface TsResult {
  text: string;
  /** Something was left out (depth, size); cycles through `$ref` do not count. */
  truncated: boolean;
  /**
   * The schema says something the declaration does not: it was truncated, a doc comment was cut, or it
   * uses a keyword with no notation here (UNEXPRESSED, a `$ref` that does not resolve). Not in compact mode.
   */
  unexpressed: boolean;
}

/**
 * Keywords that constrain values and that neither the types nor the doc comments can say. Every other
 * keyword is either expressed (types, `required`, bounds, lengths, counts, `pattern`, `format`, `default`,
 * `multipleOf`, `uniqueItems`, descriptions) or only an annotation (`$schema`, `$id`, `$comment`, `title`,
 * `examples`, `readOnly`, `writeOnly`, `x-*`).
 */
export const UNEXPRESSED = [
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "propertyNames",
  "patternProperties",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$recursiveRef",
];
