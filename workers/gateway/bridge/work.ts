import { z } from "zod";
import { LIVE_LOG_CAPS } from "../../../shared/contract/caps";
import { SearchInput } from "../../../shared/contract/discovery";
import type { BridgeResult } from "../../../shared/contract/sandbox";
import type { SkillRecord } from "../../../shared/contract/skills";
import { log } from "../../../shared/log";
import { findTokens, restoreTokens } from "../../../shared/privacy/restore";
import type { ApprovalGate } from "../approvals/gate";
import { approvalNote } from "../approvals/policy";
import { auditToolCall } from "../audit";
import { searchTools, toolDefinition } from "../discovery/service";
import { ToolCallError } from "../discovery/tool-call-error";
import { withSkills } from "../discovery/with-skills";
import { egressFetch } from "../egress/fetch";
import type { ExecutionEvents } from "../execution/events";
import type { ExecutionLedger } from "../execution/ledger";
import type { RequestContext } from "../request/context";
import type { ExecutionSession } from "../sessions/execution";
import { endToolSpan, startToolSpan } from "../tracing/tool-span";
import { type Span, traced } from "../tracing/trace";
import { type Catalog, type Upstreams, upstreamsFor } from "../upstreams";
import { nameOf, parseArgs, parseJson } from "./arguments";
import { callTool } from "./call-tool";
import { type ConnectAsker, requireConnection } from "./connect-ask";
import { opOf, SessionCalls } from "./session-calls";
import { SkillCalls } from "./skill-calls";

const MAX_SEARCH_JSON = 10_000;
const LiveLines = z.array(z.string()).max(LIVE_LOG_CAPS.lines);

/** What an execution's bridge works with besides the request: its session, skills, and listeners. */
export interface WorkOptions {
  /** the team's egress allowlist (host patterns); empty: no network */
  egress: string[];
  session: ExecutionSession;
  skills?: ReadonlyMap<string, SkillRecord>;
  /** calls the team's approval policy names wait here */
  gate?: ApprovalGate | undefined;
  /** progress and live logs, when someone listens */
  events?: ExecutionEvents | undefined;
  /** aborted when the execution is cancelled: in-flight upstream calls stop, nothing more is audited */
  signal?: AbortSignal | undefined;
  /** asks the person behind the client to open a connect link (URL elicitation), when it can */
  connectAsker?: ConnectAsker | undefined;
  /** when the execution's time is up: a call waiting for a connection waits no longer */
  deadline: number;
  /** the execution's span: each call from code gets one under it */
  span?: Span | undefined;
}

/**
 * What the bridge does for one execution. Every argument comes from the isolate and is checked
 * here: names are bounded strings, arguments are JSON text no longer than the limit (parsed only
 * then), and each call is counted in the ledger before any work is done for it.
 */
export class BridgeWork {
  #upstreams: Promise<Upstreams> | undefined;
  readonly #sessionCalls: SessionCalls;
  readonly #skillCalls: SkillCalls;
  private readonly egress: string[];
  private readonly inSession: ExecutionSession;

  constructor(
    private readonly ctx: RequestContext,
    private readonly ledger: ExecutionLedger,
    private readonly options: WorkOptions,
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
    const span = startToolSpan(this.options.span, label, argsJson);
    const outcome = await this.answer(async () => {
      const toolName = nameOf(name, "callTool(name, args)");
      this.ledger.take("toolCalls", toolName);
      if (toolName.startsWith("skills.")) {
        throw new ToolCallError("TypeError", `${toolName}: call skills as skills.<name>(args)`);
      }
      counted = true;
      const shown = parseArgs(toolName, argsJson, this.ctx.config.limits.maxArgChars);
      args = shown;
      const upstreams = await this.upstreams();
      const { gate, signal, connectAsker, deadline } = this.options;
      const { env, team, user, origin } = this.ctx;
      const called = await callTool(
        await upstreams.catalog(),
        upstreams.servers,
        toolName,
        await this.withPiiRestored(shown),
        {
          timeoutMs: this.ctx.config.upstreams.callTimeoutMs,
          signal,
          // A person sees the arguments as the code wrote them: PII tokens stay tokens.
          allow: gate ? (tool) => gate.check(tool, tool.server, shown, span) : undefined,
          span,
          caller: { env, team, user, origin },
          onMissing: (missing) =>
            requireConnection(this.ctx, missing, toolName, { asker: connectAsker, signal, deadline }),
          reloadCatalog: async () => {
            this.#upstreams = undefined;
            return (await this.upstreams()).catalog();
          },
        },
      );
      resultJson = called.json;
      return called.value;
    });
    if (counted) this.finished(label, startedAt, outcome.ok);
    endToolSpan(span, outcome, args, resultJson, this.ctx.config.tracing.clippedArguments);
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
      return searchTools(await this.discoveryCatalog(), parsed.data, approvalNote(this.ctx.config.approvals));
    }, "discovery searchTools");
  }

  getToolDefinition(name: unknown, schema?: unknown): Promise<BridgeResult> {
    return this.answer(async () => {
      this.ledger.take("discoveryCalls", "getToolDefinition");
      const toolName = nameOf(name, "getToolDefinition(name)");
      return toolDefinition(
        await this.discoveryCatalog(),
        toolName,
        { schema: schema === true },
        approvalNote(this.ctx.config.approvals),
      );
    }, "discovery getToolDefinition");
  }

  /** `skills.*`: each counts as a tool call; a skill call is audited under `skills.<name>`. */
  async skills(op: unknown, payloadJson: unknown): Promise<BridgeResult> {
    const startedAt = Date.now();
    const what = typeof op === "string" ? op.slice(0, 40) : "?";
    let payload: unknown;
    const outcome = await this.answer(async () => {
      this.ledger.take("toolCalls", `skills.${what}`);
      payload = parseArgs(`skills.${what}`, payloadJson, this.ctx.config.limits.maxArgChars);
      const answer = await this.#skillCalls.call(what, payload);
      const call = what === "call" ? (payload as { name: string; args?: unknown }) : undefined;
      if (call && this.options.gate) {
        await this.options.gate.check({ qualifiedName: `skills.${call.name}` }, "skills", call.args);
      }
      return answer;
    }, `skill ${what}`);
    if (what === "call") {
      const name = (payload as { name?: unknown } | undefined)?.name;
      const label = `skills.${typeof name === "string" ? name.slice(0, 64) : "?"}`;
      this.finished(label, startedAt, outcome.ok);
      this.audit(label, (payload as { args?: unknown } | undefined)?.args, startedAt, outcome);
    }
    return outcome;
  }

  session(call: unknown): Promise<BridgeResult> {
    return this.answer(
      async () => {
        this.ledger.take("sessionCalls", "state/workspace/session");
        const answer = await this.#sessionCalls.call(call);
        if (!answer.ok) throw new ToolCallError(answer.error.name, answer.error.message, answer.error.path);
        return answer.value;
      },
      `session ${opOf(call)}`,
    );
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

  /** Console lines from the isolate as they are logged (`liveLogs`): checked, then passed on. */
  async log(linesJson: unknown): Promise<void> {
    const { events, signal } = this.options;
    if (!events || signal?.aborted) return;
    if (typeof linesJson !== "string" || linesJson.length > LIVE_LOG_CAPS.jsonChars) return;
    let parsed: z.ZodSafeParseResult<string[]>;
    try {
      parsed = LiveLines.safeParse(JSON.parse(linesJson));
    } catch {
      return;
    }
    if (parsed.success) for (const line of parsed.data) events.log(line);
  }

  /** A tool or skill call counted as finished: in the ledger, and to whoever follows the progress. */
  private finished(name: string, startedAt: number, ok: boolean): void {
    this.ledger.record({ name, ms: Date.now() - startedAt, ok });
    if (!this.options.signal?.aborted) this.options.events?.callFinished(name, this.ledger.toolCalls);
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
    // A cancelled execution gets one audit entry, its own; calls it left in flight get none.
    if (this.options.signal?.aborted) return;
    auditToolCall(this.ctx.env, this.ctx.waitUntil, this.actor(), {
      name,
      args,
      startedAt,
      outcome,
      resultJson,
    });
  }

  private actor() {
    const { requestId, team, keyId, user, traceId } = this.ctx;
    return { requestId, traceId, team, keyId, user, sessionId: this.inSession.id };
  }

  /** The call's answer; with `span`, in a span of that name under the execution's, its status on it. */
  private answer(work: () => Promise<unknown>, span?: string): Promise<BridgeResult> {
    if (span === undefined) return this.settle(work);
    return traced(this.options.span, span, {}, async (traced) => {
      const outcome = await this.settle(work);
      if (!outcome.ok) traced?.fail(outcome.error.name);
      return outcome;
    });
  }

  private async settle(work: () => Promise<unknown>): Promise<BridgeResult> {
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

function refused(status: number, reason: string): Response {
  return Response.json({ error: reason }, { status, headers: { "X-Egress-Blocked": "1" } });
}
