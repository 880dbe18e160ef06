// `wrangler dev` attaches to workerd's inspector and enables its Network domain (for the DevTools
// network tab): workerd then reports every fetch() a worker makes, and wrangler relays each event
// through its inspector proxy to its Node process. Measured here with 200 in-code calls of
// server-everything's `echo`: ~3.5 ms of workerd CPU and ~5 ms of Node CPU per upstream tool call
// (6.5 → 3.0 ms workerd, 5 → 0.2 ms Node with it off). A deployed Worker has no inspector attached
// and never pays this, so the bench turns the domain off, as it runs the gateway at LOG_LEVEL=warn
// for the same reason. It connects as the one DevTools client wrangler allows (wrangler then also
// sends Debugger.disable) and stays connected until the bench ends; console output still reaches
// wrangler.
import WebSocket from "ws";

/** Disables the Network domain of every inspector target on `port`; resolves to a close function. */
export async function disableNetworkEvents(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const sockets = [];
  try {
    for (const target of targets) {
      const ws = new WebSocket(target.webSocketDebuggerUrl);
      sockets.push(ws);
      await new Promise((resolve, reject) => {
        ws.once("open", resolve);
        ws.once("error", reject);
      });
      await new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${target.title}: no answer to Network.disable`)),
          10_000,
        );
        ws.on("message", (data) => {
          const message = JSON.parse(String(data));
          if (message.id !== 1) return;
          clearTimeout(timer);
          if (message.error) reject(new Error(`${target.title}: Network.disable: ${message.error.message}`));
          else resolve();
        });
        ws.send(JSON.stringify({ id: 1, method: "Network.disable" }));
      });
    }
  } catch (err) {
    for (const ws of sockets) ws.terminate();
    throw err;
  }
  return () => {
    for (const ws of sockets) ws.close();
  };
}
