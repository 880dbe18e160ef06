// Section 12: what traces cost. CPU per execution (the wrangler dev processes' CPU time, background
// work included: spans are sent after the response) with tracing off (the bench's own stack, no
// OTEL_EXPORTER_OTLP_ENDPOINT), and on a second stack of the same shape that exports OTLP/HTTP
// protobuf to a receiver in this process, sampled at 100 % (a sampled caller traceparent, parent-based)
// and at 1 % (no traceparent: OTEL_TRACES_SAMPLER=parentbased_traceidratio, _ARG 0.01). The three
// paths take turns in chunks, c=1; each execute makes one demo tool call (eight spans when sampled).
import { randomBytes, randomUUID } from "node:crypto";
import { startOtlpReceiver } from "../lib/otlp-receiver.mjs";
import { groupCpu } from "./cpu.mjs";
import { gatewayClient } from "./gateway-client.mjs";
import { startStack } from "./stack.mjs";
import { percentile, table } from "./stats.mjs";

const SETTLE_MS = 300;

/**
 * @param {{ off: { base: string, apiKey: string, group: number }, vars: Record<string, string>,
 *   requests: number, chunks: number, track: (stop: () => Promise<void>) => void }} options
 */
export async function runTraces({ off, vars, requests, chunks, track }) {
  console.log(
    `\n== 12. Traces: CPU per execution, tracing off / on at 100 % / on at 1 %, c=1, ${requests} executes each in ${chunks} alternating chunks (one demo tool call each)`,
  );
  const receiver = startOtlpReceiver();
  const port = await receiver.listening;
  const apiKey = `bench-traces-${randomUUID()}`;
  const stack = await startStack({
    apiKey,
    vars: {
      ...vars,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.01",
    },
    track,
  });
  try {
    const on = { base: stack.base, apiKey, group: stack.wrangler.child.pid };
    let n = 0;
    const code = () =>
      `const { tickets } = await tools.demo.list_tickets({ limit: 1 }); return ${++n} + tickets.length;`;
    const paths = [
      { name: "tracing off (no endpoint)", stack: off, headers: () => ({}) },
      {
        name: "on, 100 % (sampled traceparent)",
        stack: on,
        headers: () => ({
          traceparent: `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-01`,
        }),
      },
      { name: "on, 1 % (ratio sampler)", stack: on, headers: () => ({}) },
    ].map((p) => ({
      ...p,
      client: gatewayClient(p.stack.base, p.stack.apiKey),
      cpuMs: 0,
      runs: 0,
      times: [],
    }));
    for (const path of paths)
      for (let i = 0; i < 5; i++) await path.client.post("/v1/execute", { code: code() });
    const per = Math.max(1, Math.ceil(requests / chunks));
    for (let chunk = 0; chunk < chunks; chunk++) {
      for (const path of paths) {
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        const before = total(groupCpu(path.stack.group));
        for (let i = 0; i < per; i++) {
          const started = performance.now();
          const out = await path.client.post("/v1/execute", { code: code() }, path.headers());
          if (out.error) throw new Error(`section 12: ${JSON.stringify(out.error)}`);
          path.times.push(performance.now() - started);
        }
        await new Promise((r) => setTimeout(r, SETTLE_MS)); // the export after the response
        path.cpuMs += total(groupCpu(path.stack.group)) - before;
        path.runs += per;
      }
    }
    const offCpu = paths[0].cpuMs / paths[0].runs;
    console.log(
      table(
        ["path", "CPU ms / execution", "vs off", "p50 ms", "p90 ms"],
        paths.map((p) => [
          p.name,
          (p.cpuMs / p.runs).toFixed(2),
          `${((p.cpuMs / p.runs / offCpu - 1) * 100).toFixed(0)} %`,
          percentile(p.times, 50).toFixed(1),
          percentile(p.times, 90).toFixed(1),
        ]),
      ),
    );
    console.log(
      `collector: ${receiver.state.requests} OTLP POSTs (${receiver.state.protobufRequests} protobuf); CPU is 10 ms ticks of the wrangler dev processes, SETTLE_MS ${SETTLE_MS} before and after each chunk`,
    );
  } finally {
    await stack.stop();
    await receiver.close();
  }
}

const total = (byName) => Object.values(byName).reduce((a, b) => a + b, 0);
