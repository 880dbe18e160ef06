import { describe, expect, it } from "vitest";
import { attackMemory, ISOLATE_LIMIT_MB, withMemoryStack } from "../../scripts/bench/memory.mjs";

// One warm worker (a stack of its own with SANDBOX_POOL_SIZE=1) under the red team's JavaScript
// memory attacks, four at once beside an ordinary execution that calls a tool: the sandbox host's
// workerd grows by no more than an isolate's 128 MB on Cloudflare (scripts/bench/memory.mjs says how
// that is measured), every attack ends with ResourceLimitError within its timeout, and the ordinary
// execution answers. Before the linear memory had a maximum of its own, one heap bomb grew it ~2 GB.
describe("a quickjs warm worker's memory under memory attacks", () => {
  it("stays within an isolate's 128 MB; every attack ends with ResourceLimitError in time", async () => {
    const rows = await withMemoryStack(
      () => {},
      (stack, adminToken) => attackMemory(stack, adminToken, ["javascript"]),
    );
    for (const row of rows) {
      expect({ attack: row.attack, errors: row.errors, inTime: row.inTime, ordinary: row.ordinary }).toEqual({
        attack: row.attack,
        errors: ["ResourceLimitError", "ResourceLimitError", "ResourceLimitError", "ResourceLimitError"],
        inTime: true,
        ordinary: 5,
      });
      expect(row.peakMb, row.attack).toBeLessThanOrEqual(ISOLATE_LIMIT_MB);
    }
  }, 600_000);
});
