// `npm run admin -- approvals …`: calls from code waiting for a person (GET/POST /admin/approvals).
import { CliError } from "./cli-request.mjs";

const REMEMBER = ["call", "execution", "session"];

/**
 * @param {string} command "approvals list" | "approvals approve" | "approvals deny"
 * @param {{ id?: string }} args
 * @param {{ team?: string, remember?: string }} values
 * @param {{ call: Function, out: Function, table: Function, when: Function, seg: Function }} io
 */
export async function approvals(command, args, values, { call, out, table, when, seg }) {
  if (command === "approvals list") {
    const { data } = await call("GET", `/approvals${values.team ? `?team=${seg(values.team)}` : ""}`);
    return out(data, () => {
      const pending = data.pending.map((a) => ({
        id: a.id,
        team: a.team,
        tool: a.tool,
        args: a.args.length > 60 ? `${a.args.slice(0, 59)}…` : a.args,
        waiting: `${Math.round(a.waitingMs / 1000)} s`,
      }));
      const decided = data.decided.map((a) => ({
        id: a.id,
        tool: a.tool,
        decision: a.decision.status,
        by: a.decision.by,
        at: when(a.decision.decidedAt),
      }));
      return [
        pending.length ? table(pending, ["id", "team", "tool", "args", "waiting"]) : "No pending approvals.",
        decided.length
          ? `\nDecided in the last day:\n${table(decided, ["id", "tool", "decision", "by", "at"])}`
          : "",
      ].join("\n");
    });
  }
  const approve = command === "approvals approve";
  if (values.remember !== undefined && !REMEMBER.includes(values.remember))
    throw new CliError(`--remember takes call, execution or session, not "${values.remember}"`);
  const body = { approve, ...(values.remember ? { remember: values.remember } : {}) };
  const { data } = await call("POST", `/approvals/${seg(args.id)}`, body);
  return out(data, () => `${approve ? "Approved" : "Denied"} ${args.id}.`);
}
