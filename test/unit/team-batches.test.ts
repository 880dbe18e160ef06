import { describe, expect, it } from "vitest";
import { TeamBatches } from "../../workers/gateway/batch/team-batches";

describe("TeamBatches", () => {
  it("sends each team's batch once after the window, from the call that opened it", async () => {
    const batches = new TeamBatches<number>(10, 3);
    const sent: Array<[string, number[]]> = [];
    const send = (team: string) => async (batch: number[]) => {
      sent.push([team, [...batch]]);
    };
    const opened = [
      batches.add("a", 1, send("a")),
      batches.add("a", 2, send("a")),
      batches.add("b", 1, send("b")),
      batches.add("a", 3, send("a")),
      batches.add("a", 4, send("a")), // the first batch of "a" is full: a new one
    ];
    expect(opened.map((p) => p !== undefined)).toEqual([true, false, true, false, true]);
    expect(sent).toEqual([]);
    await Promise.all(opened);
    expect(sent).toEqual([
      ["a", [1, 2, 3]],
      ["b", [1]],
      ["a", [4]],
    ]);
    expect(batches.take("a")).toEqual([]);
  });

  it("does not send a batch someone took; the next item opens a new one", async () => {
    const batches = new TeamBatches<string>(10, 100);
    const sent: string[][] = [];
    const send = async (batch: string[]) => {
      sent.push(batch);
    };
    const first = batches.add("t", "x", send);
    batches.add("t", "y", send);
    expect(batches.take("t")).toEqual(["x", "y"]);
    const second = batches.add("t", "z", send);
    expect(second).toBeDefined();
    await Promise.all([first, second]);
    expect(sent).toEqual([["z"]]);
  });

  it("keeps a batch open while items keep coming, up to its maximum age; a lone item goes after one window", async () => {
    const batches = new TeamBatches<number>(30, 1_000, 2_000);
    const sent: number[][] = [];
    const send = async (batch: number[]) => {
      sent.push([...batch]);
    };
    const opened: Array<Promise<void> | undefined> = [];
    for (let i = 0; i < 8; i++) {
      opened.push(batches.add("t", i, send));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(opened.filter((p) => p !== undefined)).toHaveLength(1);
    await Promise.all(opened);
    expect(sent).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]]);

    const aged = new TeamBatches<number>(30, 1_000, 60);
    const agedSent: number[][] = [];
    const agedOpened: Array<Promise<void> | undefined> = [];
    for (let i = 0; i < 12; i++) {
      agedOpened.push(aged.add("t", i, async (batch) => void agedSent.push([...batch])));
      await new Promise((r) => setTimeout(r, 10));
    }
    await Promise.all(agedOpened);
    expect(agedSent.length).toBeGreaterThan(1);
    expect(agedSent.flat()).toEqual([...Array(12).keys()]);

    const lone = new TeamBatches<number>(10, 1_000, 60_000);
    const started = Date.now();
    await lone.add("t", 1, send);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
