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
    const key = pointerToken(raw);
    if (key === undefined) return undefined;
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key)) node = node[Number(key)];
    else if (isRecord(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** A JSON pointer's token as the name it stands for (`%`-escapes, `~1` and `~0` undone); undefined when not decodable. */
export function pointerToken(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
  } catch {
    return undefined;
  }
}
