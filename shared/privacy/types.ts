import type { PiiKind } from "../contract/session";

/** One detected value: `text.slice(start, end) === value`. */
export interface PiiMatch {
  kind: PiiKind;
  start: number;
  end: number;
  value: string;
}

/** A detector appends its matches (in order, non-overlapping among themselves) to `out`. */
export type Detector = (text: string, out: PiiMatch[]) => void;
