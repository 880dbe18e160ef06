import { type Attributes, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { TracingConfig } from "../tracing-config";
import { formatTraceparent, randomId, type TraceParent } from "./context";

export { SpanKind };

/** A point in a span's life: an approval decided, a retry. */
export interface SpanEvent {
  name: string;
  ms: number;
  attributes: Attributes;
}

/**
 * One span of a request's trace. Of a trace that is not sampled, every span is its root, which
 * records nothing: it only names the trace and the flags upstreams are told.
 */
export class Span {
  readonly id = randomId(8);
  readonly startMs = Date.now();
  endMs: number | undefined;
  readonly attributes: Attributes = {};
  readonly events: SpanEvent[] = [];
  readonly links: TraceParent[] = [];
  status: { code: SpanStatusCode; message?: string } = { code: SpanStatusCode.UNSET };

  constructor(
    readonly trace: Trace,
    readonly name: string,
    readonly kind: SpanKind,
    /** the parent span's id; for the root, the caller's span (if any), set by the trace */
    public parentId: string | undefined,
    attributes: Attributes = {},
  ) {
    this.set(attributes);
  }

  set(attributes: Attributes): this {
    if (!this.trace.recording) return this;
    for (const [key, value] of Object.entries(attributes)) {
      if (value !== undefined) this.attributes[key] = value;
    }
    return this;
  }

  event(name: string, attributes: Attributes = {}): void {
    if (this.trace.recording) this.events.push({ name, ms: Date.now(), attributes });
  }

  link(to: TraceParent): void {
    if (this.trace.recording) this.links.push(to);
  }

  /** Ends it as failed: `error.type` is the error's name, never its message (messages can echo data). */
  fail(errorType: string): void {
    this.set({ "error.type": errorType });
    this.status = { code: SpanStatusCode.ERROR };
  }

  end(): void {
    if (this.endMs !== undefined) return;
    this.endMs = Date.now();
    if (this !== this.trace.root) this.trace.spanEnded();
  }

  child(name: string, attributes: Attributes = {}, kind: SpanKind = SpanKind.INTERNAL): Span {
    if (!this.trace.recording) return this;
    const span = new Span(this.trace, name, kind, this.id, attributes);
    this.trace.spanStarted(span);
    return span;
  }

  /** What goes out with a request this span makes (`traceparent`), so the upstream joins the trace. */
  traceparent(): string {
    this.trace.propagated = true;
    return formatTraceparent(this.trace.traceId, this.id, this.trace.recording);
  }
}

/** The root decision: parent-based samplers follow a caller's flag; else keep `ratio` of trace ids. */
function sampled(config: TracingConfig, traceId: string, parent: TraceParent | undefined): boolean {
  if (parent && config.parentBased) return parent.sampled;
  if (config.ratio >= 1) return true;
  if (config.ratio <= 0) return false;
  // The trace id's last 7 bytes as a fraction of 2^56: the same id gets the same answer everywhere.
  return Number.parseInt(traceId.slice(18), 16) / 2 ** 56 < config.ratio;
}

/**
 * One request's trace (or a detached run's): its id, whether it is sampled, its spans in the order
 * they started. Made only when traces are exported (OTEL_EXPORTER_OTLP_ENDPOINT); otherwise there is
 * no trace and every `traced` call is its work alone.
 */
export class Trace {
  traceId: string;
  recording: boolean;
  /** the caller's span, when the request named one */
  remote: TraceParent | undefined;
  /** a `traceparent` of ours went out: the trace id can no longer change */
  propagated = false;
  readonly spans: Span[] = [];
  readonly root: Span;
  #open = 0;
  #settled: (() => void) | undefined;

  constructor(
    readonly config: TracingConfig,
    parent: TraceParent | undefined,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
  ) {
    this.traceId = parent?.traceId ?? randomId(16);
    this.remote = parent;
    this.recording = sampled(config, this.traceId, parent);
    this.root = new Span(this, name, kind, parent?.spanId, attributes);
    this.spans.push(this.root);
  }

  spanStarted(span: Span): void {
    this.spans.push(span);
    this.#open++;
  }

  spanEnded(): void {
    if (--this.#open === 0) this.#settled?.();
  }

  /**
   * Resolves once every span under the root has ended (an execution answered over SSE goes on after
   * the response's headers), or after `maxMs` when one never does: then the root ends too.
   */
  settled(maxMs: number): Promise<void> {
    const done =
      this.#open === 0
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => {
              this.#settled = resolve;
            }),
            new Promise<void>((resolve) => setTimeout(resolve, maxMs)),
          ]);
    return done.then(() => this.root.end());
  }

  /**
   * Continues the caller's trace named in an MCP message's `_meta` when the HTTP request named none
   * (and nothing of ours went out yet): the same spans, under the caller's trace id and span.
   */
  adopt(parent: TraceParent): void {
    if (this.remote || this.propagated) return;
    this.remote = parent;
    this.traceId = parent.traceId;
    this.root.parentId = parent.spanId;
    const was = this.recording;
    this.recording = sampled(this.config, this.traceId, parent);
    if (was && !this.recording) this.spans.splice(1);
  }
}

/**
 * `work` in a child span of `parent` named `name`, ended however it ends (a thrown error's name on
 * it); without a parent (no trace), just `work()`.
 */
export function traced<T>(
  parent: Span | undefined,
  name: string,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!parent) return work(undefined);
  const span = parent.child(name, attributes, kind);
  return (async () => {
    try {
      return await work(span);
    } catch (err) {
      span.fail(err instanceof Error ? err.name : typeof err);
      throw err;
    } finally {
      span.end();
    }
  })();
}
