import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/gateway/index";
import { meteredEnv, type StorageCalls } from "../../workers/gateway/timing/storage-meter";
import { TEST_ADMIN_TOKEN } from "../helpers/keys";
import { teamWithKey } from "../helpers/teams";

/** The Worker's own fetch (index.ts, where env is metered), with `vars` over the test bindings. */
async function send(
  vars: Record<string, string>,
  path: string,
  init: RequestInit<IncomingRequestCfProperties> = {},
): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request<unknown, IncomingRequestCfProperties>(`http://gateway${path}`, init);
  const res = await worker.fetch(request, { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const timing = { PHASE_TIMING: "on" };
const probe = async (vars: Record<string, string>) =>
  (await send(vars, "/live", { headers: { "X-Phase-Timing": TEST_ADMIN_TOKEN } })).headers.get(
    "X-Storage-Calls",
  );

describe("the bench's KV and Durable Object meter (PHASE_TIMING)", () => {
  it("counts the API-key lookup and the admission request of one execution and answers them to the operator, only with PHASE_TIMING", async () => {
    const { key } = await teamWithKey("storage-meter");
    const before: StorageCalls = JSON.parse((await probe(timing)) ?? "null");
    const res = await send(timing, "/v1/execute", {
      method: "POST",
      headers: { "X-API-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify({ code: "return 1" }),
    });
    expect(await res.json()).toMatchObject({ result: 1 });
    const after: StorageCalls = JSON.parse((await probe(timing)) ?? "null");
    expect(after.kvRead - before.kvRead).toBeGreaterThanOrEqual(1);
    expect(after.doRequest - before.doRequest).toBeGreaterThanOrEqual(1);
    expect(after.doMs).toBeGreaterThanOrEqual(before.doMs);
    // /live itself asks neither
    const again: StorageCalls = JSON.parse((await probe(timing)) ?? "null");
    expect(again.kvRead).toBe(after.kvRead);
    expect(again.doRequest).toBe(after.doRequest);
    // without PHASE_TIMING: env as is, no header
    expect(meteredEnv(env)).toBe(env);
    expect(await probe({})).toBeNull();
  });
});
