// Words, stems and sentences: how discovery reads a query and a tool's text (words.ts, sentence.ts,
// fields.ts). The rankings built on them: discovery-search.test.ts.
import { describe, expect, it } from "vitest";
import { toolFields } from "../../workers/gateway/discovery/fields";
import { rankCatalog, rankTools } from "../../workers/gateway/discovery/search";
import { firstSentence } from "../../workers/gateway/discovery/sentence";
import { searchTerms, stem, words } from "../../workers/gateway/discovery/words";
import { catalogTool as t } from "../helpers/catalog-tool";

describe("searchTerms", () => {
  it("splits camelCase, snake_case, kebab-case and prose, lowercases and drops stopwords", () => {
    expect(searchTerms("longRunningOperation")).toEqual(["long", "running", "operation"]);
    expect(searchTerms("get-sum add_issue_comment")).toEqual(["get", "sum", "add", "issue", "comment"]);
    expect(searchTerms("HTTPServer for the MCP_TINY_IMAGE")).toEqual([
      "http",
      "server",
      "mcp",
      "tiny",
      "image",
    ]);
    expect(searchTerms("the")).toEqual(["the"]);
  });

  it("keeps brand names whole in prose, split only in identifiers", () => {
    expect(words("GitHub arXiv")).toEqual(["git", "hub", "ar", "xiv"]);
    expect(words("GitHub arXiv", false)).toEqual(["github", "arxiv"]);
    expect(words("list_directory_with-sizes.v2", false)).toEqual([
      "list",
      "directory",
      "with",
      "sizes",
      "v2",
    ]);
  });

  it("stems plurals and verb endings so that they meet", () => {
    expect(stem("issues")).toBe(stem("issue"));
    expect(stem("repositories")).toBe(stem("repository"));
    expect(stem("creating")).toBe(stem("create"));
    expect(stem("searches")).toBe(stem("search"));
    expect(stem("status")).toBe("status");
    expect(stem("stopped")).toBe(stem("stop"));
    expect(stem("running")).toBe(stem("run"));
    expect(stem("added")).toBe(stem("add"));
    expect(stem("settings")).not.toBe(stem("set"));
  });

  it("stems a -ction/-ption noun as its verb (transcription: transcript), not a short one (action)", () => {
    expect(stem("transcription")).toBe(stem("transcript"));
    expect(stem("connections")).toBe(stem("connect"));
    expect(stem("exception")).toBe(stem("except"));
    expect(stem("action")).not.toBe(stem("act"));
    expect(stem("production")).not.toBe(stem("product"));
    expect(stem("projections")).not.toBe(stem("project"));
    expect(stem("directions")).toBe(stem("direction"));
    expect(stem("directions")).not.toBe(stem("direct"));
    const voice = [
      t("voice", "DeleteRecording", "Delete a recording"),
      t("voice", "DeleteTranscription", "Delete a transcription"),
      t("docs", "get_transcript", "Gets a PDF transcript of the comments"),
    ];
    expect(rankCatalog(voice, { query: "delete the text transcript of a voicemail" })[0]?.name).toBe(
      "DeleteTranscription",
    );
  });

  it("stems a -ship noun as its word (membership: member), so a member's question finds it", () => {
    expect(stem("memberships")).toBe(stem("member"));
    expect(stem("ownership")).toBe(stem("owner"));
    const orgs = [
      t("orgs", "get_org", "Get an organization"),
      t("orgs", "check_membership_for_user", "Check organization membership for a user"),
      t("teams", "list_team_members", "List the members of a team"),
    ];
    const hits = rankTools(orgs, { query: "is octocat a member of our organization?" });
    expect(hits[0]?.tool.name).toBe("check_membership_for_user");
    expect(hits[0]?.matched).toContain("member");
  });
});

describe("firstSentence", () => {
  it("ends at a sentence, not at an abbreviation, initial or decimal", () => {
    expect(firstSentence("Lists files. Then more.", 200)).toBe("Lists files.");
    expect(firstSentence("Filters, i.e. state or labels, apply. More.", 200)).toBe(
      "Filters, i.e. state or labels, apply.",
    );
    expect(firstSentence("Pages, images, etc. are listed. More.", 200)).toBe(
      "Pages, images, etc. are listed.",
    );
    expect(firstSentence("Compare A vs. B quickly. More.", 200)).toBe("Compare A vs. B quickly.");
    expect(firstSentence("Waits approx. 5 s. More.", 200)).toBe("Waits approx. 5 s.");
    expect(firstSentence("By J. Smith, version 1.5 only. More.", 200)).toBe("By J. Smith, version 1.5 only.");
    expect(firstSentence("Does it work? Yes.", 200)).toBe("Does it work?");
    expect(firstSentence("  No period at all\nsecond line.", 200)).toBe("No period at all");
    expect(firstSentence("A long sentence.", 6)).toBe("A lon…");
  });
});

describe("the stems kept across requests", () => {
  it("keeps those of every tool of a 10,000-tool catalog: a new catalog of the same tools is not stemmed again", () => {
    const tools = Array.from({ length: 10_000 }, (_, i) => t("api", `op_${i}`, `Operation number ${i}`));
    const first = tools.map((tool) => toolFields(tool, undefined).stems);
    const again = tools.map((tool) => toolFields({ ...tool }, undefined).stems);
    expect(again.filter((stems, i) => stems !== first[i]).length).toBe(0);
  });
});
