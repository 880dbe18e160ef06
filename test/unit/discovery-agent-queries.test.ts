import { describe, expect, it } from "vitest";
import { agentQueryProblems } from "../../bench/discovery/servers.mjs";

const intents = [
  {
    id: "a",
    intent: "make a new folder",
    accept: ["filesystem.create_directory"],
    half: "tune" as const,
    author: 2 as const,
  },
  {
    id: "b",
    intent: "post in #ops",
    accept: ["slack.slack_post_message"],
    half: "holdout" as const,
    author: 3 as const,
  },
];

describe("agent-queries.json (the query an agent sent for each labeled intent)", () => {
  it("names every missing, blank, too long or unknown query", () => {
    expect(agentQueryProblems(intents, { a: "create directory", b: "slack post message" })).toEqual([]);
    expect(agentQueryProblems(intents, { a: "create directory" })).toEqual(["intent b: no query"]);
    expect(agentQueryProblems(intents, { a: " ", b: "x".repeat(501), c: "extra" })).toEqual([
      "intent a: no query",
      "intent b: query is 501 characters (at most 500)",
      "c: no such intent",
    ]);
    expect(agentQueryProblems(intents, ["create directory"])).toEqual([
      "queries must be an object mapping intent ids to query text",
    ]);
  });
});
