import { Buffer } from "node:buffer";

const TYPES: Record<string, string> = {
  txt: "text/plain",
  log: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  jsonl: "application/jsonl",
  ndjson: "application/x-ndjson",
  html: "text/html",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  js: "text/javascript",
  ts: "text/typescript",
  py: "text/x-python",
  sql: "application/sql",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
};

/** A MIME type from the file name's extension; undefined when the extension says nothing. */
export function mimeTypeOf(path: string): string | undefined {
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return undefined;
  return TYPES[path.slice(dot + 1).toLowerCase()];
}

const TEXTUAL = /^(text\/|application\/(json|jsonl|x-ndjson|xml|yaml|sql)$|image\/svg\+xml$)/;

/** A file as MCP resource contents: `text` when it is UTF-8 text, else base64 `blob`. */
export function resourceContents(
  uri: string,
  path: string,
  bytes: Uint8Array,
): { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string } {
  const declared = mimeTypeOf(path);
  const text = declared === undefined || TEXTUAL.test(declared) ? utf8(bytes) : undefined;
  if (text !== undefined) return { uri, mimeType: declared ?? "text/plain", text };
  return {
    uri,
    mimeType: declared ?? "application/octet-stream",
    blob: Buffer.from(bytes).toString("base64"),
  };
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true } as TextDecoderConstructorOptions);

function utf8(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
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
