import { describe, expect, it } from "vitest";
import { TeamQueues } from "../../workers/gateway/write-behind/team-queues";
import { HANG_GUARD_MS } from "../helpers/hang-guard";

describe("TeamQueues", () => {
  it("sends each team's queue once after the window, from the call that opened it", async () => {
    const queues = new TeamQueues<number>(10, 3);
    const sent: Array<[string, number[]]> = [];
    const send = (team: string) => async (queue: number[]) => {
      sent.push([team, [...queue]]);
    };
    const opened = [
      queues.add("a", 1, send("a")),
      queues.add("a", 2, send("a")),
      queues.add("b", 1, send("b")),
      queues.add("a", 3, send("a")),
      queues.add("a", 4, send("a")), // the first queue of "a" is full: a new one
    ];
    expect(opened.map((p) => p !== undefined)).toEqual([true, false, true, false, true]);
    expect(sent).toEqual([]);
    await Promise.all(opened);
    expect(sent).toEqual([
      ["a", [1, 2, 3]],
      ["b", [1]],
      ["a", [4]],
    ]);
    expect(queues.take("a")).toEqual([]);
  });

  it("does not send a queue someone took; the next item opens a new one", async () => {
    const queues = new TeamQueues<string>(10, 100);
    const sent: string[][] = [];
    const send = async (queue: string[]) => {
      sent.push(queue);
    };
    const first = queues.add("t", "x", send);
    queues.add("t", "y", send);
    expect(queues.take("t")).toEqual(["x", "y"]);
    const second = queues.add("t", "z", send);
    expect(second).toBeDefined();
    await Promise.all([first, second]);
    expect(sent).toEqual([["z"]]);
  });

  it("keeps a queue open while items keep coming, up to its maximum age; a lone item goes after one window", async () => {
    const queues = new TeamQueues<number>(30, 1_000, 2_000);
    const sent: number[][] = [];
    const send = async (queue: number[]) => {
      sent.push([...queue]);
    };
    const opened: Array<Promise<void> | undefined> = [];
    for (let i = 0; i < 8; i++) {
      opened.push(queues.add("t", i, send));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(opened.filter((p) => p !== undefined)).toHaveLength(1);
    await Promise.all(opened);
    expect(sent).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]]);

    const aged = new TeamQueues<number>(30, 1_000, 60);
    const agedSent: number[][] = [];
    const agedOpened: Array<Promise<void> | undefined> = [];
    for (let i = 0; i < 12; i++) {
      agedOpened.push(aged.add("t", i, async (queue) => void agedSent.push([...queue])));
      await new Promise((r) => setTimeout(r, 10));
    }
    await Promise.all(agedOpened);
    expect(agedSent.length).toBeGreaterThan(1);
    expect(agedSent.flat()).toEqual([...Array(12).keys()]);

    const lone = new TeamQueues<number>(10, 1_000, 60_000);
    const started = Date.now();
    await lone.add("t", 1, send);
    expect(Date.now() - started).toBeLessThan(HANG_GUARD_MS);
  });

  it("gives a queue to a taker only after `quietMs` without a new item, and its opener stops waiting when it is taken", async () => {
    const queues = new TeamQueues<number>(3_000, 100);
    const sent: number[][] = [];
    const opened = queues.add("t", 1, async (queue) => void sent.push(queue));
    expect(queues.take("t", 50)).toEqual([]); // just queued: still open
    await new Promise((r) => setTimeout(r, 60));
    expect(queues.take("t", 50)).toEqual([1]);
    const started = Date.now();
    await opened; // not after its 3 s window
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(sent).toEqual([]);
  });
});
