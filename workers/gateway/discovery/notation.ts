/**
 * Values whose form says what they are (a path, a URL, an email address, coordinates, a quoted string)
 * and the verbs "file" and "open" used of a record, read on the query as written and replaced by the
 * words they stand for, before the query is split into terms (query.ts). Apart from query.ts because
 * this reads notation, not words: the patterns here never see a term.
 */

/** A file name (`report.pdf`, `package.json`) asks for a file; `next.js` or `stripe.com` do not. */
const FILE_NAME =
  /[\p{L}\p{N}_-]+\.(?:json|ya?ml|toml|ini|cfg|conf|env|md|txt|csv|tsv|log|xml|html?|pdf|png|jpe?g|gif|svg|webp|py|ts|tsx|jsx|mjs|sh|rs|go|java|rb|php|zip|gz|tar|docx?|xlsx?)\b/giu;

/**
 * A file name with the folders before it (`src/config/default.yaml`, `~/notes/todo.md`) is one file:
 * its folders are where it is, not a folder the query asks about nor words about the tool.
 */
const FILE_PATH = new RegExp(`(?:(?:~|\\.{1,2})?/)?(?:[\\p{L}\\p{N}._-]+/)*${FILE_NAME.source}`, "giu");
/**
 * A relative path to a name with any extension (`utils/helpers.js`, `./lib/app.vue`) is a file too;
 * `next.js` alone, or `/vercel/next.js` (a library's ID), is not.
 */
const RELATIVE_FILE_PATH =
  /(?<=^|[\s(,'"`])(?:(?:~|\.{1,2})\/)?(?:[\p{L}\p{N}_-][\p{L}\p{N}._-]*\/)+[\p{L}\p{N}_-]+\.\p{L}[\p{L}\p{N}]{0,4}\b/giu;
const ANY_FILE = new RegExp(`${RELATIVE_FILE_PATH.source}|${FILE_NAME.source}`, "giu");

/** An audio or video file (`~/rec/standup.m4a`, `demo.mp4`) is media, which tools read apart from text. */
const MEDIA_FILE =
  /(?:(?:~|\.{1,2})?\/)?(?:[\p{L}\p{N}._-]+\/)*[\p{L}\p{N}_-]+\.(?:mp3|m4a|wav|ogg|oga|flac|aac|opus|mp4|m4v|mov|webm|avi|mkv)\b/giu;

/** A dotfile (`.env`, `.env.example`, `.gitignore`) is a file too. */
const DOTFILE =
  /(^|[\s(,'"])\.(?:env|gitignore|gitattributes|dockerignore|npmrc|nvmrc|yarnrc|bashrc|zshrc|bash_profile|profile|editorconfig|prettierrc|eslintrc|babelrc|htaccess)(?:\.[\p{L}\p{N}_-]+)*(?=$|[\s.,;:!?)'"])/giu;

/**
 * A web address is a value that says what it is: a URL (`https://example.com/a`) asks about a URL, an
 * email address about email, a host name (`docs.stripe.com/payments`, `linear.app`) about a website,
 * whatever words it is made of.
 * Read before file names: `example.com/robots.txt` is a URL, not a file.
 */
const WEB_ADDRESSES: [RegExp, string][] = [
  [/\bhttps?:\/\/[^\s]+/giu, " url "],
  // An email address (`bob@acme.com`) is an email, not a website.
  [/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/giu, " email "],
  [
    /\b(?:[\p{L}\p{N}-]+\.)+(?:com|org|net|io|dev|app|ai|co|so|gov|edu)(?:\/[^\s]*)?(?=$|[\s,;:!?)])/giu,
    " website ",
  ],
];

/**
 * "file a ticket", "file an issue": to file one is to make one, not a file. Read on the query as
 * written, before file names (`report.pdf`) become the word "file".
 */
const FILE_VERB = /\bfile(?=\s+an?\s)/giu;

/**
 * "open a ticket", "open an issue", "open a PR": to open a record of work is to make one (not to
 * show it, as to open a file or a page is). Read on the query as written, like FILE_VERB.
 */
const OPEN_RECORD =
  /\bopen(?=\s+(?:a|an|another|a\s+new)\s+(?:[\p{L}-]+\s+)?(?:ticket|issue|pr|pull\s+request|merge\s+request|incident|case|bug|support\s+request)\b)/giu;

/**
 * Values that say what they are: a latitude/longitude pair (`48.85, 2.29`) asks about coordinates,
 * a `host:port` (`localhost:5432`) about a port, `src/` about a folder, a quoted string about text.
 */
const VALUES: [RegExp, string][] = [
  [/[-+]?\d{1,3}\.\d+\s*,\s*[-+]?\d{1,3}\.\d+/g, " coordinates "],
  // "who is U024BE7LH", "who's on the team": a question about people asks for users' profiles.
  [/^\s*who(?:'s|\s+is|\s+are)\b/iu, "which user profile"],
  // `4817 + 2296` asks for a sum.
  [/\b\d+(?:\.\d+)?\s*\+\s*\d+(?:\.\d+)?\b/g, " sum "],
  [/\b[\p{L}\p{N}.-]+:(\d{2,5})\b/gu, " port $1 "],
  // "how many" asks for a count, not for several of something.
  [/\bhow many\b/giu, "count"],
  // An emoji's short name (`:eyes:`) is an emoji.
  [/(^|\s):[a-z0-9_+-]{1,40}:(?=$|[\s.,;:!?)])/gu, "$1 emoji "],
  // A path that ends in a slash (`packages/`, `k8s/`, `./src/`) names a folder, not what it is
  // called after; one that starts with a host name (`docs.stripe.com/payments/`) does not.
  [/(^|\s)(?:\.{1,2}|\.?[\p{L}\p{N}_-]+)\/(?:[\p{L}\p{N}._-]+\/)*(?=$|[\s.,;:!?)])/gu, "$1 folder "],
  // A path from the root or home without a file name (`~/code/billing`, `/var/www`) is a folder.
  [/(^|\s)(?:~|\.{1,2})?\/[\p{L}\p{N}._-]+(?:\/[\p{L}\p{N}._-]+)*(?=$|[\s,;:!?)])/gu, "$1 folder "],
  // `.price`, `.nav-item`: a CSS class, so a selector of page elements (dotfiles are files by now).
  [/(^|\s)\.[a-z][\w-]*(?=$|[\s,;:!?)])/gu, "$1 selector "],
  // `#ops`, `#incident-response`: a chat channel.
  [/(^|\s)#\p{L}[\p{L}\p{N}_-]*(?=$|[\s.,;:!?)])/gu, "$1 channel "],
  // What follows `named` or `titled` is a name ("a project named infra"): the tool takes one; what
  // follows `called` too, but "called" is also a verb ("where is it called"), so the name goes alone.
  [
    /\b(?:named|titled)\s+(?!(?:in|from|by|on|at|the|a|an|with|to|for|when|if|and|or)\b)[\p{L}\p{N}_.-]+/giu,
    " name ",
  ],
  [/\bcalled\s+(?!(?:in|from|by|on|at|the|a|an|with|to|for|when|if|and|or)\b)[\p{L}\p{N}_.-]+/giu, " "],
  // A quoted string is a value to pass ("search the page for 'out of stock'"), not what to do.
  [/(^|\s)["'“‘][^"'“”‘’]{1,80}["'”’](?=$|[\s.,;:!?)])/gu, "$1 text "],
  // Words in backticks (`npm run build`) are a command to run, not words about the tool.
  [/`[^`\s]+\s[^`]{1,200}`/g, " command "],
];

/**
 * The query with its values written as the words they stand for (`report.pdf` → file, `#ops` →
 * channel), and how many files it names.
 */
export function readNotation(text: string): { plain: string; files: number } {
  const files = (text.match(ANY_FILE)?.length ?? 0) + (text.match(DOTFILE)?.length ?? 0);
  const plain = VALUES.reduce(
    (out, [pattern, said]) => out.replace(pattern, said),
    WEB_ADDRESSES.reduce((out, [pattern, said]) => out.replace(pattern, said), text)
      .replace(FILE_VERB, "create")
      .replace(OPEN_RECORD, "create")
      .replace(MEDIA_FILE, " media file ")
      .replace(FILE_PATH, " file ")
      .replace(RELATIVE_FILE_PATH, " file ")
      .replace(DOTFILE, "$1 file "),
  );
  return { plain, files };
}
