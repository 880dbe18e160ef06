import type { ExecuteResult } from "../contract/execute";
import type { PiiItem } from "../contract/session";
import { tokenizeValues } from "./tokenize";

/**
 * An execution's result with personal data in what reaches the client — the result, the logs and
 * the error's message, stack and data — replaced by tokens from `assign` (one call for all of them).
 */
export async function tokenizeResult(
  result: ExecuteResult,
  assign: (items: PiiItem[]) => Promise<string[]>,
): Promise<ExecuteResult> {
  const { error } = result;
  const [value, logs, message, stack, data] = await tokenizeValues(
    [result.result, result.logs, error?.message, error?.stack, error?.data],
    assign,
  );
  return {
    ...result,
    ...(result.result === undefined ? {} : { result: value }),
    logs: logs as string[],
    ...(error
      ? {
          error: {
            ...error,
            message: message as string,
            ...(error.stack === undefined ? {} : { stack: stack as string }),
            ...(error.data === undefined ? {} : { data }),
          },
        }
      : {}),
  };
}
