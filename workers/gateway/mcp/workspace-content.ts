import { Buffer } from "node:buffer";
import { isTextType, mimeTypeOf, utf8Text } from "../sessions/file-types";

/** A file as MCP resource contents: `text` when it is UTF-8 text, else base64 `blob`. */
export function resourceContents(
  uri: string,
  path: string,
  bytes: Uint8Array,
): { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string } {
  const declared = mimeTypeOf(path);
  const text = declared === undefined || isTextType(declared) ? utf8Text(bytes) : undefined;
  if (text !== undefined) return { uri, mimeType: declared ?? "text/plain", text };
  return {
    uri,
    mimeType: declared ?? "application/octet-stream",
    blob: Buffer.from(bytes).toString("base64"),
  };
}

/** `workspace://a/b%20c.txt` for `a/b c.txt`: each segment percent-encoded, the slashes kept. */
export function workspaceUri(path: string): string {
  return `workspace://${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** The path a `workspace://` URI names, or undefined when it is not one. */
export function pathOfUri(uri: string): string | undefined {
  if (!uri.startsWith("workspace://") || uri.length > 5_000) return undefined;
  try {
    return uri
      .slice("workspace://".length)
      .split("/")
      .map((segment) => decodeURIComponent(segment))
      .join("/");
  } catch {
    return undefined;
  }
}
