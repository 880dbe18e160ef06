import { type Everyday, type EverydayPhrase, everydayOf } from "./everyday-terms";
import { readNotation } from "./notation";
import { canonical, synonyms } from "./synonyms";
import { terms } from "./terms";
import { LOOK, verbGroups, verbSynonyms } from "./verbs";
import { CONTRACTED, stem, words } from "./words";

/**
 * How much a synonym counts next to the word itself, and another verb of its group: verbs such as
 * `get` or `make` are everywhere in descriptions, so a verb meets its group mainly through the
 * tool's own verb (see score.ts).
 */
export const SYNONYM = 0.7;
export const VERB_SYNONYM = 0.5;
/** How much a tool word counts for an everyday word or phrase that means it (`commute` → directions). */
const EVERYDAY_WEIGHT = 0.6;
/** How much a part of an identifier no tool has counts (`printEnv` → print, env). */
const PART = 0.5;
/** How much a longer word counts for a query word that no tool has (`cust` → `customers`). */
const PREFIX = 0.4;
const MAX_PREFIXED = 20;

/** All or every of a kind: `all Redis keys`, `every open PR`. */
const ALL_THINGS = /\b(?:all|every)\s+(?:the\s+|my\s+|our\s+)?(?:[\p{L}-]+\s+)?[\p{L}-]{2,}[^\ss]s\b/iu;

/** An unknown word made of `re` and a verb (`regenerate`, `redeploy`): the verb. */
const AGAIN = /^re(\p{L}{4,})$/u;

/** A question about which things there are: `which <things> are`, `what <things> do I have`. */
const WHICH_THINGS =
  /^\s*(?:which|what)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]{2,}[^\ss]s\s+(?:are|were|do\s+(?:i|we|you)\s+have|have\s+(?:i|we|you))\b/iu;

/**
 * A word, then an identifier: a number (`231`, `#77`) or letters and a number (`mon_42`, `PMC8123456`,
 * `INC-123`); not a version or a name (`v2.1`, `release-2.0`), which a new thing may be given.
 */
const IDENTIFIED = /\p{L}\s+(?:#?\p{N}+|\p{L}+[_-]?\p{N}+)(?=$|[\s,;:!?)])/gu;

/** An identifier of this many parts or more is a symbol in code. */
const SYMBOL_PARTS = 3;

const ID = canonical(stem("id"));
const LIST = stem("list");
const GET = stem("get");
const SEARCH = stem("search");
/** An ID given, not asked for: `id 6a2f91`, `place ID ChIJN1t…`, `ID: 42`. */
const GIVEN_ID = /\bids?\s*[:=#]?\s*[\p{L}\p{N}_-]*\p{N}/iu;

const PAST = /^\p{L}+ed$/u;
const PLURAL = /^\p{L}{2,}[^s]s$/u;

/**
 * A verb with a subject says what someone does ("the customer we already track", "the tabs I opened"),
 * not what the query asks to do; a request is not ("can you list", "how do I invalidate").
 */
const SUBJECT_VERB =
  /(?<!\b(?:can|could|would|will|should|shall|do|does|did|to|let|please)\s+)\b(?:i|we|you|they)\s+(?:already\s+|just\s+|still\s+|also\s+|usually\s+)?(\p{L}+)/giu;

/** Words of requests that say nothing of the tool ("I need a new folder", "I don't want it anymore"). */
const FILLER = new Set(["need", "needs", "anymore"]);

/** A word after `stay`, `remain` or `is` says how something is ("keep it from staying open"), not what to do. */
const STATE =
  /\b(?:stay|stays|stayed|staying|remain|remains|remained|is|are|was|were|be|been|being)\s+(?:still\s+)?(\p{L}+)/giu;

/** A query that starts with one of these asks to look something up, whatever verb follows. */
const QUESTION = new Set("which what when where who whose why is are was were does did has".split(" "));

/** One thing the query asks for: its words as typed, and the stems that count for it, with weights. */
export interface Concept {
  label: string;
  stems: Map<string, number>;
  /** whether any tool has one of its stems */
  known: boolean;
  /** its verb groups, if it is an action verb */
  verbs: string[];
  /** whether it is the word ID of an identifier the query asks for (`the channel ID of #ops`) */
  asksId?: boolean;
}

export interface Query {
  concepts: Concept[];
  /** the verb groups of the query's first action verb, or LOOK for a question */
  verbs: string[];
  /** stems of things the query names by an identifier (`issue 231`, `PR #77`, `monitor mon_42`) */
  instances: Set<string>;
  /** how many identifiers it gives */
  identifiers: number;
  /** things whose identifier it asks for (`the channel ID of #ops` → channel) */
  askedIds: Set<string>;
  /** the everyday vocabulary it was read with (the catalog's products') */
  everyday: Everyday;
}

/** The query's concepts (one per distinct term), expanded with synonyms, or parts and prefixes when unknown. */
export function parseQuery(text: string, vocabulary: ReadonlyMap<string, unknown>): Query {
  const concepts: Concept[] = [];
  const seen = new Set<string>();
  const everyday = everydayOf(vocabulary);
  const written = words(text)[0] ?? "";
  // "what's", "where's": the question word and `is`.
  const first = CONTRACTED.has(written) ? written.slice(0, -1) : written;
  const question = QUESTION.has(first);
  // A where-question ("where is getUserById called") asks to find something.
  let verbs = first === "where" ? ["search"] : question ? [LOOK] : [];
  // Values (`report.pdf`, `#ops`, a URL) read as the words they stand for, before any term is.
  const { plain, files } = readNotation(text);
  const parts = identifierParts(plain);
  // A long identifier (`getUserById`) is a symbol in code.
  const symbol = [...parts.values()].some((split) => split.length >= SYMBOL_PARTS);
  const described = new Set(
    [...plain.matchAll(SUBJECT_VERB), ...plain.matchAll(STATE)].map((m) => m[1]!.toLowerCase()),
  );
  const said = `${plain}${files > 1 ? " multiple" : ""}${symbol ? " code" : ""}`;
  const queryTerms = terms(said, false);
  for (const term of queryTerms) {
    if (seen.has(term.stem)) continue;
    // `all` says how many (ALL_THINGS reads it), not what: as a word it only meets descriptions that
    // happen to say it ("pages through all of them").
    if (term.label === "all" && queryTerms.length > 1) continue;
    if (FILLER.has(term.label)) continue;
    seen.add(term.stem);
    // A past form says what happened ("the server I started", "merged PRs"), an -s form names things
    // or what they do ("the past checks", "the page that lists users"): neither is what to do.
    const done = PAST.test(term.label) || PLURAL.test(term.label) || described.has(term.label);
    const groups = done ? [] : verbGroups(term.stem);
    // "make a new folder": `new` says again what `make` says; one concept, either word counts fully.
    // A verb of several groups (`open`: create, show, visit) may say something else: it stays a word.
    const same =
      groups.length === 1 ? concepts.find((concept) => concept.verbs.includes(groups[0]!)) : undefined;
    if (same) {
      same.stems.set(term.stem, 1);
      continue;
    }
    const action = verbs.length === 0 && groups.length > 0;
    if (action) verbs = groups;
    const stems = new Map([[term.stem, 1]]);
    for (const s of synonyms(term.stem)) if (!stems.has(s)) stems.set(s, SYNONYM);
    for (const s of everyday.meaning(term.stem)) if (!stems.has(s)) stems.set(s, EVERYDAY_WEIGHT);
    // The query's action meets its groups' other verbs; a later verb of one group too ("store them as
    // new people": add, create), not one of several ("show me the open tickets": not `get`).
    if (action || (!question && groups.length === 1))
      for (const s of verbSynonyms(term.stem)) if (!stems.has(s)) stems.set(s, VERB_SYNONYM);
    const known = () => [...stems.keys()].some((s) => vocabulary.has(s));
    // "regenerate", "redeploy": an unknown re- word is its verb done again.
    const again = known() ? undefined : AGAIN.exec(term.label)?.[1];
    const verb = again === undefined ? undefined : stem(again);
    if (verb !== undefined && vocabulary.has(verb)) stems.set(verb, 1);
    // A symbol (`getUserById`) is a value to look for, not words about the tool (`printEnv` is).
    const split = parts.get(term.label) ?? [];
    if (!known() && split.length < SYMBOL_PARTS)
      for (const part of split) if (!stems.has(part)) stems.set(part, PART);
    if (!known() && term.stem.length >= 3) addPrefixed(stems, term.stem, vocabulary);
    concepts.push({ label: term.label, stems, known: known(), verbs: groups });
  }
  addPhrases(everyday.phrases(plain), concepts);
  const identifiers = [...plain.matchAll(IDENTIFIED)];
  const instances = identified(plain, identifiers, vocabulary);
  // "look up product prod_789", "find issue 231": to search for one thing given by its identifier is to get it.
  if (instances.size > 0 && verbs.includes(SEARCH) && !verbs.includes(GET)) {
    verbs = [...verbs, GET];
    const action = concepts.find((concept) => concept.verbs.includes(SEARCH));
    for (const s of [GET, ...verbSynonyms(GET)])
      if (action && !action.stems.has(s)) action.stems.set(s, VERB_SYNONYM);
  }
  // "show me the open tickets": to get things, not one thing, is to list them.
  if (verbs.includes("get") && concepts.some((c) => c.verbs.length === 0 && PLURAL.test(c.label))) {
    verbs = [...verbs, "list"];
    // ... and with no identifier given ("show customers"), its words find listing tools, not getters.
    if (identifiers.length === 0) keepListing(concepts);
  }
  // "which searches are running", "what monitors do I have": to ask which things are is to list them.
  if (WHICH_THINGS.test(plain)) verbs = ["list"];
  // "show me all Redis keys": to get all of a kind is to list them.
  if (verbs.includes("get") && ALL_THINGS.test(plain)) verbs = ["list"];
  if (verbs.length === 1 && verbs[0] === "list") keepListing(concepts);
  const asked = identifiers.length > 0 || GIVEN_ID.test(plain) ? new Set<string>() : askedIds(concepts);
  return { concepts, verbs, instances, identifiers: identifiers.length, askedIds: asked, everyday };
}

/**
 * When the query's action came out as listing ("show all customers", "which tickets are open"), its
 * verb's other groups (`show` is also to get one) no longer find tools: `get_customer` is not a list.
 */
function keepListing(concepts: Concept[]): void {
  const action = concepts.find((concept) => concept.verbs.length > 1 && concept.verbs.includes("list"));
  if (action === undefined) return;
  const listing = new Set([LIST, ...verbSynonyms(LIST)]);
  for (const [s, weight] of action.stems)
    if (weight === VERB_SYNONYM && !listing.has(s)) action.stems.delete(s);
}

/**
 * The things named by an identifier: each is one that exists, so the query does not ask to create it
 * or to list or search for things of its kind. The thing is the term before the identifier (`pull
 * request 77` → pull request).
 */
function identified(
  text: string,
  identifiers: RegExpExecArray[],
  vocabulary: ReadonlyMap<string, unknown>,
): Set<string> {
  const found = new Set<string>();
  for (const match of identifiers) {
    const said = text.slice(0, match.index + 1);
    const before = terms(said, false).at(-1);
    // the word right before it (`ticket 42`; not `ticket for cus_42`, whose `for` is a stopword)
    const right = before?.label.endsWith(words(said, false).at(-1) ?? "");
    if (before !== undefined && right && vocabulary.has(before.stem)) found.add(before.stem);
  }
  return found;
}

/**
 * The things next to the word `ID` in the query (`channel ID`, `ID of the page`), by one word and,
 * for a thing of two words, by both (`data source ID` → source, data source: `data_source_id`).
 */
function askedIds(concepts: Concept[]): Set<string> {
  const asked = new Set<string>();
  const thing = (concept: Concept | undefined) =>
    concept === undefined || concept.verbs.length > 0 ? undefined : [...concept.stems.keys()][0];
  concepts.forEach((concept, c) => {
    if (!concept.stems.has(ID) || concept.stems.get(ID) !== 1) return;
    for (const [near, far] of [
      [c - 1, c - 2],
      [c + 1, c + 2],
    ] as const) {
      const word = thing(concepts[near]);
      if (word === undefined) continue;
      asked.add(word);
      concept.asksId = true;
      const other = thing(concepts[far]);
      if (other !== undefined) asked.add(near < c ? `${other} ${word}` : `${word} ${other}`);
    }
  });
  return asked;
}

/**
 * Everyday two-word phrases (`opening hours`): their tool words join the concept of one of the two,
 * or of the first word after them when both are stopwords (`what's in`).
 */
function addPhrases(phrases: EverydayPhrase[], concepts: Concept[]) {
  for (const { said, after, means } of phrases) {
    // A phrase of stopwords ("what's in") means something about what follows it.
    const concept =
      concepts.find((c) => c.label === said[1]) ??
      concepts.find((c) => c.label === said[0]) ??
      after.map((word) => concepts.find((c) => c.label === word)).find((c) => c !== undefined);
    if (concept === undefined) continue;
    for (const s of means) if (!concept.stems.has(s)) concept.stems.set(s, EVERYDAY_WEIGHT);
  }
}

/** The stems of the parts of each identifier in the text (`printEnv` → print, environment). */
function identifierParts(text: string): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const split = words(word);
    if (split.length > 1)
      parts.set(
        word.toLowerCase(),
        split.map((part) => canonical(stem(part))),
      );
  }
  return parts;
}

function addPrefixed(stems: Map<string, number>, prefix: string, vocabulary: ReadonlyMap<string, unknown>) {
  let added = 0;
  for (const s of vocabulary.keys()) {
    if (added >= MAX_PREFIXED) return;
    if (s.length > prefix.length && s.startsWith(prefix)) {
      stems.set(s, PREFIX);
      added++;
    }
  }
}
