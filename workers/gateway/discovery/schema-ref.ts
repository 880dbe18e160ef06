import type { JsonSchema } from "../../../shared/contract/tools";
import { isRecord } from "./ts-syntax";

/**
 * Resolves a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any JSON pointer into the document)
 * against `root`. Remote references and pointers that lead nowhere give undefined.
 */
export function resolveRef(root: JsonSchema, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key)) node = node[Number(key)];
    else if (isRecord(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}
