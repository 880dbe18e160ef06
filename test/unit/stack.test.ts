import { expect, it } from "vitest";
import { mapAgentStack } from "../../workers/sandbox/stack";

it("keeps the agent's frames with its lines and drops the runtime's", () => {
  const stack = [
    "Error: boom",
    "    at f (agent.js:3:11)",
    "    at async __agent__ (agent.js:5:3)",
    "    at async Sandbox.run (runtime.js:40:21)",
  ].join("\n");
  expect(mapAgentStack(stack)).toEqual({
    stack: "Error: boom\n    at f (code:2)\n    at async <code> (code:4)",
    line: 2,
  });
});

it("has no line when no frame is the agent's", () => {
  expect(mapAgentStack("TypeError: x\n    at run (runtime.js:1:1)")).toEqual({ stack: "TypeError: x" });
});
