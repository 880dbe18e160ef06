import { z } from "zod";
import { quoteName, ToolCallError } from "../discovery/tool-call-error";

const ToolName = z.string().min(1).max(300);

/** A tool name from the isolate: a string of 1 to 300 characters. */
export function nameOf(name: unknown, call: string): string {
  const parsed = ToolName.safeParse(name);
  if (!parsed.success) {
    throw new ToolCallError(
      "TypeError",
      `${call}: name must be a string of 1 to 300 characters like "server.tool"`,
    );
  }
  return parsed.data;
}

/** The arguments' JSON text, length-checked before it is parsed. */
export function parseArgs(toolName: string, argsJson: unknown, maxChars: number): unknown {
  if (typeof argsJson !== "string") {
    throw new ToolCallError("TypeError", `${toolName}: arguments must arrive as JSON text`);
  }
  if (argsJson.length > maxChars) {
    throw new ToolCallError(
      "LimitError",
      `${quoteName(toolName)}: arguments are ${argsJson.length} characters of JSON; the limit is ${maxChars}. Pass less per call: split the data across calls (operator setting: EXEC_MAX_ARG_CHARS)`,
    );
  }
  try {
    return JSON.parse(argsJson);
  } catch {
    throw new ToolCallError("ValidationError", `Invalid arguments for ${toolName}: not JSON`);
  }
}

/** searchTools' options as JSON text. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ToolCallError("TypeError", "searchTools: options are not JSON");
  }
}
