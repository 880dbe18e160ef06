import type { CatalogTool } from "../../../shared/contract/tools";
import { type Bm25Index, buildIndex } from "./bm25";
import { withoutBoilerplate } from "./boilerplate";
import { type ToolFields, toolFields } from "./fields";
import { serverKeys } from "./servers";
import { type ToolDoc, toolDocs } from "./tool-doc";

/** A server as discovery knows it: its name and what it is for. */
export interface ServerInfo {
  name: string;
  description?: string;
}

/**
 * Everything about a catalog's text that does not depend on the query: per tool its stems' postings
 * and what ranking reads of its name (ToolDoc), nothing of its schemas.
 */
interface Built {
  docs: ToolDoc[];
  bm25: Bm25Index;
  /** stems that name a server (`github`, `kubernetes` for `k8s`, `google` of `google-maps`) → servers */
  servers: Map<string, string[]>;
  /** each server's tools, as indexes of `docs` */
  byServer: Map<string, number[]>;
  /** the names code or an agent may write for a tool (ToolDoc.exact) and its name's words → tools */
  written: Map<string, number[]>;
  /** each tool's place among the tools ordered by qualified name (how ties are broken) */
  nameOrder: Uint32Array;
  /** the tools' qualified names, in the order of `docs`: a catalog found by version must have them */
  names: string[];
}

export interface CatalogIndex extends Built {
  /** this request's tools, in the order of `docs` */
  tools: CatalogTool[];
  /** the server list it was built with */
  from?: ServerInfo[];
}

/**
 * Per-isolate state: catalog arrays are reused within a request (and denied tools are already out):
 * index each once.
 */
const perArray = new WeakMap<CatalogTool[], CatalogIndex>();
/**
 * Per-isolate state: the indexes of the few most recent catalogs, found by the catalog's version
 * (`v` + Catalog.version: its team, each server's tool-list version, the team's renames and lists),
 * or, for a catalog without one, by its text (`t` + its servers and each tool's text number: every
 * tool's fields are read again). At most RECENT_CATALOGS, and no more than KEPT_TOOLS tools in all
 * but the newest.
 */
const recent = new Map<string, Built>();
const RECENT_CATALOGS = 8;
const KEPT_TOOLS = 20_000;

/** The index of `tools`, built once per catalog `version` (or text, without one) and isolate. */
export function catalogIndex(tools: CatalogTool[], servers?: ServerInfo[], version?: string): CatalogIndex {
  const cached = perArray.get(tools);
  if (cached && cached.from === servers) return cached;
  const described = new Map((servers ?? []).map((s) => [s.name, s.description]));
  const listed = (servers ?? []).map((s) => `${s.name}\u0002${s.description ?? ""}`).join("\u0001");
  let key: string;
  let fields: ToolFields[] | undefined;
  if (version === undefined) {
    fields = tools.map((tool) => toolFields(tool, described.get(tool.server)));
    key = `t${listed}\u0001${fields.map((f) => f.id).join(",")}`;
  } else key = `v${version}\u0001${listed}`;
  let built = recent.get(key);
  if (built === undefined || !sameTools(built, tools)) {
    fields ??= tools.map((tool) => toolFields(tool, described.get(tool.server), false));
    const names = [...new Set([...(servers ?? []).map((s) => s.name), ...tools.map((tool) => tool.server)])];
    built = build(tools, names, fields);
  }
  keep(key, built);
  const index: CatalogIndex = { ...built, tools, ...(servers ? { from: servers } : {}) };
  perArray.set(tools, index);
  return index;
}

function build(tools: CatalogTool[], servers: string[], fields: ToolFields[]): Built {
  const stems = withoutBoilerplate(
    tools,
    fields.map((f) => f.stems),
  );
  const docs = toolDocs(tools, stems);
  const byServer = new Map<string, number[]>();
  const written = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, d: number) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [d]);
    else if (list.at(-1) !== d) list.push(d);
  };
  tools.forEach((tool, d) => {
    add(byServer, tool.server, d);
    for (const name of [...docs[d]!.exact, docs[d]!.phrase]) add(written, name, d);
  });
  const names = tools.map((tool) => tool.qualifiedName);
  const nameOrder = new Uint32Array(tools.length);
  [...names.keys()]
    .sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0))
    .forEach((d, place) => {
      nameOrder[d] = place;
    });
  const bm25 = buildIndex(stems);
  return { docs, bm25, servers: serverKeys(servers, docs), byServer, written, nameOrder, names };
}

/** A version names the catalog's tools in order; a mismatch (a bug upstream) must not rank the wrong ones. */
function sameTools(built: Built, tools: CatalogTool[]): boolean {
  return (
    built.names.length === tools.length && tools.every((tool, d) => tool.qualifiedName === built.names[d])
  );
}

function keep(key: string, built: Built): void {
  recent.delete(key);
  recent.set(key, built);
  let kept = [...recent.values()].reduce((sum, b) => sum + b.docs.length, 0);
  for (const [old, b] of recent) {
    if (old === key || (recent.size <= RECENT_CATALOGS && kept <= KEPT_TOOLS)) break;
    recent.delete(old);
    kept -= b.docs.length;
  }
}
