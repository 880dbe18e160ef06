// Section 3: what an in-code tool call costs over calling the same upstream directly, with
// server-everything's `echo`:
//   direct:  N sequential SDK `callTool` round trips on one connected client (no gateway);
//   (a)      the mean of N sequential `await tools.everything.echo(...)` in ONE execute, from its
//            stats.calls entry (the gateway's time of each call summed per tool: isolate -> bridge
//            RPC -> validation -> upstream -> unwrap; Date.now(), 1 ms steps);
//   (b)      p50 of an execute making one echo call minus p50 of an execute of trivial code, over
//            REST, interleaved so drift hits both alike.
import { ms, percentile, timeSequential } from "./stats.mjs";

const MESSAGE = "bench";
const EXPECTED = `Echo: ${MESSAGE}`;
const WARMUP = 10;

async function directEcho(client) {
  const res = await client.callTool({ name: "echo", arguments: { message: MESSAGE } });
  const got = res.content?.[0]?.text;
  if (res.isError || got !== EXPECTED)
    throw new Error(`direct echo gave ${JSON.stringify(res).slice(0, 300)}`);
}

function inCodeLoop(n) {
  return `for (let i = 0; i < ${n}; i++) {
  const r = await tools.everything.echo({ message: ${JSON.stringify(MESSAGE)} });
  if (r !== ${JSON.stringify(EXPECTED)}) throw new Error("unexpected echo: " + JSON.stringify(r));
}
return ${n};`;
}

const SINGLE = `return await tools.everything.echo({ message: ${JSON.stringify(MESSAGE)} });`;
const TRIVIAL = "return 1 + 1";

async function inCode(gw, n) {
  await gw.execute(inCodeLoop(WARMUP));
  const out = await gw.execute(inCodeLoop(n));
  const calls = out.stats.calls ?? [];
  const echo = calls[0];
  if (
    out.result !== n ||
    calls.length !== 1 ||
    echo.name !== "everything.echo" ||
    echo.count !== n ||
    echo.errors !== 0
  )
    throw new Error(`in-code loop: result ${out.result}, calls ${JSON.stringify(calls.slice(0, 3))}`);
  return { mean: echo.ms / n, durationMs: out.stats.durationMs };
}

async function endToEnd(gw, n) {
  const single = [];
  const trivial = [];
  const timed = async (code, into, expected) => {
    const t0 = performance.now();
    const out = await gw.execute(code);
    into?.push(performance.now() - t0);
    if (out.result !== expected)
      throw new Error(`${code}: expected ${expected}, got ${JSON.stringify(out.result)}`);
  };
  for (let i = 0; i < WARMUP; i++) {
    await timed(TRIVIAL, undefined, 2);
    await timed(SINGLE, undefined, EXPECTED);
  }
  for (let i = 0; i < n; i++) {
    await timed(TRIVIAL, trivial, 2);
    await timed(SINGLE, single, EXPECTED);
  }
  return { single, trivial };
}

export async function runOverhead({ gw, everythingClient, calls }) {
  for (let i = 0; i < WARMUP; i++) await directEcho(everythingClient);
  const direct = await timeSequential(calls, () => directEcho(everythingClient));
  const a = await inCode(gw, calls);
  const b = await endToEnd(gw, calls);

  const d50 = percentile(direct, 50);
  const b50 = percentile(b.single, 50) - percentile(b.trivial, 50);
  const over = (x) => `${x - d50 >= 0 ? "+" : ""}${ms(x - d50)} over direct (${(x / d50).toFixed(2)}x)`;
  console.log(
    `\n== 4. Overhead of an in-code tool call: server-everything echo, ${calls} sequential calls each`,
  );
  console.log(`direct SDK client callTool (one session):  p50 ${ms(d50)}, p90 ${ms(percentile(direct, 90))}`);
  console.log(
    `(a) in-code stats.calls ms / count, one execute: mean ${ms(a.mean)} (execute took ${a.durationMs} ms)  -> ${over(a.mean)}`,
  );
  console.log(
    `(b) execute with 1 call vs trivial execute: p50 ${ms(percentile(b.single, 50))} vs ${ms(percentile(b.trivial, 50))} ` +
      `= ${ms(b50)} per call  -> ${over(b50)}`,
  );
  console.log(
    `    (p90 ${ms(percentile(b.single, 90))} vs ${ms(percentile(b.trivial, 90))}; REST /v1/execute, measured from this process)`,
  );
}
