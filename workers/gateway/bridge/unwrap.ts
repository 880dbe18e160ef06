import type { CallToolResult } from "@modelcontextprotocol/client";

type Content = CallToolResult["content"][number];

/**
 * What code receives from a tool call: `structuredContent` when present, else the content — text
 * parsed as JSON when it parses, else the text; binary as `{ type, mimeType, data }`. One item
 * comes back as itself, several as an array.
 */
export function unwrapResult(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const items = (result.content ?? []).map(unwrapContent);
  if (items.length === 0) return null;
  return items.length === 1 ? items[0] : items;
}

function unwrapContent(item: Content): unknown {
  switch (item.type) {
    case "text":
      return parseJson(item.text);
    case "image":
    case "audio":
      return { type: item.type, mimeType: item.mimeType, data: item.data };
    case "resource":
      return { type: "resource", resource: item.resource };
    default:
      return item;
  }
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{"\d-]|^(true|false|null)$/.test(trimmed)) return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

/** The text of an error result, for the thrown error's message. */
export function errorText(result: CallToolResult): string {
  const text = (result.content ?? [])
    .map((c) => (c.type === "text" ? c.text : `[${c.type}]`))
    .join("\n")
    .trim();
  return text.length > 1_000 ? `${text.slice(0, 1_000)}…` : text || "the tool reported an error without text";
}
