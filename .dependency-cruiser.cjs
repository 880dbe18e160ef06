// The import rules `npm run layers` checks (part of `npm run check`): no import cycle anywhere in the
// tree, and the gateway's folders in layers that import only downward (docs/architecture.md#layers).
// There is no list of known violations: any violation fails.

const G = "^workers/gateway/";

/** The gateway's layers, top to bottom; each may import only from the layers after it. */
const LAYERS = [
  ["edge", `${G}(http|context|routes|mcp|oauth|dashboard|runs)/|${G}(index|app)\\.ts$`],
  ["execution", `${G}(operations|execution|bridge|approvals)/`],
  ["catalog", `${G}(upstreams|discovery|openapi)/`],
  [
    "state",
    `${G}(request|teams|admission|sessions|skills|audit|egress|write-behind|timing|tracing|connections)/`,
  ],
  ["base", `${G}(env|config|tracing-config|errors|version)\\.ts$`],
];
const LAYERED = LAYERS.map(([, path]) => `(${path})`).join("|");

const upward = LAYERS.slice(1).map(([name, path], i) => ({
  name: `gateway-${name}-imports-upward`,
  comment: `The gateway's ${name} layer imports from a layer above it (${LAYERS.slice(0, i + 1)
    .map(([above]) => above)
    .join(", ")}): move the shared piece down, or pass a function in.`,
  severity: "error",
  from: { path },
  to: { path: LAYERS.slice(0, i + 1).map(([, above]) => `(${above})`) },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle: move the type or constant both sides need down, or pass a function in.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: "gateway-folder-without-layer",
      comment: `A file in workers/gateway/ that no layer holds: add its folder to a layer in .dependency-cruiser.cjs.`,
      severity: "error",
      from: { path: G, pathNot: LAYERED },
      to: {},
    },
    {
      name: "gateway-import-without-layer",
      comment: `An import of a file in workers/gateway/ that no layer holds: add its folder to a layer in .dependency-cruiser.cjs.`,
      severity: "error",
      from: {},
      to: { path: G, pathNot: LAYERED },
    },
    {
      name: "shared-imports-above",
      comment:
        "shared/ is below everything: it imports nothing from workers/, durable-objects/, scripts/ or test/.",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: "^(workers|durable-objects|scripts|test|bench)/" },
    },
    {
      name: "durable-objects-import-above",
      comment: "durable-objects/ sit under the Workers: they import from shared/ only.",
      severity: "error",
      from: { path: "^durable-objects/" },
      to: { path: "^(workers|scripts|test|bench)/" },
    },
    {
      name: "sandbox-imports-gateway",
      comment: "The sandbox is under the gateway: workers/sandbox/ does not import workers/gateway/.",
      severity: "error",
      from: { path: "^workers/sandbox/" },
      to: { path: G },
    },
  ],
  options: {
    doNotFollow: { path: "(^|/)node_modules/" },
    // Built files (scripts/build-sandbox.mjs, which another step of `npm run check` may be writing).
    exclude: {
      path: "(^|/)(node_modules|\\.wrangler)/|^workers/sandbox/(generated\\.ts$|python/dist/|quickjs/dist/)",
    },
    tsConfig: { fileName: "tsconfig.json" },
    // A type-only import is an arrow too.
    tsPreCompilationDeps: true,
    progress: { type: "none" },
  },
};
