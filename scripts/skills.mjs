// `npm run skills -- export <dir>` / `import <dir>`: a team's skills as folders of files, so they can
// live in git. Plain Node, no dependencies; the gateway's REST API with an API key (README "Skills").
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CliError, requestGateway } from "./lib/cli-request.mjs";
import { defaultGatewayUrl } from "./lib/dev-address.mjs";
import { readDevKey } from "./lib/dev-vars.mjs";
import { parseSkillMd } from "./lib/skill-md.mjs";

const USAGE = `Usage: npm run skills -- <command> <dir> [options]

Commands
  export <dir>   write each skill of the key's team to <dir>/<name>/: SKILL.md (front matter
                 name, description, language, version; the code), skill.ts or, for a Python
                 skill, skill.py (the code) and, when the skill has them, input-schema.json and
                 output-schema.json
  import <dir>   save every <dir>/<name>/ holding a SKILL.md: name, description and language from
                 its front matter, the code from skill.ts or skill.py (Python; else SKILL.md's
                 first fenced code block), the inputSchema / outputSchema from input-schema.json /
                 output-schema.json when present. Each save is a new version.

Options
  --url <url>    the gateway (default: $GATEWAY_URL, else http://127.0.0.1:$PORT,
                 where npm run dev serves; PORT 8787)
  --key <key>    an API key of the team (default: $API_KEY, else DEV_API_KEY in .dev.vars)
  -h, --help     this text

Example
  npm run skills -- export skills/ && git add skills/
  npm run skills -- --url https://code-mcp-gateway-acme.example.workers.dev --key "$ACME_KEY" import skills/
`;

function parse(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { url: { type: "string" }, key: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new CliError(`${err instanceof Error ? err.message : err}\nRun with --help for usage.`);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === "help") return { help: true };
  const [command, dir, ...rest] = positionals;
  if (command !== "export" && command !== "import")
    throw new CliError(
      command ? `Unknown command "${command}": export or import.` : `No command given.\n\n${USAGE}`,
    );
  if (!dir || rest.length) throw new CliError(`Usage: ${command} <dir> (see --help)`);
  return { command, dir, values };
}

function target(values) {
  const url = (values.url ?? defaultGatewayUrl()).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]/.test(url)) throw new CliError(`Not an http(s) URL: ${url}`);
  const key = values.key || process.env.API_KEY || readDevKey();
  if (!key)
    throw new CliError(
      "No API key: pass --key, set API_KEY, or run npm run dev once (DEV_API_KEY in .dev.vars).",
    );
  return { url, key };
}

/** One request to /v1/skills…: the answer's text, or a CliError with the server's message. */
async function call(t, method, path, { body, accept = "application/json" } = {}) {
  const url = `${t.url}/v1/skills${path}`;
  const res = await requestGateway(url, { method, bearer: t.key, accept, body });
  const text = await res.text();
  if (res.ok) return text;
  let error;
  try {
    error = JSON.parse(text)?.error;
  } catch {}
  const detail = error?.message
    ? `${error.code ? `${error.code}: ` : ""}${error.message}`
    : text.slice(0, 300) || res.statusText;
  throw new CliError(`${method} /v1/skills${path} failed: HTTP ${res.status} ${detail}`);
}

const seg = encodeURIComponent;
/** The file of a skill's folder that holds its code: TypeScript or JavaScript, and Python. */
const CODE_FILES = ["skill.ts", "skill.py"];
/** A skill's schemas and the files of its folder that hold them. */
const SCHEMA_FILES = [
  ["inputSchema", "input-schema.json"],
  ["outputSchema", "output-schema.json"],
];

async function exportSkills(t, dir) {
  const { skills } = JSON.parse(await call(t, "GET", ""));
  for (const { name } of skills) {
    const record = JSON.parse(await call(t, "GET", `/${seg(name)}`));
    const md = await call(t, "GET", `/${seg(name)}?version=${record.version}`, { accept: "text/markdown" });
    const folder = join(dir, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "SKILL.md"), md);
    const [codeFile, otherFile] = record.language === "python" ? CODE_FILES.toReversed() : CODE_FILES;
    writeFileSync(join(folder, codeFile), record.code);
    rmSync(join(folder, otherFile), { force: true });
    for (const [field, file] of SCHEMA_FILES) {
      const schemaFile = join(folder, file);
      if (record[field]) writeFileSync(schemaFile, `${JSON.stringify(record[field], null, 2)}\n`);
      else rmSync(schemaFile, { force: true });
    }
    console.log(`exported ${name} v${record.version}`);
  }
  if (skills.length === 0) console.log("The team has no skills.");
}

/** What one folder says a skill is. */
function readSkillFolder(folder, name) {
  const { fields, code: fenced } = parseSkillMd(readFileSync(join(folder, "SKILL.md"), "utf8"));
  const file = CODE_FILES.find((f) => existsSync(join(folder, f)));
  const code = file ? readFileSync(join(folder, file), "utf8") : fenced;
  if (code === undefined) throw new Error("no skill.ts or skill.py, and SKILL.md has no fenced code block");
  const language = file === "skill.py" ? "python" : fields.language;
  const body = { description: fields.description, code, ...(language ? { language } : {}) };
  for (const [field, file] of SCHEMA_FILES) {
    const schemaFile = join(folder, file);
    if (!existsSync(schemaFile)) continue;
    try {
      body[field] = JSON.parse(readFileSync(schemaFile, "utf8"));
    } catch (err) {
      throw new Error(`${file} is not valid JSON (${err instanceof Error ? err.message : err})`);
    }
  }
  return { name: fields.name ?? name, body };
}

async function importSkills(t, dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw new CliError(`Cannot read ${dir}: ${err instanceof Error ? err.message : err}`);
  }
  const folders = entries
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, "SKILL.md")))
    .map((e) => e.name)
    .sort();
  if (folders.length === 0) throw new CliError(`No skill folders (<name>/SKILL.md) in ${dir}`);
  let failed = 0;
  for (const folder of folders) {
    try {
      let skill;
      try {
        skill = readSkillFolder(join(dir, folder), folder);
      } catch (err) {
        throw new CliError(`${join(dir, folder)}: ${err instanceof Error ? err.message : err}`);
      }
      const saved = JSON.parse(await call(t, "PUT", `/${seg(skill.name)}`, { body: skill.body }));
      console.log(`saved ${saved.name} v${saved.version}`);
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      console.error(`skills: ${err.message}`);
      failed++;
    }
  }
  if (failed) throw new CliError(`${failed} of ${folders.length} skills not saved`);
}

try {
  const parsed = parse(process.argv.slice(2));
  if (parsed.help) console.log(USAGE);
  else if (parsed.command === "export") await exportSkills(target(parsed.values), parsed.dir);
  else await importSkills(target(parsed.values), parsed.dir);
} catch (err) {
  if (!(err instanceof CliError)) throw err;
  console.error(`skills: ${err.message}`);
  process.exitCode = 1;
}
