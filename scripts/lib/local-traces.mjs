// Traces under `npm run dev`: an OTLP/HTTP receiver beside the stack that appends every span to
// .wrangler/traces.jsonl, and `npm run trace` (scripts/trace.mjs) that prints them, so a trace can be
// read without a collector or a vendor account.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startOtlpReceiver } from "./otlp-receiver.mjs";
import { root } from "./root.mjs";

export const TRACES_FILE = join(root, ".wrangler/traces.jsonl");

/** The receiver on `port`; resolves to the gateway vars that send it traces (OTLP/HTTP JSON, all sampled). */
export async function startLocalTraces(port) {
  mkdirSync(dirname(TRACES_FILE), { recursive: true });
  const receiver = startOtlpReceiver({
    port,
    onSpans: (spans) => appendFileSync(TRACES_FILE, spans.map((s) => `${JSON.stringify(s)}\n`).join("")),
  });
  await receiver.listening;
  return {
    receiver,
    vars: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    },
  };
}

/** Every span kept so far, oldest first (a line that does not parse is skipped). */
export function readLocalTraces() {
  if (!existsSync(TRACES_FILE)) return [];
  return readFileSync(TRACES_FILE, "utf8")
    .split("\n")
    .flatMap((line) => {
      try {
        return line ? [JSON.parse(line)] : [];
      } catch {
        return [];
      }
    });
}
