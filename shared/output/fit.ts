/**
 * Fitting a JSON value into a character budget without breaking it: the value keeps its JSON type.
 * An array keeps its first items that fit whole (or, when not even one fits, its first item cut), an
 * object its keys with the budget shared out fairly among their values (small values whole, big ones
 * cut the same way), a string its head. Each cut is recorded with its path and exact counts. Used
 * in the sandbox isolate (bundled into its runtime) and again by the gateway, which trusts nothing the
 * isolate sends. Zod-free and without intrinsics the agent's code could replace at run time: the
 * isolate runtime captures what it needs before any agent code runs, and this module is evaluated
 * then too.
 */

import { MAX_CUTS } from "../contract/caps";
import type { Cut } from "../contract/execute";

const stringify = JSON.stringify;
const isArray = Array.isArray;
const objectKeys = Object.keys;

export interface Fitted {
  value: unknown;
  /** the JSON text of `value` */
  json: string;
  /** characters of JSON of the whole value before any cut */
  totalChars: number;
  /** the first MAX_CUTS cuts, outermost first */
  cuts: Cut[];
  /** cuts made beyond those listed */
  moreCuts: number;
}

export interface FitOptions {
  /** the path printed for the root ("result") */
  path?: string;
  /** where to cut a string at or before `at` (the gateway avoids splitting personal data) */
  cutText?: (text: string, at: number) => number;
  /** a sizer that has measured the value already */
  sizer?: JsonSizer;
}

/** Below this, a value gets no share of its own: its key or item is left out instead. */
const MIN_SHARE = 48;
const MAX_PATH_CHARS = 120;
const MAX_KEY_IN_PATH = 40;
const MAX_DEPTH = 64;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,39}$/;

/** The length of `JSON.stringify(value)` for a JSON value, each object measured once. */
export class JsonSizer {
  readonly #sizes = new Map<object, number>();

  of(value: unknown, depth = 0): number {
    if (value === null || value === undefined) return 4;
    switch (typeof value) {
      case "string":
        return (stringify(value) as string).length;
      case "number":
        return Number.isFinite(value) ? (stringify(value) as string).length : 4;
      case "boolean":
        return value ? 4 : 5;
      case "object":
        break;
      default:
        return 4;
    }
    const obj = value as object;
    const known = this.#sizes.get(obj);
    if (known !== undefined) return known;
    if (depth > MAX_DEPTH) return (stringify(obj) ?? "null").length;
    let size = 2;
    if (isArray(obj)) {
      for (let i = 0; i < obj.length; i++) size += (i ? 1 : 0) + this.of(obj[i], depth + 1);
    } else {
      let first = true;
      const record = obj as Record<string, unknown>;
      for (const key of objectKeys(record)) {
        const item = record[key];
        if (item === undefined) continue;
        size += (first ? 0 : 1) + (stringify(key) as string).length + 1 + this.of(item, depth + 1);
        first = false;
      }
    }
    this.#sizes.set(obj, size);
    return size;
  }
}

/**
 * `value` (a JSON value: what JSON.parse gives, or the sandbox's JSON-safe copy) within `budget`
 * characters of JSON. Unchanged when it fits.
 */
export function fitJson(value: unknown, budget: number, options: FitOptions = {}): Fitted {
  const sizer = options.sizer ?? new JsonSizer();
  const totalChars = sizer.of(value);
  const state: FitState = { sizer, cuts: [], moreCuts: 0, cutText: options.cutText };
  const kept =
    totalChars <= budget ? value : fitValue(value, Math.max(budget, 0), options.path ?? "result", state, 0);
  return {
    value: kept,
    json: stringify(kept) ?? "null",
    totalChars,
    cuts: state.cuts,
    moreCuts: state.moreCuts,
  };
}

interface FitState {
  sizer: JsonSizer;
  cuts: Cut[];
  moreCuts: number;
  cutText: ((text: string, at: number) => number) | undefined;
}

function fitValue(value: unknown, budget: number, path: string, state: FitState, depth: number): unknown {
  if (state.sizer.of(value) <= budget) return value;
  if (typeof value === "string") return fitString(value, budget, path, state);
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) {
    record(state, { path, kept: 0, of: 1, unit: "items" });
    return null;
  }
  if (isArray(value)) return fitArray(value, budget, path, state, depth);
  return fitObject(value as Record<string, unknown>, budget, path, state, depth);
}

function fitString(text: string, budget: number, path: string, state: FitState): string {
  let keep = Math.max(0, Math.min(text.length, budget - 2));
  let head = text.slice(0, keep);
  let size = (stringify(head) as string).length;
  while (size > budget && keep > 0) {
    keep = Math.max(0, keep - Math.max(1, Math.ceil((size - budget) / 2)));
    head = text.slice(0, keep);
    size = (stringify(head) as string).length;
  }
  if (keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1))) keep--;
  if (state.cutText) keep = Math.min(keep, Math.max(0, state.cutText(text, keep)));
  record(state, { path, kept: keep, of: text.length, unit: "characters" });
  return text.slice(0, keep);
}

function fitArray(list: unknown[], budget: number, path: string, state: FitState, depth: number): unknown[] {
  const out: unknown[] = [];
  let used = 2;
  for (let i = 0; i < list.length; i++) {
    const size = state.sizer.of(list[i]) + (i ? 1 : 0);
    if (used + size > budget) break;
    out[out.length] = list[i];
    used += size;
  }
  const first = list.length > 0 && out.length === 0 && budget - 2 >= MIN_SHARE;
  record(state, { path, kept: out.length + (first ? 1 : 0), of: list.length, unit: "items" });
  if (first) out[0] = fitValue(list[0], budget - 2, `${path}[0]`, state, depth + 1);
  return out;
}

function fitObject(
  obj: Record<string, unknown>,
  budget: number,
  path: string,
  state: FitState,
  depth: number,
): Record<string, unknown> {
  const keys = objectKeys(obj).filter((key) => obj[key] !== undefined);
  // Which keys stay: each needs its own text and room for at least a small value.
  const kept: Array<{ key: string; size: number }> = [];
  let fixed = 2;
  let floor = 0;
  for (const key of keys) {
    const own = (stringify(key) as string).length + 1 + (kept.length ? 1 : 0);
    const size = state.sizer.of(obj[key]);
    const least = Math.min(size, MIN_SHARE);
    if (fixed + own + floor + least > budget) break;
    kept.push({ key, size });
    fixed += own;
    floor += least;
  }
  if (kept.length < keys.length) record(state, { path, kept: kept.length, of: keys.length, unit: "keys" });
  // The rest is shared out smallest first: a value within its fair share stays whole, and what a
  // cut value leaves unused goes to the values after it.
  let room = budget - fixed;
  const order = kept.map((_, i) => i).sort((a, b) => (kept[a]?.size ?? 0) - (kept[b]?.size ?? 0));
  const values: unknown[] = new Array(kept.length);
  for (let n = 0; n < order.length; n++) {
    const i = order[n] as number;
    const entry = kept[i] as { key: string; size: number };
    const share = Math.floor(room / (order.length - n));
    const value =
      entry.size <= share
        ? obj[entry.key]
        : fitValue(obj[entry.key], share, childPath(path, entry.key), state, depth + 1);
    values[i] = value;
    room -= state.sizer.of(value);
  }
  const out: Record<string, unknown> = {};
  for (let i = 0; i < kept.length; i++) out[(kept[i] as { key: string }).key] = values[i];
  return out;
}

function childPath(path: string, key: string): string {
  const step = IDENTIFIER.test(key)
    ? `.${key}`
    : `[${stringify(key.length > MAX_KEY_IN_PATH ? `${key.slice(0, MAX_KEY_IN_PATH)}…` : key)}]`;
  const joined = path + step;
  return joined.length > MAX_PATH_CHARS ? `${joined.slice(0, MAX_PATH_CHARS)}…` : joined;
}

function record(state: FitState, cut: Cut): void {
  if (cut.kept >= cut.of) return;
  if (state.cuts.length < MAX_CUTS) state.cuts.push(cut);
  else state.moreCuts++;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
