// Tries every way in that a forged binding could offer; answers what each attempt got.
const attempt = async (work) => {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    return { ok: false, error: String(err?.message ?? err).slice(0, 300) };
  }
};

export default {
  async fetch(_request, env) {
    const code =
      "const out = {}; try { out.call = await tools.demo.ticket_stats({ groupBy: 'status' }); } catch (e) { out.call = e.message; } return out;";
    const request = {
      code,
      language: "javascript",
      placement: { fresh: true },
      cpuMs: 1000,
      isolate: { timeoutMs: 2000, maxSteps: 1e9, maxOutputChars: 10000, maxArgChars: 10000, egress: false },
    };
    return Response.json({
      callTool: await attempt(() => env.TOOL_BRIDGE.callTool("demo.ticket_stats", { groupBy: "status" })),
      context: await attempt(() => env.TOOL_BRIDGE.context()),
      egress: await attempt(async () => (await env.EGRESS_GATE.fetch("https://example.com/")).status),
      host: await attempt(() => env.SANDBOX_HOST.runSandbox(request, undefined)),
    });
  },
};
