import type { CatalogTool } from "../../../shared/contract/tools";
import { type Bm25Index, buildIndex } from "./bm25";
import { withoutBoilerplate } from "./boilerplate";
import { toolFields } from "./fields";
import { serverKeys } from "./servers";
import { type ToolDoc, toolDocs } from "./tool-doc";

/** A server as discovery knows it: its name and what it is for. */
export interface ServerInfo {
  name: string;
  description?: string;
}

/** Everything about a catalog's text that does not depend on the query. */
interface Built {
  docs: ToolDoc[];
  bm25: Bm25Index;
  /** stems that name a server (`github`, `kubernetes` for `k8s`, `google` of `google-maps`) → servers */
  servers: Map<string, string[]>;
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
 * Per-isolate state: each request has a new catalog array, nearly always with the same tools as the last:
 * indexes by the catalog's text, the few most recent.
 */
const perText = new Map<string, Built>();
const RECENT_CATALOGS = 8;

export function catalogIndex(tools: CatalogTool[], servers?: ServerInfo[]): CatalogIndex {
  const cached = perArray.get(tools);
  if (cached && cached.from === servers) return cached;
  const described = new Map((servers ?? []).map((s) => [s.name, s.description]));
  const fields = tools.map((tool) => toolFields(tool, described.get(tool.server)));
  const names = [...new Set([...(servers ?? []).map((s) => s.name), ...tools.map((tool) => tool.server)])];
  const key = `${names.join(" ")}\u0001${fields.map((f) => f.id).join(",")}`;
  let built = perText.get(key);
  if (built === undefined) {
    const stems = withoutBoilerplate(
      tools,
      fields.map((f) => f.stems),
    );
    const docs = toolDocs(tools, stems);
    built = { docs, bm25: buildIndex(stems), servers: serverKeys(names, docs) };
  }
  perText.delete(key);
  perText.set(key, built);
  if (perText.size > RECENT_CATALOGS) perText.delete(perText.keys().next().value ?? "");
  const index: CatalogIndex = { ...built, tools, ...(servers ? { from: servers } : {}) };
  perArray.set(tools, index);
  return index;
}
