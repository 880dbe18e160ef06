import { WorkerEntrypoint } from "cloudflare:workers";
import { DynamicWorkerExecutor } from "@cloudflare/codemode";

interface BenchEnv {
  LOADER: WorkerLoader;
  GATEWAY: Fetcher;
  CODEMODE: Fetcher;
  DEV_API_KEY?: string;
}

/**
 * Benchmark baseline for `npm run bench`: POST /codemode/execute {code} runs `code` (an async arrow
 * function expression) with codemode's DynamicWorkerExecutor, a fresh Worker-Loader isolate per call.
 */
export class CodemodeRunner extends WorkerEntrypoint<BenchEnv> {
  override async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/codemode/live") {
      return Response.json({ status: "ok", worker: "bench-codemode" });
    }
    if (request.method !== "POST" || pathname !== "/codemode/execute") {
      return Response.json({ error: "use POST /codemode/execute" }, { status: 404 });
    }
    const key = this.env.DEV_API_KEY;
    if (key && request.headers.get("X-API-Key") !== key) {
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    const { code } = await request.json<{ code: string }>();
    const started = Date.now();
    const out = await new DynamicWorkerExecutor({ loader: this.env.LOADER }).execute(code, []);
    return Response.json({ ...out, stats: { durationMs: Date.now() - started } });
  }
}

/** Router: /codemode/* to the runner above, everything else to the gateway (one hop each). */
export default {
  fetch(request, env): Promise<Response> {
    const { pathname } = new URL(request.url);
    return (pathname.startsWith("/codemode/") ? env.CODEMODE : env.GATEWAY).fetch(request);
  },
} satisfies ExportedHandler<BenchEnv>;
