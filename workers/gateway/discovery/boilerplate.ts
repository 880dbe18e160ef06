import type { CatalogTool } from "../../../shared/contract/tools";
import { FIELDS, type FieldName, type FieldStems } from "./fields";

/** Description fields, where a server's tools may repeat the same text (`Error Responses: 400: …`). */
const DESCRIBING: FieldName[] = ["lead", "body"];
const DESCRIBING_AT = DESCRIBING.map((name) => FIELDS.findIndex(({ field }) => field === name));
/** A run of this many stems found in at least SHARED of a server's descriptions is boilerplate. */
const RUN = 3;
const SHARED = 0.6;
/** Servers with fewer tools keep their text: there is too little to tell boilerplate from a theme. */
const MIN_TOOLS = 4;

const SERVER = FIELDS.findIndex(({ field }) => field === "server");

/**
 * The tools' stems without the text most of their server's descriptions repeat word for word
 * ("Error Responses: 400: Bad request" after each Notion tool, "This command can be referenced as
 * 'DC: …'" in each Desktop Commander one): it says nothing about what one tool does, yet a query
 * word that meets it (an `error`) would find every tool of the server. With a single server, its
 * name and description go too: they are in every tool, and as BM25 counts it each of their words
 * would then be worth nothing however much the tools' own text uses it (`tickets` of
 * `list_tickets` on a support desk's server). The stems given are not changed.
 */
export function withoutBoilerplate(tools: CatalogTool[], stems: FieldStems[]): FieldStems[] {
  const byServer = new Map<string, number[]>();
  for (const [i, tool] of tools.entries()) {
    const members = byServer.get(tool.server);
    if (members) members.push(i);
    else byServer.set(tool.server, [i]);
  }
  const out = byServer.size === 1 ? stems.map((fields) => fields.with(SERVER, [])) : [...stems];
  for (const members of byServer.values()) {
    if (members.length < MIN_TOOLS) continue;
    const common = sharedRuns(members.map((i) => DESCRIBING_AT.flatMap((f) => runs(stems[i]![f]!))));
    if (common.size === 0) continue;
    for (const i of members) {
      const copy = [...out[i]!];
      for (const f of DESCRIBING_AT) copy[f] = strip(copy[f]!, common);
      out[i] = copy;
    }
  }
  return out;
}

function runs(field: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + RUN <= field.length; i++) out.push(field.slice(i, i + RUN).join(" "));
  return out;
}

/** Runs found in at least SHARED of the descriptions. */
function sharedRuns(perTool: string[][]): Set<string> {
  const counts = new Map<string, number>();
  for (const list of perTool) for (const run of new Set(list)) counts.set(run, (counts.get(run) ?? 0) + 1);
  const needed = Math.ceil(perTool.length * SHARED);
  return new Set([...counts].filter(([, n]) => n >= needed).map(([run]) => run));
}

/** The field without the stems that a shared run covers. */
function strip(field: string[], common: Set<string>): string[] {
  const covered = new Array<boolean>(field.length).fill(false);
  for (let i = 0; i + RUN <= field.length; i++) {
    if (common.has(field.slice(i, i + RUN).join(" "))) covered.fill(true, i, i + RUN);
  }
  return field.filter((_, i) => !covered[i]);
}
