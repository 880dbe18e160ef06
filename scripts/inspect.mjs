// `npm run inspect [-- <inspector CLI options>]`: the MCP Inspector's CLI (pinned in package-lock,
// 0.21.2: runs on Node 20 and sends --header) against the gateway `npm run dev` serves, with the
// key from .dev.vars. Without options it lists the tools; for example
//   npm run inspect -- --method tools/call --tool-name execute --tool-arg 'code=return 6*7'
// GATEWAY_URL (default http://127.0.0.1:$PORT, PORT 8787) and API_KEY override the defaults.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { defaultGatewayUrl } from "./lib/dev-address.mjs";
import { readDevKey } from "./lib/dev-vars.mjs";
import { root } from "./lib/root.mjs";

const CLI = join(root, "node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
const base = defaultGatewayUrl();
const key = process.env.API_KEY ?? readDevKey();
if (!key) {
  console.error(
    "[inspect] no API key: run `npm run dev` once (it writes DEV_API_KEY to .dev.vars) or set API_KEY",
  );
  process.exit(1);
}
const options = process.argv.slice(2);
const args = [
  CLI,
  `${base}/mcp`,
  "--transport",
  "http",
  "--header",
  `Authorization: Bearer ${key}`,
  ...(options.length > 0 ? options : ["--method", "tools/list"]),
];
// The CLI picks the package.json it names itself after by testing "../package.json" against the
// working directory but imports it relative to its own file: run it from its build/ folder.
const child = spawn(process.execPath, args, { stdio: "inherit", cwd: dirname(CLI) });
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
