import { describe, expect, it } from "vitest";
import type { SandboxHostApi } from "../../shared/contract/sandbox";
import { sandboxHostOverdueSince } from "../../workers/gateway/execution/send-to-sandbox";
import { request } from "../helpers/app";
import { deps, sendToSandbox } from "../helpers/sandbox";

// A sandbox host in another process (one that answers pings) that misses an execution's deadline is
// reported by GET /live, for the local stack's supervisor to restart; one that answers a ping is fine again.
describe("a sandbox host that misses a deadline", () => {
  it("is reported overdue by /live until it answers a ping, and is asked first meanwhile", async () => {
    let answering = false;
    const host: SandboxHostApi = {
      runSandbox: () => new Promise(() => {}),
      ping: () => (answering ? Promise.resolve("ok") : new Promise(() => {})),
    };
    const before = Date.now();
    const late = await sendToSandbox({ ...deps(), host }, { code: "return 1", timeoutMs: 1 });
    expect(late.error).toMatchObject({
      name: "TimeoutError",
      message: expect.stringContaining("did not answer"),
    });
    expect(sandboxHostOverdueSince()).toBeGreaterThanOrEqual(before);
    const live = (await (await request("/live")).json()) as { sandboxHost?: { overdueSince: string } };
    expect(Date.parse(live.sandboxHost?.overdueSince ?? "")).toBeGreaterThanOrEqual(before - 1_000);

    const refused = await sendToSandbox({ ...deps(), host }, { code: "return 1" });
    expect(refused.error).toMatchObject({ name: "SandboxUnavailableError" });

    answering = true;
    host.runSandbox = async () => ({ result: 2, logs: [], truncated: false });
    const ok = await sendToSandbox({ ...deps(), host }, { code: "return 2" });
    expect(ok.result).toBe(2);
    expect(sandboxHostOverdueSince()).toBeUndefined();
    expect(await (await request("/live")).json()).toEqual({ status: "ok" });
  });
});
