import { describe, expect, it } from "vitest";
import { executeCode } from "../../workers/sandbox/executor";
import { EchoBridge } from "../helpers/echo-bridge";
import { deps, run } from "../helpers/sandbox";

// Python (Pyodide) in a fresh Worker-Loader isolate: the first run of this file makes the memory
// snapshot (one cold boot), every run after restores it.
const py = (code: string, limits = {}) => run(code, { language: "python" }, limits);

describe("python", () => {
  it("returns the value of the last expression, with prints as logs", { timeout: 60_000 }, async () => {
    const r = await py("import statistics\nprint('hello', 1)\nstatistics.mean([1, 2, 3, 4])");
    expect(r.error).toBeUndefined();
    expect(r.result).toBe(2.5);
    expect(r.logs).toEqual(["[log] hello 1"]);
  });
});
