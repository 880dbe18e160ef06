// `npm run check`, what CI runs after `npm ci`: two lanes side by side, each holding one core (tsc,
// and the unit suite's workerd, run one thread each), then the end-to-end suite alone (its stack is
// timing-sensitive: no other load beside it). Lane one: the import rules (`npm run layers`, a few
// seconds), tsc, the deploy dry-run, then installing the conformance suite's Node 22 toolchain for
// the end-to-end suite; lane two: Biome and the link check, then the unit suite (the longest step;
// measured in docs/development.md#ci). Each step's output is printed whole when it ends, with its
// time; the first failure ends the run once both lanes have stopped.
import { spawn } from "node:child_process";
import { root } from "./lib/root.mjs";

/** @typedef {{ name: string, command: string, args: string[] }} Step */

/** @returns {Step} */
const npmRun = (script) => ({ name: `npm run ${script}`, command: "npm", args: ["run", script] });

/** @returns {Step} */
const suite = (...names) => ({
  name: `the ${names.join(" and ")} suite${names.length > 1 ? "s" : ""}`,
  command: process.execPath,
  args: ["scripts/test.mjs", ...names],
});

const LANES = [
  [
    npmRun("layers"),
    npmRun("typecheck"),
    npmRun("build"),
    {
      name: "the conformance suite's toolchain",
      command: process.execPath,
      args: [
        "--input-type=module",
        "-e",
        'import { conformanceNode } from "./scripts/lib/toolchain.mjs"; console.log("Node for the conformance suite:", conformanceNode());',
      ],
    },
  ],
  [npmRun("lint"), suite("unit")],
];

/** Runs a step with its output held back, then prints the output and the time; resolves to ok. */
function runQuietly(step) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(step.command, step.args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (d) => output.push(d));
    child.stderr.on("data", (d) => output.push(d));
    child.on("error", (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on("close", (code, signal) => {
      const ok = code === 0;
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`::: ${step.name}\n${Buffer.concat(output).toString()}`);
      console.log(`::: ${step.name} ${ok ? "passed" : `failed (${code ?? signal})`} in ${seconds} s`);
      resolve(ok);
    });
  });
}

async function lane(steps) {
  for (const step of steps) if (!(await runQuietly(step))) return false;
  return true;
}

const started = Date.now();
const lanes = await Promise.all(LANES.map(lane));
console.log(
  `::: both lanes ${lanes.every(Boolean) ? "passed" : "failed"} in ${Math.round((Date.now() - started) / 1000)} s`,
);
if (!lanes.every(Boolean)) process.exit(1);

const e2e = suite("e2e", "e2e-isolate");
const test = spawn(e2e.command, e2e.args, { cwd: root, stdio: "inherit" });
const testStarted = Date.now();
test.on("close", (code, signal) => {
  console.log(
    `::: ${e2e.name} ${code === 0 ? "passed" : `failed (${code ?? signal})`} in ${Math.round((Date.now() - testStarted) / 1000)} s`,
  );
  process.exit(code ?? 1);
});
