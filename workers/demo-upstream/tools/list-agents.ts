import { z } from "zod";
import { Agent, TEAMS } from "../schemas";
import { ok, READ_ONLY, type RegisterTool } from "./common";

const input = z.object({ team: z.enum(TEAMS).optional().describe("Only agents of this team.") }).strict();

const output = {
  agents: z.array(
    Agent.extend({
      activeTickets: z.number().int().describe("Open and pending tickets assigned to the agent"),
    }),
  ),
};

export const registerListAgents: RegisterTool = (server, store) => {
  server.registerTool(
    "list_agents",
    {
      title: "List agents",
      description:
        "List the support agents (names are what tickets use as `assignee`), with their team and how many open or pending tickets each has.",
      inputSchema: input,
      outputSchema: output,
      annotations: READ_ONLY,
    },
    ({ team }) => {
      const active = new Map<string, number>();
      for (const t of store.tickets) {
        if (t.assignee !== null && (t.status === "open" || t.status === "pending")) {
          active.set(t.assignee, (active.get(t.assignee) ?? 0) + 1);
        }
      }
      const agents = store.agents
        .filter((a) => team === undefined || a.team === team)
        .map((a) => ({ ...a, activeTickets: active.get(a.name) ?? 0 }));
      return ok({ agents });
    },
  );
};
