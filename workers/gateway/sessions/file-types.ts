/** Content types of workspace files, guessed from the name's extension (MCP resources, REST download). */
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
  htm: "text/html",
  xhtml: "application/xhtml+xml",
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

const TEXTUAL = /^(text\/|application\/(json|jsonl|x-ndjson|xml|xhtml\+xml|yaml|sql)$|image\/svg\+xml$)/;

/** Whether files of this type are text (UTF-8 as workspace.write stores a string). */
export function isTextType(mimeType: string): boolean {
  return TEXTUAL.test(mimeType);
}

/** Types a browser renders as a document that can run script: served as downloads (docs/security.md). */
const ACTIVE = new Set(["text/html", "application/xhtml+xml", "application/xml", "image/svg+xml"]);

export function isActiveType(mimeType: string): boolean {
  return ACTIVE.has(mimeType);
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true } as TextDecoderConstructorOptions);

/** The bytes as text when they are UTF-8 without NUL; else undefined. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
