import { describe, expect, it } from "vitest";
import { attackMemory, ISOLATE_LIMIT_MB, newTeam, withMemoryStack } from "../../scripts/bench/memory.mjs";

// One warm worker (a stack of its own with SANDBOX_POOL_SIZE=1) under the red team's memory attacks,
// four at once beside an ordinary execution that calls a tool: the sandbox host's workerd grows by
// no more than an isolate's 128 MB on Cloudflare (scripts/bench/memory.mjs says how that is
// measured), every attack ends with ResourceLimitError (MemoryError in Python) within its timeout,
// and the ordinary execution answers. Before the linear memory had a maximum of its own, one heap
// bomb grew it ~2 GB.
describe("a quickjs warm worker's memory under memory attacks", () => {
  it("stays within an isolate's 128 MB; every attack ends with ResourceLimitError in time", async () => {
    const rows = await withMemoryStack(
      () => {},
      (stack, adminToken) => attackMemory(stack, adminToken, ["javascript"]),
    );
    expectEachAttackEnded(rows, "ResourceLimitError");
    for (const row of rows) expect(row.peakMb, row.attack).toBeLessThanOrEqual(ISOLATE_LIMIT_MB);
  }, 600_000);

  // The Python worker reuses one CPython instance, restored into the memory its snapshot was made
  // in and reset between executions (python/runtime/reset.js): its peak read 115–120 MB (load
  // average up to 4.5; docs/bench-log.md), 176–300 MB with a new instance per execution. Its bound:
  // an instance's memory of at most 40 MB (20 MB of it the interpreter's), so code keeps ~20 MB;
  // before, 64 MB (47 bytearrays of 1 MB fitted).
  it("Python: every attack ends with MemoryError in time; within an isolate's 128 MB; an execution keeps at most ~20 MB", async () => {
    const { rows, kept } = await withMemoryStack(
      () => {},
      async (stack, adminToken) => {
        const rows = await attackMemory(stack, adminToken, ["python"]);
        const execute = await newTeam(stack, adminToken);
        const code =
          "a = []\ntry:\n    while True:\n        a.append(bytearray(10**6))\nexcept MemoryError:\n    pass\nn = len(a)\na = None\nn";
        return {
          rows,
          kept: [await execute({ code, language: "python" }), await execute({ code, language: "python" })],
        };
      },
    );
    expectEachAttackEnded(rows, "MemoryError");
    for (const row of rows) {
      console.log(
        `Python warm worker, ${row.attack}: peak ${row.peakMb.toFixed(0)} MB (idle ${row.idleMb.toFixed(0)} MB)`,
      );
      expect(row.peakMb, row.attack).toBeLessThanOrEqual(ISOLATE_LIMIT_MB);
    }
    expectEachAttackEnded(rows, "MemoryError");
    for (const answer of kept) {
      expect(answer.error).toBeUndefined();
      expect(answer.result).toBeGreaterThanOrEqual(10);
      expect(answer.result).toBeLessThanOrEqual(28);
    }
  }, 600_000);
});

/** Every attack of every row ended as `error` within its timeout, and the ordinary execution beside them answered 5. */
function expectEachAttackEnded(
  rows: Array<{ attack?: string; errors: unknown[]; inTime: boolean; ordinary: unknown }>,
  error: string,
): void {
  for (const row of rows) {
    expect({ attack: row.attack, errors: row.errors, inTime: row.inTime, ordinary: row.ordinary }).toEqual({
      attack: row.attack,
      errors: [error, error, error, error],
      inTime: true,
      ordinary: 5,
    });
  }
}
