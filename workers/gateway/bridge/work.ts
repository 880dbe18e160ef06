import { z } from "zod";
import { SearchInput } from "../../../shared/contract/discovery";
import type { BridgeResult } from "../../../shared/contract/sandbox";
import type { SkillRecord } from "../../../shared/contract/skills";
import { log } from "../../../shared/log";
import { findTokens, restoreTokens } from "../../../shared/privacy/restore";
import { auditToolCall } from "../audit";
import type { RequestContext } from "../context/request-context";
import { searchTools, toolDefinition } from "../discovery/service";
import { egressFetch } from "../egress/fetch";
import type { ExecutionLedger } from "../execution/ledger";
import type { ExecutionSession } from "../sessions/execution";
import { withSkills } from "../skills/discovery";
import { type Catalog, type Upstreams, upstreamsFor } from "../upstreams";
import { callTool, quoteName, ToolCallError } from "./call-tool";
import { SessionCalls } from "./session-calls";
import { SkillCalls } from "./skill-calls";

const ToolName = z.string().min(1).max(300);
const MAX_SEARCH_JSON = 10_000;

/**
 * What the bridge does for one execution. Every argument comes from the isolate and is checked
 * here: names are bounded strings, arguments are JSON text no longer than the limit (parsed only
 * then), and each call is counted in the ledger before any work is done for it.
 */
export class BridgeWork {
  #upstreams: Promise<Upstreams> | undefined;
  readonly #sessionCalls: SessionCalls;
  readonly #skillCalls: SkillCalls;
  /** the team's egress allowlist (host patterns); empty: no network */
  private readonly egress: string[];
  private readonly inSession: ExecutionSession;

  constructor(
    private readonly ctx: RequestContext,
    private readonly ledger: ExecutionLedger,
    options: { egress: string[]; session: ExecutionSession; skills?: ReadonlyMap<string, SkillRecord> },
  ) {
    this.egress = options.egress;
    this.inSession = options.session;
    this.#sessionCalls = new SessionCalls(options.session);
    this.#skillCalls = new SkillCalls(ctx, options.skills ?? new Map());
  }

  async callTool(name: unknown, argsJson: unknown): Promise<BridgeResult> {
    const startedAt = Date.now();
    const label = typeof name === "string" ? name.slice(0, 200) : "callTool";
    let args: unknown;
    let resultJson: string | undefined;
    let counted = false;
    const outcome = await this.answer(async () => {
      const toolName = nameOf(name, "callTool(name, args)");
      this.ledger.take("toolCalls", toolName);
      if (toolName.startsWith("skills.")) {
        throw new ToolCallError("TypeError", `${toolName}: call skills as skills.<name>(args)`);
      }
      counted = true;
      args = parseArgs(toolName, argsJson, this.ctx.config.limits.maxArgChars);
      const upstreams = await this.upstreams();
      const called = await callTool(
        await upstreams.catalog(),
        upstreams.servers,
        toolName,
        await this.withPiiRestored(args),
        this.ctx.config.upstreams.callTimeoutMs,
      );
      resultJson = called.json;
      return called.value;
    });
    if (counted) this.ledger.record({ name: label, ms: Date.now() - startedAt, ok: outcome.ok });
    this.audit(label, args, startedAt, outcome, resultJson);
    return outcome;
  }

  searchTools(optionsJson: unknown): Promise<BridgeResult> {
    return this.answer(async () => {
      this.ledger.take("discoveryCalls", "searchTools");
      if (typeof optionsJson !== "string" || optionsJson.length > MAX_SEARCH_JSON) {
        throw new ToolCallError(
          "TypeError",
          `searchTools: options must be JSON text of at most ${MAX_SEARCH_JSON} characters`,
        );
      }
      const parsed = SearchInput.safeParse(parseJson(optionsJson));
      if (!parsed.success)
        throw new ToolCallError("TypeError", `searchTools: ${z.prettifyError(parsed.error)}`);
      return searchTools(await this.discoveryCatalog(), parsed.data);
    });
  }

  getToolDefinition(name: unknown, schema?: unknown): Promise<BridgeResult> {
    return this.answer(async () => {
      this.ledger.take("discoveryCalls", "getToolDefinition");
      const toolName = nameOf(name, "getToolDefinition(name)");
      return toolDefinition(await this.discoveryCatalog(), toolName, { schema: schema === true });
    });
  }

  /** `skills.*`: each counts as a tool call; a skill call is audited under `skills.<name>`. */
  async skills(op: unknown, payloadJson: unknown): Promise<BridgeResult> {
    const startedAt = Date.now();
    const what = typeof op === "string" ? op.slice(0, 40) : "?";
    let payload: unknown;
    const outcome = await this.answer(async () => {
      this.ledger.take("toolCalls", `skills.${what}`);
      payload = parseArgs(`skills.${what}`, payloadJson, this.ctx.config.limits.maxArgChars);
      return this.#skillCalls.run(what, payload);
    });
    if (what === "call") {
      const name = (payload as { name?: unknown } | undefined)?.name;
      const label = `skills.${typeof name === "string" ? name.slice(0, 64) : "?"}`;
      this.ledger.record({ name: label, ms: Date.now() - startedAt, ok: outcome.ok });
      this.audit(label, (payload as { args?: unknown } | undefined)?.args, startedAt, outcome);
    }
    return outcome;
  }

  session(call: unknown): Promise<BridgeResult> {
    return this.answer(async () => {
      this.ledger.take("sessionCalls", "state/workspace/session");
      const answer = await this.#sessionCalls.run(call);
      if (!answer.ok) throw new ToolCallError(answer.error.name, answer.error.message, answer.error.path);
      return answer.value;
    });
  }

  async fetch(request: unknown): Promise<Response> {
    if (!(request instanceof Request)) return refused(400, "fetch: expected a Request");
    if (this.egress.length === 0) return refused(403, "this sandbox has no network access");
    try {
      this.ledger.take("fetches", `fetch(${request.url.slice(0, 200)})`);
    } catch (err) {
      return refused(429, (err as Error).message);
    }
    return egressFetch(request, { team: this.ctx.team, allowlist: this.egress });
  }

  /** PII tokens the session handed out, put back wherever they occur in the arguments. */
  private async withPiiRestored(args: unknown): Promise<unknown> {
    const tokens = findTokens(args);
    if (tokens.length === 0) return args;
    return restoreTokens(args, await this.inSession.restore(tokens));
  }

  private async discoveryCatalog(): Promise<Catalog> {
    return withSkills(await (await this.upstreams()).catalog(), this.ctx);
  }

  private upstreams(): Promise<Upstreams> {
    this.#upstreams ??= upstreamsFor(this.ctx);
    return this.#upstreams;
  }

  private audit(
    name: string,
    args: unknown,
    startedAt: number,
    outcome: BridgeResult,
    resultJson?: string,
  ): void {
    auditToolCall(this.ctx.env, this.ctx.waitUntil, this.actor(), {
      name,
      args,
      startedAt,
      outcome,
      resultJson,
    });
  }

  private actor() {
    const { requestId, team, keyId } = this.ctx;
    return { requestId, team, keyId, sessionId: this.inSession.id };
  }

  private async answer(work: () => Promise<unknown>): Promise<BridgeResult> {
    try {
      return { ok: true, value: await work() };
    } catch (err) {
      if (err instanceof ToolCallError) {
        const { name, message, path } = err;
        return { ok: false, error: { name, message, ...(path === undefined ? {} : { path }) } };
      }
      log("error", "tool bridge failure", {
        requestId: this.ctx.requestId,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      return {
        ok: false,
        error: {
          name: "Error",
          message: `Internal error in the tool bridge (request ${this.ctx.requestId})`,
        },
      };
    }
  }
}

function nameOf(name: unknown, call: string): string {
  const parsed = ToolName.safeParse(name);
  if (!parsed.success) {
    throw new ToolCallError(
      "TypeError",
      `${call}: name must be a string of 1 to 300 characters like "server.tool"`,
    );
  }
  return parsed.data;
}

/** The arguments' JSON text, length-checked before it is parsed. */
function parseArgs(toolName: string, argsJson: unknown, maxChars: number): unknown {
  if (typeof argsJson !== "string") {
    throw new ToolCallError("TypeError", `${toolName}: arguments must arrive as JSON text`);
  }
  if (argsJson.length > maxChars) {
    throw new ToolCallError(
      "LimitError",
      `${quoteName(toolName)}: arguments are ${argsJson.length} characters of JSON; the limit is ${maxChars}. Pass less per call: split the data across calls (operator setting: EXEC_MAX_ARG_CHARS)`,
    );
  }
  try {
    return JSON.parse(argsJson);
  } catch {
    throw new ToolCallError("ValidationError", `Invalid arguments for ${toolName}: not JSON`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ToolCallError("TypeError", "searchTools: options are not JSON");
  }
}

function refused(status: number, reason: string): Response {
  return Response.json({ error: reason }, { status, headers: { "X-Egress-Blocked": "1" } });
}
