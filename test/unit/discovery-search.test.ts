import { describe, expect, it } from "vitest";
import type { CatalogTool } from "../../shared/contract/tools";
import { closeMatches, rankCatalog, rankTools, searchCatalog } from "../../workers/gateway/discovery/search";
import { searchTools } from "../../workers/gateway/discovery/service";
import type { Catalog } from "../../workers/gateway/upstreams";
import { catalogTool as t } from "../helpers/catalog-tool";

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
/** Every match, best first (the default page is 5: see "defaults the limit"). */
const search = (query: string, opts: { server?: string; limit?: number } = {}) =>
  names(searchCatalog(CATALOG, { query, limit: 100, ...opts }));

describe("searchCatalog", () => {
  it("lists every tool by qualified name when the query is empty", () => {
    expect(search("")).toEqual([...names(CATALOG)].sort());
    expect(names(searchCatalog(CATALOG, { limit: 100 }))).toEqual([...names(CATALOG)].sort());
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
    expect(search("create issue")[0]).toBe("github.create_issue");
    expect(search("list issues")[0]).toBe("github.list_issues");
    expect(search("issues")[0]).toBe("github.list_issues");
    expect(search("tickets").slice(0, 3)).toEqual([
      "demo.list_tickets",
      "demo.create_ticket",
      "demo.get_ticket",
    ]);
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
    expect(search("customer", { server: "github" })).toEqual([]);
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

  it("defaults the limit to 5 and clamps it to 1..100", () => {
    const many = Array.from({ length: 150 }, (_, i) =>
      t("bulk", `tool_${String(i).padStart(3, "0")}`, "A bulk tool."),
    );
    expect(searchCatalog(many, {})).toHaveLength(5);
    expect(searchCatalog(many, { query: "bulk" })).toHaveLength(5);
    expect(searchCatalog(many, { limit: 20 })).toHaveLength(20);
    expect(searchCatalog(many, { limit: 0 })).toHaveLength(1);
    expect(searchCatalog(many, { limit: -3 })).toHaveLength(1);
    expect(searchCatalog(many, { limit: 1_000 })).toHaveLength(100);
    expect(searchCatalog(many, { limit: Number.NaN })).toHaveLength(5);
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

const MORE: CatalogTool[] = [
  ...CATALOG,
  t("filesystem", "create_directory", "Create a new directory or ensure a directory exists."),
  t(
    "filesystem",
    "list_directory",
    "Get a detailed listing of all files and directories in a specified path.",
  ),
  t("filesystem", "move_file", "Move or rename files and directories."),
  t("redis", "set", "Set a Redis key-value pair with optional expiration"),
  t("redis", "get", "Get value by key from Redis"),
  t("redis", "delete", "Delete one or more keys from Redis"),
  t("gitlab", "create_issue", "Create a new issue in a GitLab project"),
  t("gitlab", "create_merge_request", "Create a new merge request in a GitLab project"),
  t(
    "kubernetes",
    "kubectl_get",
    "Get or list Kubernetes resources by resource type, name, and optionally namespace",
  ),
  t(
    "kubernetes",
    "kubectl_delete",
    "Delete Kubernetes resources by resource type, name, labels, or from a manifest file",
  ),
  t("slack", "slack_list_channels", "List public or pre-defined channels in the workspace with pagination"),
  t("slack", "slack_get_channel_history", "Get recent messages from a channel"),
  t("notion", "API-post-page", "Notion | Create a page"),
  t("notion", "API-delete-a-block", "Notion | Delete a block"),
];
const SERVERS = [
  { name: "github", description: "GitHub: repositories, issues, pull requests" },
  { name: "kubernetes", description: "Kubernetes cluster via kubectl" },
];
const find = (query: string) => names(rankCatalog(MORE, { query, servers: SERVERS }));

describe("ranking by meaning", () => {
  it("meets synonyms and abbreviations: folder, repo, PR, k8s, cache, remove", () => {
    expect(find("make a new folder")[0]).toBe("filesystem.create_directory");
    expect(find("rename a file")[0]).toBe("filesystem.move_file");
    expect(find("search repos")[0]).toBe("github.search_repositories");
    expect(find("open a PR")[0]).toBe("github.create_pull_request");
    expect(find("new MR")[0]).toBe("gitlab.create_merge_request");
    expect(find("cache a value under a key")[0]).toBe("redis.set");
    expect(find("remove a cached key")[0]).toBe("redis.delete");
    expect(find("remove pods in k8s")[0]).toBe("kubernetes.kubectl_delete");
  });

  it("matches the action verb and the object of the tool's name", () => {
    expect(find("list the files in a folder")[0]).toBe("filesystem.list_directory");
    expect(find("post a notion page")[0]).toBe("notion.API-post-page");
    expect(find("delete a notion block")[0]).toBe("notion.API-delete-a-block");
    expect(find("which slack channels exist")[0]).toBe("slack.slack_list_channels");
  });

  it("keeps a pull request apart from a request", () => {
    expect(find("pull requests")[0]).toBe("github.create_pull_request");
    expect(find("requests")).not.toContain("github.create_pull_request");
  });

  it("prefers the tools of a server the query names, without dropping the others", () => {
    const github = find("github issues");
    expect(github.slice(0, 4).every((name) => name.startsWith("github."))).toBe(true);
    expect(github).toContain("gitlab.create_issue");
    expect(find("gitlab issues")[0]).toBe("gitlab.create_issue");
    expect(find("k8s")[0]?.startsWith("kubernetes.")).toBe(true);
    expect(find("list resources in kubernetes")[0]).toBe("kubernetes.kubectl_get");
  });

  it("gives each tool the query words it matched, as written", () => {
    const hits = rankTools(MORE, { query: "make a new folder", servers: SERVERS });
    expect(hits[0]).toMatchObject({ tool: { qualifiedName: "filesystem.create_directory" } });
    expect(hits[0]?.matched).toEqual(["make", "folder"]);
    const issues = rankTools(MORE, { query: "GitHub issues", servers: SERVERS });
    expect(issues[0]?.matched).toEqual(["github", "issues"]);
    expect(rankTools(MORE, { query: "" }).every((hit) => hit.matched.length === 0)).toBe(true);
  });

  it("ranks equal scores by qualified name, whatever the catalog order", () => {
    const hits = rankTools([...MORE].reverse(), { query: "create issue" });
    const ties = hits.filter((hit) => hit.score === hits[0]?.score).map((hit) => hit.tool.qualifiedName);
    expect(ties).toEqual([...ties].sort());
    expect(names(rankCatalog([...MORE].reverse(), { query: "delete" }))).toEqual(
      names(rankCatalog(MORE, { query: "delete" })),
    );
  });
});

describe("search_tools answers", () => {
  const catalog: Catalog = {
    tools: [
      ...MORE,
      t(
        "demo",
        "ticket_stats",
        'Count tickets grouped by status, optionally restricted by the same filters as list_tickets (e.g. a creation date range, or status "open"). Much cheaper than listing tickets.',
      ),
    ],
    servers: [{ name: "github", state: "ok", tools: 8, description: "GitHub: repositories, issues" }],
  };

  it("list the query words a tool matched when not all of them, at summary and full, not at name", () => {
    const summary = searchTools(catalog, { query: "create directory tree", limit: 1 });
    expect(summary.tools[0]).toMatchObject({
      name: "filesystem.create_directory",
      matched: ["create", "directory"],
    });
    expect(summary.total).toBeGreaterThan(1);
    const full = searchTools(catalog, { query: "create directory tree", limit: 1, detail: "full" });
    expect(full.tools[0]?.matched).toEqual(["create", "directory"]);
    const bare = searchTools(catalog, { query: "create directory tree", limit: 1, detail: "name" });
    expect(bare.tools[0]).toEqual({ name: "filesystem.create_directory" });
    const every = searchTools(catalog, { query: "make a new folder", limit: 1 }).tools[0];
    expect(every?.name).toBe("filesystem.create_directory");
    expect(every?.matched).toBeUndefined();
    expect(searchTools(catalog, { limit: 1 }).tools[0]?.matched).toBeUndefined();
  });

  it("answer a page of 5 with the total, signatures on the first 3 at summary and on all at full", () => {
    const page = searchTools(catalog, { query: "directory files issue" });
    expect(page.tools).toHaveLength(5);
    const ranked = rankCatalog(catalog.tools, { query: "directory files issue", servers: catalog.servers });
    expect(page.total).toBe(ranked.length);
    expect(page.total).toBeGreaterThan(5);
    expect(page.tools.map((tool) => tool.signature !== undefined)).toEqual([true, true, true, false, false]);
    expect(page.tools[3]?.description).toEqual(expect.any(String));
    const full = searchTools(catalog, { query: "directory files issue", limit: 8, detail: "full" });
    expect(full.tools).toHaveLength(Math.min(8, page.total));
    expect(full.tools.every((tool) => tool.signature !== undefined && tool.inputSchema !== undefined)).toBe(
      true,
    );
  });

  it("summarize descriptions without cutting at abbreviations", () => {
    const stats = searchTools(catalog, { query: "demo.ticket_stats", limit: 1 }).tools[0];
    expect(stats?.description).toBe(
      'Count tickets grouped by status, optionally restricted by the same filters as list_tickets (e.g. a creation date range, or status "open").',
    );
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
