import { describe, expect, it } from "vitest";
import { sandboxOn } from "../helpers/sandbox";

// On quickjs the next interpreter is the first prepared one's image written back into a wasm instance
// and its memory (workers/sandbox/quickjs/snapshot.js): it must be the prepared interpreter no code
// touched, whatever the execution before it did in the same instance, with its own Math.random.
describe("the quickjs engine's interpreters set back to the prepared image", () => {
  const { run } = sandboxOn("quickjs");

  it("hold nothing of the execution before them, and draw their own random numbers", async () => {
    const dirty = await run(`
      const drawn = [Math.random(), Math.random(), Math.random()].join(",");
      globalThis.leak = "execution A's secret".repeat(1000);
      Object.prototype.polluted = 1;
      Array.prototype.map = () => "patched";
      JSON.parse = () => "patched";
      Math.max = () => -1;
      console.log = () => {};
      Object.defineProperty(globalThis, "crypto", { value: { randomUUID: () => "fixed" } });
      return drawn;
    `);
    expect(dirty.error).toBeUndefined();
    const clean = await run(`
      const drawn = [Math.random(), Math.random(), Math.random()].join(",");
      return {
        leak: typeof globalThis.leak,
        polluted: typeof ({}).polluted,
        map: [1, 2].map((x) => x * 2),
        parse: JSON.parse("[1]"),
        max: Math.max(1, 2),
        uuid: crypto.randomUUID().length,
        random: drawn,
      };
    `);
    expect(clean.error).toBeUndefined();
    expect(clean.result).toMatchObject({
      leak: "undefined",
      polluted: "undefined",
      map: [2, 4],
      parse: [1],
      max: 2,
      uuid: 36,
    });
    // Compared as numbers: a printed number's last digit may differ (V8's formatting, polyfills/v8.js).
    const before = String(dirty.result).split(",").map(Number);
    const after = String((clean.result as { random: string }).random)
      .split(",")
      .map(Number);
    expect(before).toHaveLength(3);
    for (const r of after) expect(r >= 0 && r < 1).toBe(true);
    expect(after.every((r, i) => Math.abs(r - (before[i] ?? 0)) < 1e-9)).toBe(false);
  });

  it("run each execution's code in the state the prelude left, after one that was stopped", async () => {
    const stopped = await run("globalThis.leak = 1; for (;;) {}", { timeoutMs: 500 });
    expect(stopped.error?.name).toMatch(/TimeoutError|CpuLimitError|ResourceLimitError/);
    const next = await run("return [typeof globalThis.leak, typeof setTimeout, typeof TextEncoder]");
    expect(next.result).toEqual(["undefined", "function", "function"]);
  });
});
