import { z } from "zod";

/** The samplers of OTEL_TRACES_SAMPLER this gateway knows (the OpenTelemetry SDK's names). */
const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

const unsetIfEmpty = (raw: unknown) => (raw === "" ? undefined : raw);

function httpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** An http(s) URL, or unset. */
const url = z.preprocess(
  unsetIfEmpty,
  z
    .string()
    .refine(httpUrl, {
      error: "expected an http:// or https:// URL",
    })
    .optional(),
);

/** `key=value,key2=value2`, values percent-encoded (the OTLP exporter's format). */
const headerList = z.preprocess(
  unsetIfEmpty,
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const headers: Record<string, string> = {};
      for (const pair of (raw ?? "").split(",")) {
        if (pair.trim() === "") continue;
        const at = pair.indexOf("=");
        const name = at > 0 ? pair.slice(0, at).trim() : "";
        if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
          ctx.addIssue({ code: "custom", message: "expected key=value pairs separated by commas" });
          return z.NEVER;
        }
        try {
          headers[name] = decodeURIComponent(pair.slice(at + 1).trim());
        } catch {
          ctx.addIssue({ code: "custom", message: `the value of ${name} is not valid percent-encoding` });
          return z.NEVER;
        }
      }
      return headers;
    }),
);

/** The variables of traces, spread into the configuration's schema (config.ts). */
export const TRACING_VARS = {
  OTEL_EXPORTER_OTLP_ENDPOINT: url,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url,
  OTEL_EXPORTER_OTLP_PROTOCOL: z.preprocess(
    unsetIfEmpty,
    z
      .enum(["http/protobuf", "http/json"], { error: 'expected "http/protobuf" or "http/json"' })
      .default("http/protobuf"),
  ),
  OTEL_EXPORTER_OTLP_HEADERS: headerList,
  OTEL_TRACES_SAMPLER: z.preprocess(
    unsetIfEmpty,
    z.enum(SAMPLERS, { error: `expected one of ${SAMPLERS.join(", ")}` }).default("parentbased_always_on"),
  ),
  OTEL_TRACES_SAMPLER_ARG: z.preprocess(
    (raw) => (raw === undefined || raw === "" ? undefined : Number(raw)),
    z
      .number({ error: "expected a number from 0 to 1" })
      .min(0, { error: "expected a number from 0 to 1" })
      .max(1, { error: "expected a number from 0 to 1" })
      .default(1),
  ),
  OTEL_SERVICE_NAME: z.preprocess(unsetIfEmpty, z.string().max(200).default("code-mcp-gateway")),
  TRACE_ARGUMENTS: z.preprocess(
    unsetIfEmpty,
    z.enum(["off", "clipped"], { error: 'expected "off" or "clipped"' }).default("off"),
  ),
  TRACE_LINK: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .refine((t) => t.includes("{traceId}") && httpUrl(t.replace("{traceId}", "0")), {
        error: "expected a URL with {traceId} in it",
      })
      .optional(),
  ),
};

type TracingVars = z.output<z.ZodObject<typeof TRACING_VARS>>;

/** Where spans go and which are kept; `endpoint` unset: none are made or sent. */
export interface TracingConfig {
  /** the OTLP/HTTP traces URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces) */
  endpoint: string | undefined;
  protocol: "http/protobuf" | "http/json";
  /** OTEL_EXPORTER_OTLP_HEADERS: sent to the collector only (secrets) */
  headers: Record<string, string>;
  /** the root decision: keep this share of new traces (1: all, 0: none) */
  ratio: number;
  /** a remote parent's sampled flag decides instead of `ratio` */
  parentBased: boolean;
  serviceName: string;
  /** TRACE_ARGUMENTS=clipped: tool calls' arguments, clipped, PII replaced, on their spans */
  clippedArguments: boolean;
  /** TRACE_LINK: the dashboard links a trace id here (`{traceId}` replaced) */
  link: string | undefined;
}

export function tracingConfig(v: TracingVars): TracingConfig {
  const base = v.OTEL_EXPORTER_OTLP_ENDPOINT;
  const sampler = v.OTEL_TRACES_SAMPLER;
  return {
    endpoint:
      v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base.replace(/\/$/, "")}/v1/traces` : undefined),
    protocol: v.OTEL_EXPORTER_OTLP_PROTOCOL,
    headers: v.OTEL_EXPORTER_OTLP_HEADERS,
    ratio: sampler.endsWith("always_on") ? 1 : sampler.endsWith("always_off") ? 0 : v.OTEL_TRACES_SAMPLER_ARG,
    parentBased: sampler.startsWith("parentbased_"),
    serviceName: v.OTEL_SERVICE_NAME,
    clippedArguments: v.TRACE_ARGUMENTS === "clipped",
    link: v.TRACE_LINK,
  };
}
