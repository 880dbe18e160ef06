// Prints a wrangler config file as JSON, as written (not normalized): `node read-wrangler-config.mjs <path>`.
// A separate process because importing wrangler installs its own SIGINT handler (exit 0 without
// cleanup), which would take Ctrl-C away from the bench.
import { experimental_readRawConfig } from "wrangler";

const [path] = process.argv.slice(2);
if (!path) throw new Error("usage: read-wrangler-config.mjs <wrangler config>");
process.stdout.write(JSON.stringify(experimental_readRawConfig({ config: path }).rawConfig));
