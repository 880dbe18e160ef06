import { describe, expect, it } from "vitest";
import { catalogIndex } from "../../workers/gateway/discovery/catalog-index";
import { parseQuery } from "../../workers/gateway/discovery/query";
import { verbGroups } from "../../workers/gateway/discovery/verbs";
import { stem } from "../../workers/gateway/discovery/words";
import { catalogTool as t } from "../helpers/catalog-tool";
import { CORPUS_PACKAGES, corpusTools, firstOf } from "../helpers/corpus-tools";
import { demoFirstOf } from "../helpers/demo-mcp";

const labels = (query: string) => parseQuery(query, new Map()).concepts.map((concept) => concept.label);

const ALL = CORPUS_PACKAGES;
const FILES = ["@modelcontextprotocol/server-filesystem", "@wonderwhy-er/desktop-commander"];

// Values whose form says what they are: paths, media files, commands, sums.
describe("reading values in queries", () => {
  it("reads a file's path as one file, not as folders", () => {
    const first = firstOf(corpusTools(...ALL));
    expect(labels("show me what's in src/config/default.yaml")).not.toContain("folder");
    expect(first("show me what's in src/config/default.yaml")).toMatch(/\.read_(?:text_)?file$/);
  });

  it("reads a path from the root or home as a folder, not as words about the tool", () => {
    const query = "where in ~/code/billing do we still call legacyChargeCard? search inside the files";
    expect(labels(query)).toContain("folder");
    expect(labels(query)).not.toContain("billing");
    const first = firstOf([...corpusTools(...FILES), ...corpusTools("@supabase/mcp-server-supabase")]);
    expect(first(query)).not.toMatch(/^supabase\./);
  });

  it("reads a relative path with any extension as a file, a library ID or a bare name not", () => {
    expect(labels("rename utils/helpers.js to utils/string-helpers.js")).toContain("file");
    expect(labels("pull docs from /vercel/next.js on routing")).not.toContain("file");
    expect(labels("upgrade next.js to 15")).not.toContain("file");
  });

  it("reads an audio or video file as media", () => {
    expect(labels("load ~/recordings/standup-voice-memo.m4a")).toEqual(["load", "media", "file"]);
    const first = firstOf(corpusTools(...FILES));
    expect(first("load ~/recordings/standup-voice-memo.m4a so you can listen to it")).toBe(
      "filesystem.read_media_file",
    );
  });

  it("reads words in backticks as a command to run", () => {
    expect(labels("run `npm run build` in the webapp")).toEqual(["run", "command", "webapp"]);
    const first = firstOf([
      ...corpusTools("@wonderwhy-er/desktop-commander"),
      ...corpusTools("@notionhq/notion-mcp-server"),
    ]);
    expect(first("run `npm run build` in /home/me/webapp and tell me whether it fails")).toBe(
      "desktop-commander.start_process",
    );
  });

  it("reads `a + b` as a sum", () => {
    const first = firstOf(corpusTools("@modelcontextprotocol/server-everything"));
    expect(first("quick sanity check of the test server: what's 4817 + 2296?")).toBe("everything.get-sum");
  });
});

describe("reading what a question asks for", () => {
  it("reads `who is` as asking for a user's profile", () => {
    const first = firstOf(corpusTools("@modelcontextprotocol/server-slack"));
    expect(first("who is U024BE7LH on Slack — title, timezone?")).toBe("slack.slack_get_user_profile");
  });

  it("reads getting all or every of a kind as a list", () => {
    expect(parseQuery("show me all Redis keys that start with rate_limit:", new Map()).verbs).toEqual([
      "list",
    ]);
    const first = firstOf(corpusTools("@modelcontextprotocol/server-redis"));
    expect(first("show me all Redis keys that start with rate_limit:")).toBe("redis.list");
  });

  it("reads showing all of a kind as listing it, not getting one (the demo desk)", async () => {
    const first = await demoFirstOf();
    expect(first("show all customers")).toBe("list_customers");
    expect(first("list all customers")).toBe("list_customers");
    expect(first("show me all open tickets")).toBe("list_tickets");
    expect(first("get customer cus_00042")).toBe("get_customer");
  });

  it("reads an unknown re- word as its verb done again (regenerate)", () => {
    const first = firstOf(corpusTools("@supabase/mcp-server-supabase"));
    expect(first("regenerate database.types.ts from the Supabase schema of project abcd1234")).toBe(
      "supabase.generate_typescript_types",
    );
  });
});

describe("tool verbs", () => {
  it("reads the description's verbs of a tool named `get` (API-get-users: list all users)", () => {
    const tools = [
      t("notion", "API-get-user", "Notion | Retrieve a user"),
      t("notion", "API-get-users", "Notion | List all users"),
      t("github", "create_issue", "Get started: opens a new issue"),
    ];
    const [user, users, issue] = catalogIndex(tools).docs;
    const list = verbGroups(stem("list"));
    expect(list.every((group) => users!.verbs.has(group))).toBe(true);
    expect(list.some((group) => user!.verbs.has(group))).toBe(false);
    // Another verb in the name settles it.
    expect([...issue!.verbs]).toEqual(verbGroups(stem("create")));
  });
});
