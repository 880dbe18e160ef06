// Token counts with a real tokenizer (cl100k_base, the encoding most published MCP figures use).
import { getEncoding } from "js-tiktoken";

let encoding;

export function countTokens(text) {
  encoding ??= getEncoding("cl100k_base");
  return encoding.encode(text).length;
}
