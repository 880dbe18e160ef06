import { describe, expect, it } from "vitest";
import { compareAnswers, type Verdict } from "../fidelity/compare";
import { CORPUS } from "../fidelity/corpus";
import type { Snippet } from "../fidelity/snippet";
import { deps, sendToSandbox } from "../helpers/sandbox";

// Engine fidelity (contract "Engine fidelity"): every snippet of the corpus (test/fidelity/corpus/,
// agent-style code) runs on both engines; the isolate engine's answer is V8's. An answer of the
// quickjs engine that differs without an error fails; at least 95 % of the answers are equal.
// `--silent=false` prints every answer that is not equal.
const SLOTS = 4;
const MIN_SNIPPETS = 300;
const quickjs = (slot: number) =>
  deps({}, { placement: { warm: { id: `fidelity:${slot}`, memoryBytes: 32 * 1024 * 1024 } } });
const isolate = () => deps({}, { placement: { fresh: true } });

async function inTurn<T>(count: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < count; i = next++) out[i] = await work(i);
    }),
  );
  return out;
}

describe("engine fidelity: the quickjs engine answers as V8 does", () => {
  it(`runs the corpus (${CORPUS.length} snippets) on both engines`, { timeout: 600_000 }, async () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(MIN_SNIPPETS);
    const answers = await inTurn(CORPUS.length, SLOTS, async (i) => {
      const { name, code } = CORPUS[i] as Snippet;
      const [q, v] = await Promise.all([
        sendToSandbox(quickjs(i % SLOTS), { code }),
        sendToSandbox(isolate(), { code }),
      ]);
      return { name, verdict: compareAnswers(q, v), q, v };
    });
    const count = (verdict: Verdict) => answers.filter((a) => a.verdict === verdict).length;
    const notEqual = answers.filter((a) => a.verdict !== "equal");
    const lines = notEqual.map(
      (a) =>
        `${a.verdict}: ${a.name}\n  quickjs: ${JSON.stringify(a.q.error ?? a.q.result)}\n  v8:      ${JSON.stringify(a.v.error ?? a.v.result)}`,
    );
    const summary = `equal ${count("equal")}, quickjs refuses ${count("refused")}, errors differ ${count("error-differs")}, silently different ${count("silent")} of ${answers.length}`;
    console.log(`${lines.join("\n")}\n${summary}`);
    expect(answers.filter((a) => a.verdict === "silent").map((a) => lines[notEqual.indexOf(a)])).toEqual([]);
    expect(count("equal") / answers.length, summary).toBeGreaterThanOrEqual(0.95);
  });
});
