import type { ExecuteResult } from "../../shared/contract/execute";

/**
 * How the quickjs engine's answer to a snippet compares with V8's (the isolate engine's):
 * - `equal`: the same result, logs and error;
 * - `refused`: quickjs throws where V8 answers (an error naming what is missing is allowed);
 * - `error-differs`: both throw, not the same error;
 * - `silent`: quickjs answers where V8 throws, or both answer differently: never allowed.
 */
export type Verdict = "equal" | "refused" | "error-differs" | "silent";

export function compareAnswers(quickjs: ExecuteResult, v8: ExecuteResult): Verdict {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (quickjs.error && v8.error) {
    const q = quickjs.error;
    const v = v8.error;
    return q.name === v.name && q.message === v.message && same(quickjs.logs, v8.logs)
      ? "equal"
      : "error-differs";
  }
  if (quickjs.error) return "refused";
  if (v8.error) return "silent";
  return same(quickjs.result, v8.result) && same(quickjs.logs, v8.logs) ? "equal" : "silent";
}
