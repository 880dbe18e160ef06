import type { OperatorSignIn } from "../dashboard/sign-in";
import type { GatewayEnv } from "../env";
import type { RequestContext } from "../request/context";
import type { PhaseClock } from "../timing/clock";
import type { Trace } from "../tracing/trace";

/** What middleware sets on Hono's context: finished values only. */
export interface AppVariables {
  requestId: string;
  /** phase timings of this request (PHASE_TIMING, operator requests only) */
  clock?: PhaseClock;
  /** the request's trace, when traces are exported (http/request-trace.ts) */
  trace?: Trace;
  /** without a trace: the trace id the caller named (`traceparent`, MCP `_meta`), for logs and errors */
  traceId?: string;
  /** /mcp and /v1/* only: the authenticated, admitted request (context/middleware.ts) */
  context: RequestContext;
  /** /dashboard pages past sign-in: the operator's sign-in */
  operator: OperatorSignIn;
}

/** The Hono app's environment: the Worker's bindings and the variables above. */
export type AppEnv = { Bindings: GatewayEnv; Variables: AppVariables };
