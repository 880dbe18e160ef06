// Console lines sent to the gateway as they are logged (IsolateOptions.liveLogs): the client
// follows them live (MCP notifications/message, REST log events). One bridge.log call is in flight
// at a time; lines logged meanwhile go in the next call. The result's `logs` are unaffected.
import { LIVE_LOG_CAPS } from "../../../shared/contract/caps";
import { clip, stringify } from "./intrinsics.js";

/** A live line is at most this long (the whole line stays in the result's logs). */
const LINE_CHARS = 4_000;

/**
 * @param {import("../../../shared/contract/sandbox").SandboxBridgeApi | undefined} bridge
 * @returns {{ push(line: string): void, flush(): Promise<void> } | undefined}
 */
export function liveLog(bridge) {
  if (!bridge) return undefined;
  /** @type {string[]} */
  const queue = [];
  /** @type {Promise<void> | undefined} */
  let sending;
  const sendAll = async () => {
    while (queue.length > 0) {
      /** @type {string[]} */
      const lines = [];
      let chars = 2;
      while (queue.length > 0 && lines.length < LIVE_LOG_CAPS.lines) {
        const line = clip(queue[0] ?? "", LINE_CHARS);
        if (lines.length > 0 && chars + line.length * 2 + 3 > LIVE_LOG_CAPS.jsonChars) break;
        queue.shift();
        lines[lines.length] = line;
        chars += line.length * 2 + 3;
      }
      try {
        await bridge.log(stringify(lines));
      } catch {
        queue.length = 0;
      }
    }
    sending = undefined;
  };
  return {
    push(line) {
      queue[queue.length] = line;
      sending ??= sendAll();
    },
    async flush() {
      while (sending) await sending;
    },
  };
}
