import { type CatalogTool, jsIdentifier } from "../../../shared/contract/tools";
import type { FieldStems } from "./fields";
import { termStem } from "./terms";
import { verbGroups } from "./verbs";
import { stem, words } from "./words";

/** What ranking keeps of one tool besides its postings (nothing of its schemas: see catalog-index.ts). */
export interface ToolDoc {
  server: string;
  /** the stems of its name but its server's prefix (`slack_list_channels` → list, channel) */
  own: Set<string>;
  /**
   * the verb groups of the verbs in its name, among its description's first words and among the values
   * of its parameters' enums when its name has no verb (`action`: list, new, close, select)
   */
  verbs: Set<string>;
  /** the names code or an agent may write for it, lowercase */
  exact: Set<string>;
  /** its name's words in order (`list_issues` → `list issues`) */
  phrase: string;
  /** its name's words and pairs of adjacent words as written (`issues`, `pull requests`) */
  nameWords: Set<string>;
  /** the things whose identifiers it requires (`checkId` → check, `page_id` → page, `id` of get_customer → customer) */
  requiredIds: string[];
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
    verbs: new Set(toolVerbs(own, lead, tool.inputSchema)),
    exact: new Set(exact.map((written) => written.toLowerCase())),
    phrase: nameWords.join(" "),
    nameWords: new Set([...nameWords, ...nameWords.slice(1).map((w, i) => `${nameWords[i]} ${w}`)]),
    requiredIds: requiredIds(tool.inputSchema, own),
  };
}

/** A name's `get` says little (`API-get-users`: "List all users"): its description's verbs count too. */
const GET = stem("get");

/**
 * The verb groups of its name's verbs; when its name has none (`ticket_stats`), of its description's
 * first words and its enum actions. A name's verb settles it (`create_ticket`, "Open a new ticket",
 * does not also `open` in the sense of showing), except `get`.
 */
function toolVerbs(own: string[], lead: string[], schema: unknown): string[] {
  const named = own.flatMap(verbGroups);
  if (named.length > 0 && !own.includes(GET)) return named;
  if (named.length > 0) return [...named, ...lead.slice(0, LEAD_VERBS).flatMap(verbGroups)];
  return [...lead.slice(0, LEAD_VERBS), ...actions(schema)].flatMap(verbGroups);
}

/**
 * The stems of one-word string enum values of its top-level parameters: the actions a tool whose
 * name has no verb (`browser_tabs`, `kubectl_rollout`) may take.
 */
function actions(schema: unknown): string[] {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  return Object.values(properties).flatMap((property) => {
    const values = isRecord(property) && Array.isArray(property.enum) ? property.enum : [];
    return values.length > MAX_ACTIONS
      ? []
      : values
          .filter((v): v is string => typeof v === "string" && /^[a-z]+$/i.test(v))
          .map((v) => stem(v.toLowerCase()));
  });
}

/**
 * The things whose identifiers are required top-level parameters: `checkId` → check, and a bare `id`
 * → the thing the tool's name is about (`get_customer` → customer).
 */
function requiredIds(schema: unknown, own: string[]): string[] {
  const required = isRecord(schema) && Array.isArray(schema.required) ? schema.required : [];
  const named = own.filter((s) => verbGroups(s).length === 0).at(-1) ?? "";
  return required
    .filter((name): name is string => typeof name === "string" && ID_PARAMETER.test(name))
    .map((name) => words(name).slice(0, -1).map(termStem).join(" ") || named);
}

const ID_PARAMETER = /^id$|Id$|_id$/;

/** An enum with more values than this lists options (formats, languages), not actions. */
const MAX_ACTIONS = 8;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
