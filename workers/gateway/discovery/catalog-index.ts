import { type CatalogTool, jsIdentifier } from "../../../shared/contract/tools";
import { type Bm25Index, buildIndex } from "./bm25";
import { toolFields } from "./fields";
import { serverKeys } from "./servers";
import { words } from "./tokenize";
import { verbGroup } from "./verbs";

/** A server as discovery knows it: its name and what it is for. */
export interface ServerInfo {
  name: string;
  description?: string;
}

/** What ranking keeps of one tool besides its postings. */
export interface ToolDoc {
  tool: CatalogTool;
  /** the stems of the tool's name (`list_pull_requests` → list, pull, request, pullrequest) */
  name: Set<string>;
  /** the verb group of the first action verb in its name, else of its description's first word */
  verb?: string;
  /** the names code or an agent may write for it, lowercase */
  exact: Set<string>;
  /** its name's words in order (`list_issues` → `list issues`) */
  phrase: string;
}

export interface CatalogIndex {
  docs: ToolDoc[];
  bm25: Bm25Index;
  /** stems that name a server (`github`, `k8s`'s `kubernetes`, `maps` of `google-maps`) → its names */
  servers: Map<string, string[]>;
  from?: ServerInfo[];
}

/** Catalog arrays are reused within a request: their index is built once. */
const cache = new WeakMap<CatalogTool[], CatalogIndex>();

export function catalogIndex(tools: CatalogTool[], servers?: ServerInfo[]): CatalogIndex {
  const cached = cache.get(tools);
  if (cached && cached.from === servers) return cached;
  const described = new Map((servers ?? []).map((s) => [s.name, s.description]));
  const fields = tools.map((tool) => toolFields(tool, described.get(tool.server)));
  const docs = tools.map((tool, i) => toolDoc(tool, fields[i]![0]!, fields[i]![2]!));
  const names = new Set([...(servers ?? []).map((s) => s.name), ...tools.map((tool) => tool.server)]);
  const index: CatalogIndex = {
    docs,
    bm25: buildIndex(fields),
    servers: serverKeys([...names], docs),
    ...(servers ? { from: servers } : {}),
  };
  cache.set(tools, index);
  return index;
}

function toolDoc(tool: CatalogTool, nameStems: string[], leadStems: string[]): ToolDoc {
  const js = jsIdentifier(tool.name);
  const exact = [tool.qualifiedName, tool.name, js, `${tool.server}.${js}`, `tools.${tool.server}.${js}`];
  const verb = nameStems.map(verbGroup).find(Boolean) ?? verbGroup(leadStems[0] ?? "");
  return {
    tool,
    name: new Set(nameStems),
    ...(verb ? { verb } : {}),
    exact: new Set(exact.map((name) => name.toLowerCase())),
    phrase: words(tool.name).join(" "),
  };
}
