import { describe, expect, it } from "vitest";
import type { CatalogTool } from "../../shared/contract/tools";
import { closeMatches, rankCatalog, searchCatalog } from "../../workers/gateway/discovery/search";
import { stem, tokenize } from "../../workers/gateway/discovery/tokenize";

function t(server: string, name: string, description: string, title?: string): CatalogTool {
  return {
    server,
    name,
    qualifiedName: `${server}.${name}`,
    description,
    inputSchema: { type: "object", properties: {} },
    ...(title ? { title } : {}),
  };
}

const CATALOG: CatalogTool[] = [
  t("github", "create_issue", "Create a new issue in a GitHub repository.", "Create issue"),
  t(
    "github",
    "list_issues",
    "List issues in a GitHub repository with filtering options (state, labels).",
    "List issues",
  ),
  t("github", "get_issue", "Get details of a specific issue in a GitHub repository."),
  t("github", "add_issue_comment", "Add a comment to an existing issue or pull request."),
  t("github", "create_pull_request", "Create a new pull request in a GitHub repository."),
  t("github", "search_repositories", "Search for GitHub repositories by name, topic or language."),
  t("github", "search_code", "Search for code across GitHub repositories."),
  t("github", "get_file_contents", "Get the contents of a file or directory from a GitHub repository."),
  t("demo", "list_tickets", "List support tickets, newest first. Filter by status (open, pending, closed)."),
  t("demo", "get_ticket", "Get one support ticket with its full message history."),
  t(
    "demo",
    "search_customers",
    "Search customers by name, email or company. Returns matching customer records.",
  ),
  t("demo", "create_ticket", "Open a new support ticket for a customer."),
  t("everything", "echo", "Echoes back the input message."),
  t("everything", "get-sum", "Returns the sum of two numbers."),
  t("everything", "longRunningOperation", "Demonstrates a long running operation with progress updates."),
  t(
    "everything",
    "printEnv",
    "Prints all environment variables, helpful for debugging MCP server configuration.",
  ),
  t("everything", "getTinyImage", "Returns the MCP_TINY_IMAGE."),
];

const names = (tools: CatalogTool[]) => tools.map((tool) => tool.qualifiedName);
const search = (query: string, opts: { server?: string; limit?: number } = {}) =>
  names(searchCatalog(CATALOG, { query, ...opts }));

describe("tokenize", () => {
  it("splits camelCase, snake_case, kebab-case and prose, lowercases and drops stopwords", () => {
    expect(tokenize("longRunningOperation")).toEqual(["long", "running", "operation"]);
    expect(tokenize("get-sum add_issue_comment")).toEqual(["get", "sum", "add", "issue", "comment"]);
    expect(tokenize("HTTPServer for the MCP_TINY_IMAGE")).toEqual(["http", "server", "mcp", "tiny", "image"]);
    expect(tokenize("the")).toEqual(["the"]);
  });

  it("stems plurals and verb endings so that they meet", () => {
    expect(stem("issues")).toBe(stem("issue"));
    expect(stem("repositories")).toBe(stem("repository"));
    expect(stem("creating")).toBe(stem("create"));
    expect(stem("searches")).toBe(stem("search"));
    expect(stem("status")).toBe("status");
  });
});

describe("searchCatalog", () => {
  it("lists every tool by qualified name when the query is empty", () => {
    expect(search("")).toEqual([...names(CATALOG)].sort());
    expect(names(searchCatalog(CATALOG, {}))).toEqual([...names(CATALOG)].sort());
    expect(search("   ", { server: "demo" })).toEqual([
      "demo.create_ticket",
      "demo.get_ticket",
      "demo.list_tickets",
      "demo.search_customers",
    ]);
  });

  it("ranks an exact qualified or bare tool name first", () => {
    expect(search("github.get_issue")[0]).toBe("github.get_issue");
    expect(search("create_issue")[0]).toBe("github.create_issue");
    expect(search("everything.get-sum")[0]).toBe("everything.get-sum");
    expect(search("everything.get_sum")[0]).toBe("everything.get-sum");
    expect(search("tools.demo.list_tickets")[0]).toBe("demo.list_tickets");
  });

  it("ranks name matches above description matches", () => {
    expect(search("create issue").slice(0, 2)).toEqual(["github.create_issue", "github.list_issues"]);
    expect(search("list issues")[0]).toBe("github.list_issues");
    expect(search("issues")[0]).toBe("github.list_issues");
    expect(search("tickets")).toEqual(["demo.list_tickets", "demo.create_ticket", "demo.get_ticket"]);
    expect(search("customer")[0]).toBe("demo.search_customers");
    expect(search("sum")).toEqual(["everything.get-sum"]);
    expect(search("echo")).toEqual(["everything.echo"]);
  });

  it("splits camelCase names and matches prefixes", () => {
    expect(search("print env")[0]).toBe("everything.printEnv");
    expect(search("long running")[0]).toBe("everything.longRunningOperation");
    expect(search("cust")[0]).toBe("demo.search_customers");
    expect(search("repo")[0]).toBe("github.search_repositories");
  });

  it("finds tools by description words alone", () => {
    expect(search("environment variables")).toEqual(["everything.printEnv"]);
    expect(search("numbers")).toEqual(["everything.get-sum"]);
    expect(search("email")).toEqual(["demo.search_customers"]);
  });

  it("weighs rare words above common ones and rewards matching every term", () => {
    expect(search("github comment")[0]).toBe("github.add_issue_comment");
    expect(search("search code")[0]).toBe("github.search_code");
    expect(search("search customers")[0]).toBe("demo.search_customers");
    expect(search("comment on an issue")[0]).toBe("github.add_issue_comment");
  });

  it("leaves out tools that match nothing", () => {
    expect(search("xyzzy")).toEqual([]);
    expect(search("the")).toEqual([]);
    expect(search("!!!")).toEqual([...names(CATALOG)].sort());
  });

  it("filters by server", () => {
    expect(search("search", { server: "github" })).toEqual([
      "github.search_code",
      "github.search_repositories",
    ]);
    expect(search("ticket", { server: "github" })).toEqual([]);
    expect(search("", { server: "nope" })).toEqual([]);
  });

  it("breaks ties by qualified name, whatever the catalog order", () => {
    const twins = [t("b", "ping", "Ping."), t("a", "ping", "Ping."), t("c", "ping", "Ping.")];
    expect(names(searchCatalog(twins, { query: "ping" }))).toEqual(["a.ping", "b.ping", "c.ping"]);
    expect(names(searchCatalog([...twins].reverse(), { query: "ping" }))).toEqual([
      "a.ping",
      "b.ping",
      "c.ping",
    ]);
  });

  it("defaults the limit to 20 and clamps it to 1..100", () => {
    const many = Array.from({ length: 150 }, (_, i) =>
      t("bulk", `tool_${String(i).padStart(3, "0")}`, "A bulk tool."),
    );
    expect(searchCatalog(many, {})).toHaveLength(20);
    expect(searchCatalog(many, { query: "bulk" })).toHaveLength(20);
    expect(searchCatalog(many, { limit: 5 })).toHaveLength(5);
    expect(searchCatalog(many, { limit: 0 })).toHaveLength(1);
    expect(searchCatalog(many, { limit: -3 })).toHaveLength(1);
    expect(searchCatalog(many, { limit: 1_000 })).toHaveLength(100);
    expect(searchCatalog(many, { limit: Number.NaN })).toHaveLength(20);
    expect(searchCatalog(many, { limit: 2.9 })).toHaveLength(2);
    expect(rankCatalog(many, { query: "bulk" })).toHaveLength(150);
  });

  it("does not modify the catalog", () => {
    const copy = [...CATALOG];
    searchCatalog(CATALOG, {});
    searchCatalog(CATALOG, { query: "issue" });
    expect(CATALOG).toEqual(copy);
  });
});

describe("closeMatches", () => {
  it("suggests qualified names for typos, best first", () => {
    expect(closeMatches("github.create_isue", CATALOG)[0]).toBe("github.create_issue");
    expect(closeMatches("github.craete_issue", CATALOG)[0]).toBe("github.create_issue");
    expect(closeMatches("github.createissue", CATALOG)[0]).toBe("github.create_issue");
    expect(closeMatches("demo.list_ticket", CATALOG)[0]).toBe("demo.list_tickets");
    expect(closeMatches("demo.listTickets", CATALOG)[0]).toBe("demo.list_tickets");
  });

  it("forgives a missing or wrong server and - for _", () => {
    expect(closeMatches("create_issue", CATALOG)[0]).toBe("github.create_issue");
    expect(closeMatches("gh.create_issue", CATALOG)[0]).toBe("github.create_issue");
    expect(closeMatches("everything.get_sum", CATALOG)).toEqual(["everything.get-sum"]);
    expect(closeMatches("tools.everything.getsum", CATALOG)[0]).toBe("everything.get-sum");
  });

  it("suggests names that contain the given one", () => {
    expect(closeMatches("issue", CATALOG)).toEqual([
      "github.get_issue",
      "github.list_issues",
      "github.create_issue",
    ]);
  });

  it("gives nothing for unrelated names and respects max", () => {
    expect(closeMatches("xyzzy", CATALOG)).toEqual([]);
    expect(closeMatches("", CATALOG)).toEqual([]);
    expect(closeMatches("issue", CATALOG, 1)).toHaveLength(1);
    expect(closeMatches("issue", CATALOG, 0)).toEqual([]);
  });
});
