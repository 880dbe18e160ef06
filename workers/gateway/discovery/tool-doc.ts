import { type CatalogTool, jsIdentifier } from "../../../shared/contract/tools";
import type { FieldStems } from "./fields";
import { words } from "./tokenize";
import { verbGroups } from "./verbs";

/** What ranking keeps of one tool besides its postings (nothing of its schemas: see catalog-index.ts). */
export interface ToolDoc {
  server: string;
  /** the stems of its name but its server's prefix (`slack_list_channels` → list, channel) */
  own: Set<string>;
  /** the verb groups of the verbs in its name and among its description's first words */
  verbs: Set<string>;
  /** the names code or an agent may write for it, lowercase */
  exact: Set<string>;
  /** its name's words in order (`list_issues` → `list issues`) */
  phrase: string;
  /** its name's words and pairs of adjacent words as written (`issues`, `pull requests`) */
  nameWords: Set<string>;
}

/** A description's verbs are among its first few words (`Notion | Create a page`, `Get or list …`). */
const LEAD_VERBS = 3;
/** A server with fewer tools has no prefix. */
const MIN_PREFIXED = 3;

/** `fields` are the tools' stems in `FIELDS` order: 0 is the name, 2 the description's first sentence. */
export function toolDocs(tools: CatalogTool[], fields: FieldStems[]): ToolDoc[] {
  const prefixes = namePrefixes(tools, fields);
  return tools.map((tool, i) => toolDoc(tool, fields[i]![0]!, fields[i]![2]!, prefixes.get(tool.server)));
}

/**
 * Per server, a first word that a third or more of its tool names share and that is not a verb (`API`
 * of `API-get-user`, `slack` of `slack_post_message`, `kubectl`): a prefix, neither verb nor object.
 */
function namePrefixes(tools: CatalogTool[], fields: FieldStems[]): Map<string, string> {
  const firsts = new Map<string, string[]>();
  tools.forEach((tool, i) => {
    const first = fields[i]![0]![0];
    if (first !== undefined) firsts.set(tool.server, [...(firsts.get(tool.server) ?? []), first]);
  });
  const prefixes = new Map<string, string>();
  for (const [server, list] of firsts) {
    if (list.length < MIN_PREFIXED) continue;
    for (const first of new Set(list)) {
      const count = list.filter((word) => word === first).length;
      if (count >= list.length / 3 && verbGroups(first).length === 0) prefixes.set(server, first);
    }
  }
  return prefixes;
}

function toolDoc(tool: CatalogTool, name: string[], lead: string[], prefix?: string): ToolDoc {
  const js = jsIdentifier(tool.name);
  const exact = [tool.qualifiedName, tool.name, js, `${tool.server}.${js}`, `tools.${tool.server}.${js}`];
  const nameWords = words(tool.name);
  const own = name.filter((s) => s !== prefix);
  return {
    server: tool.server,
    own: new Set(own),
    verbs: new Set([...own, ...lead.slice(0, LEAD_VERBS)].flatMap(verbGroups)),
    exact: new Set(exact.map((written) => written.toLowerCase())),
    phrase: nameWords.join(" "),
    nameWords: new Set([...nameWords, ...nameWords.slice(1).map((w, i) => `${nameWords[i]} ${w}`)]),
  };
}
