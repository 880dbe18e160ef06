import { describe, expect, it } from "vitest";
import { PYTHON_WARM_MEMORY_BYTES } from "../../shared/contract/engine";
import type { LoadedSkill } from "../../shared/contract/sandbox";
import type { SandboxConfig } from "../../workers/gateway/config";
import { placeExecution, placementWorker } from "../../workers/gateway/execution/placement";

// The gateway side of the engine seam: one decision per execution, from the team's engine, the
// language and the skills the code calls.
const quickjs: SandboxConfig = { engine: "quickjs", poolSize: 2, memoryBytes: 16 * 1_048_576 };
const tsSkill: LoadedSkill = {
  name: "double",
  version: 1,
  code: "return args.n * 2",
  language: "typescript",
};
const pySkill: LoadedSkill = { name: "triple", version: 1, code: "return args['n'] * 3", language: "python" };

describe("placeExecution", () => {
  it("gives JavaScript on quickjs a warm worker with the deployment's interpreter memory", () => {
    const placed = placeExecution("placement-js", quickjs, "typescript", [tsSkill]);
    placed.release();
    expect(placed.placement).toEqual({
      warm: { id: expect.stringMatching(/^placement-js:qjs-[0-9a-f]+:0$/), memoryBytes: 16 * 1_048_576 },
    });
    expect(placementWorker(placed.placement)).toMatch(/^placement-js:qjs-/);
  });

  it("gives Python on quickjs a warm Python worker with Python's own memory, also with Python skills", () => {
    const placed = placeExecution("placement-py", quickjs, "python", [pySkill]);
    placed.release();
    expect(placed.placement).toEqual({
      warm: {
        id: expect.stringMatching(/^placement-py:py-[0-9a-f]+:0$/),
        memoryBytes: PYTHON_WARM_MEMORY_BYTES,
      },
    });
  });

  it("places Python that calls a TypeScript skill fresh on quickjs, and everything fresh on isolate", () => {
    const isolate: SandboxConfig = { ...quickjs, engine: "isolate" };
    const fresh = [
      placeExecution("placement-fresh", quickjs, "python", [pySkill, tsSkill]),
      placeExecution("placement-fresh", isolate, "python", []),
      placeExecution("placement-fresh", isolate, "javascript", []),
    ];
    for (const placed of fresh) placed.release();
    expect(fresh.map((placed) => placed.placement)).toEqual([
      { fresh: true },
      { fresh: true },
      { fresh: true },
    ]);
    expect(placementWorker({ fresh: true })).toBe("load");
  });

  it("takes the least busy slot of the team's pool and gives it back on release", () => {
    const first = placeExecution("placement-pool", quickjs, "javascript", []);
    const second = placeExecution("placement-pool", quickjs, "javascript", []);
    const ids = [first, second].map((placed) => placementWorker(placed.placement));
    expect(ids.map((id) => id.split(":").at(-1))).toEqual(["0", "1"]);
    first.release();
    const third = placeExecution("placement-pool", quickjs, "javascript", []);
    expect(placementWorker(third.placement)).toBe(ids[0]);
    second.release();
    third.release();
  });
});
