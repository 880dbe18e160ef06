import { idf } from "./bm25";
import type { CatalogIndex } from "./catalog-index";
import { type Query, VERB_SYNONYM } from "./query";
import type { ToolDoc } from "./tool-doc";
import { asks, verbAgreement, verbGroups } from "./verbs";
import { stem } from "./words";

/** A tool matching some of the query's terms keeps at least this share of its score. */
const PARTIAL = 0.4;
/** Bonus share of a term written in the query as in the tool's name (`issues` for `list_issues`). */
const SAME_FORM = 0.2;
/** Score factors by how the query's verb agrees with the tool's verbs. */
const VERB_FACTOR = { same: 1.3, looking: 1.1, other: 0.8 } as const;
/** Bonus share when two words next to each other in the query are next to each other in the name. */
const NAME_PAIR = 0.2;
/** Bonus share when the query asks for all of the tool's name: its verbs and objects. */
const NAME_SHARE = 0.5;
/** The tools of a server the query names: their score multiplied, plus a little. */
const NAMED_SERVER = 3;
const NAMED_SERVER_BASE = 1;
/** Score factor of a tool that makes, lists or searches things of a kind the query names one of by id. */
const NOT_FOR_ONE = 0.7;
const MAKE_OR_FIND = new Set(["create", "list", "search"].flatMap((verb) => verbGroups(stem(verb))));
/**
 * Score factor of a tool that needs identifiers the query does not give: more than it names
 * (`monitor_check`: a monitor's and a check's), or the very one it asks for (`the channel ID of #ops`).
 */
const UNKNOWN_IDS = 0.8;

/**
 * A function scoring each tool of `index` for `query`: BM25F per concept (its best stem), scaled by
 * the share of concepts matched, verb agreement and how much of the tool's name the query asks for,
 * then lifted when the query names the tool's server (`named`: server → concepts naming it).
 */
export function scorer(
  index: CatalogIndex,
  query: Query,
  named: Map<string, Set<number>>,
): {
  score: (doc: ToolDoc, d: number, matched?: string[]) => number;
  bound: (doc: ToolDoc, d: number) => number;
  touched: number[];
} {
  const touched: number[] = [];
  const scores = conceptScores(index, query, touched);
  // Adjacent concepts, neither naming a server ("edge functions"; not "desktop commander").
  const serverWords = new Set([...named.values()].flatMap((concepts) => [...concepts]));
  const pairs = query.concepts
    .slice(1)
    .flatMap((concept, c) =>
      serverWords.has(c) || serverWords.has(c + 1) ? [] : [`${query.concepts[c]!.label} ${concept.label}`],
    );
  const known = Math.max(1, query.concepts.filter((concept) => concept.known).length);
  const means = new Map<string, number>();
  /** Words that name a server count the same for each of its tools: their mean score there. */
  const serverMean = (c: number, server: string): number => {
    const key = `${c} ${server}`;
    let mean = means.get(key);
    if (mean === undefined) {
      const own = index.byServer.get(server) ?? [];
      mean = own.reduce((sum, d) => sum + scores[c]![d]!, 0) / (own.length || 1);
      means.set(key, mean);
    }
    return mean;
  };
  /** Per query: whether it asks for a stem of a tool's name (nameFactor), each stem read once. */
  const askedStems = new Map<string, boolean>();
  /** How many concepts the last `contentOf` matched. */
  let count = 0;
  /** The tool's concepts' scores summed; the labels of those it matched are pushed to `matched`. */
  // A tool that needs the identifier the query asks for cannot give it: that it names one is no match.
  const needsAskedId = (doc: ToolDoc) => doc.requiredIds.some((thing) => query.askedIds.has(thing));
  const contentOf = (
    doc: ToolDoc,
    d: number,
    naming: Set<number> | undefined,
    needsAsked: boolean,
    matched?: string[],
  ): number => {
    let content = 0;
    count = 0;
    query.concepts.forEach((concept, c) => {
      const s = scores[c]![d]!;
      if (needsAsked && concept.asksId) return;
      if (naming?.has(c)) content += serverMean(c, doc.server);
      else if (s > 0) content += s * (doc.nameWords.has(concept.label) ? 1 + SAME_FORM : 1);
      else return;
      count++;
      matched?.push(concept.label);
    });
    return content;
  };
  const share = () => PARTIAL + ((1 - PARTIAL) * count) / known;
  /** The tool's score; the labels of the concepts it matched are pushed to `matched`. */
  const score = (doc: ToolDoc, d: number, matched?: string[]): number => {
    const naming = named.get(doc.server);
    const needsAsked = needsAskedId(doc);
    const content = contentOf(doc, d, naming, needsAsked, matched);
    if (count === 0 && !naming) return 0;
    let total = content * share();
    const agreement = verbAgreement(query.verbs, doc.verbs);
    total *= (agreement ? VERB_FACTOR[agreement] : 1) * nameFactor(doc, query, askedStems);
    if (makesOrFinds(doc, query.instances)) total *= NOT_FOR_ONE;
    const missing = doc.requiredIds.length > 1 && query.identifiers < doc.requiredIds.length;
    if (missing || needsAsked) total *= UNKNOWN_IDS;
    if (pairs.some((pair) => doc.nameWords.has(pair))) total *= 1 + NAME_PAIR;
    return naming ? total * NAMED_SERVER + NAMED_SERVER_BASE : total;
  };
  /** At least the tool's score, from its concepts alone: 0 exactly when its score is 0. */
  const bound = (doc: ToolDoc, d: number): number => {
    const naming = named.get(doc.server);
    const content = contentOf(doc, d, naming, needsAskedId(doc));
    if (count === 0 && !naming) return 0;
    const most = content * share() * MOST;
    return naming ? most * NAMED_SERVER + NAMED_SERVER_BASE : most;
  };
  return { score, bound, touched };
}

/** The most the factors after a tool's concepts multiply its score by (and a little for rounding). */
const MOST = VERB_FACTOR.same * (1 + NAME_SHARE) * (1 + NAME_PAIR) * (1 + 1e-9);

/**
 * Per concept, per tool: the best score of its stems (a synonym counts once, not on top of the word).
 * A synonym rarer than the word itself weighs no more than the word would (its idf is capped). The
 * tools having any of the stems are added to `touched`: only they (and a named server's) can score.
 */
function conceptScores(index: CatalogIndex, query: Query, touched: number[]): Float64Array[] {
  const marked = new Uint8Array(index.docs.length);
  const { postings, size } = index.bm25;
  return query.concepts.map((concept) => {
    const best = new Float64Array(index.docs.length);
    const [word] = concept.stems.keys();
    const wordIdf = idf(size, postings.get(word ?? "")?.docs.length ?? 0);
    for (const [s, weight] of concept.stems) {
      const list = postings.get(s);
      if (list === undefined) continue;
      const { docs, scores } = list;
      const cap = wordIdf > 0 && s !== word ? Math.min(1, wordIdf / idf(size, docs.length)) : 1;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        best[doc] = Math.max(best[doc]!, weight * cap * scores[i]!);
        if (marked[doc] === 0) touched.push(doc);
        marked[doc] = 1;
      }
    }
    return best;
  });
}

/**
 * Whether the tool makes, lists or searches for things the query names one existing one of (`issue
 * 231`: create_issue, list_issues; not add_issue_comment, whose thing is a comment).
 */
function makesOrFinds(doc: ToolDoc, instances: ReadonlySet<string>): boolean {
  if (instances.size === 0) return false;
  const name = [...doc.own];
  return name.some((s, i) => {
    if (!instances.has(s) || name.slice(i + 1).some((after) => verbGroups(after).length === 0)) return false;
    const verbs = name.filter((other) => other !== s).flatMap(verbGroups);
    return verbs.length > 0 && verbs.every((group) => MAKE_OR_FIND.has(group));
  });
}

/**
 * 1 + NAME_SHARE × the share of the tool's name (prefix aside) that the query asks for: a verb by
 * the query's verb group, an object by a term, synonym or verb (`create_directory`: make a folder).
 */
function nameFactor(doc: ToolDoc, query: Query, memo: Map<string, boolean>): number {
  if (doc.own.size === 0) return 1;
  let asked = 0;
  for (const s of doc.own) {
    let yes = memo.get(s);
    if (yes === undefined) {
      yes =
        verbGroups(s).some((group) => asks(query.verbs, group)) ||
        query.concepts.some((concept) => (concept.stems.get(s) ?? 0) >= VERB_SYNONYM);
      memo.set(s, yes);
    }
    if (yes) asked++;
  }
  return 1 + (NAME_SHARE * asked) / doc.own.size;
}
