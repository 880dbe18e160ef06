// Run by `npm run build`: every per-team environment in wrangler.toml ([env.<team>]) is read with
// wrangler's own validation (an invalid one fails here, so one deploy dry-run covers the bundle they
// all share), and must repeat each binding and var of the top level, because wrangler does not
// inherit vars, kv_namespaces, durable_objects, services, worker_loaders (and most other bindings)
// into environments. Names and kinds are compared, not values: a team may have its own vars, KV ids
// and Durable Object namespaces.
import { experimental_readRawConfig, unstable_readConfig } from "wrangler";
import { root } from "./root.mjs";

const config = process.argv[2] ?? `${root}/wrangler.toml`;

/** Binding lists wrangler does not inherit, and how one entry is named. */
const LISTS = {
  "durable_objects.bindings": (b) => `${b.name} (${b.class_name})`,
  kv_namespaces: (b) => b.binding,
  r2_buckets: (b) => b.binding,
  d1_databases: (b) => b.binding,
  services: (b) => `${b.binding} (${b.service})`,
  worker_loaders: (b) => b.binding,
  "queues.producers": (b) => b.binding,
  workflows: (b) => b.binding,
  hyperdrive: (b) => b.binding,
  vectorize: (b) => b.binding,
  analytics_engine_datasets: (b) => b.binding,
  ratelimits: (b) => b.name,
  "unsafe.bindings": (b) => b.name,
  secrets_store_secrets: (b) => b.binding,
  send_email: (b) => b.name,
  dispatch_namespaces: (b) => b.binding,
  mtls_certificates: (b) => b.binding,
  pipelines: (b) => b.binding,
};
const SINGLE = ["ai", "browser", "images", "version_metadata"];

function bindings(env) {
  const c = unstable_readConfig({ config, env }, { hideWarnings: true });
  const names = new Set(Object.keys(c.vars ?? {}).map((v) => `vars.${v}`));
  for (const [path, name] of Object.entries(LISTS)) {
    const list = path.split(".").reduce((o, k) => o?.[k], c) ?? [];
    for (const b of list) names.add(`${path}: ${name(b)}`);
  }
  for (const key of SINGLE) if (c[key]?.binding) names.add(`${key}: ${c[key].binding}`);
  return { name: c.name, names };
}

const top = bindings(undefined);
const envs = Object.keys(experimental_readRawConfig({ config }).rawConfig.env ?? {});
const problems = [];
for (const env of envs) {
  const { name, names } = bindings(env);
  const missing = [...top.names].filter((n) => !names.has(n));
  const extra = [...names].filter((n) => !top.names.has(n));
  if (name === top.name)
    problems.push(`[env.${env}] deploys under the top-level name "${name}": set its own name`);
  if (missing.length) problems.push(`[env.${env}] lacks what the top level has: ${missing.join(", ")}`);
  if (extra.length) problems.push(`[env.${env}] has what the top level lacks: ${extra.join(", ")}`);
}
if (problems.length) {
  console.error(
    `wrangler.toml: environments do not inherit bindings or vars; repeat them.\n  ${problems.join("\n  ")}`,
  );
  process.exit(1);
}
console.log(
  `wrangler.toml: ${envs.length ? envs.map((e) => `[env.${e}]`).join(", ") : "no environment"} in step with the top level (${top.names.size} bindings and vars)`,
);
