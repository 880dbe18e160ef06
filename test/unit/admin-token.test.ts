import { env } from "cloudflare:test";
import type { ServerContext } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import type { GatewayEnv } from "../../workers/gateway/env";
import { roundStateCodec } from "../../workers/gateway/mcp/round-trip";
import { TEST_API_KEY } from "../helpers/keys";

// ADMIN_TOKEN has one reader (env.ts `adminToken`) with one rule: unset or "" means none.
describe("ADMIN_TOKEN", () => {
  const gateway = env as unknown as GatewayEnv;

  it("set to an empty string signs requestState with DEV_API_KEY, as when it is unset", async () => {
    const empty = roundStateCodec({ ...gateway, ADMIN_TOKEN: "", DEV_API_KEY: TEST_API_KEY });
    const state = await empty.mint({ run: "run_x", question: "apr_x" });
    const unset = roundStateCodec({ ...gateway, ADMIN_TOKEN: undefined, DEV_API_KEY: TEST_API_KEY });
    // The codec has no `bind`, so verify ignores the server context.
    await expect(unset.verify(state, {} as ServerContext)).resolves.toEqual({
      run: "run_x",
      question: "apr_x",
    });
  });
});
