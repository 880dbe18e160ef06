import { describe, expect, it } from "vitest";
import { parseQuery } from "../../workers/gateway/discovery/query";
import { rankCatalog } from "../../workers/gateway/discovery/search";
import { stemsOf, terms } from "../../workers/gateway/discovery/terms";
import { catalogTool as t } from "../helpers/catalog-tool";
import { corpusTools, firstOf } from "../helpers/corpus-tools";
import { demoFirstOf } from "../helpers/demo-mcp";

// What action a query asks for: verbs, phrasal verbs and common English forms, and how the demo
// desk's everyday requests ("open a support ticket", "show me the customers") read.
describe("ranking by common English forms", () => {
  const tools = [
    t("github", "create_issue", "Create a new issue in a GitHub repository"),
    t("github", "get_pull_request_files", "Get the list of files changed in a pull request"),
    t("filesystem", "read_text_file", "Read the complete contents of a file as text"),
    t("filesystem", "read_multiple_files", "Read the contents of multiple files simultaneously"),
    t("slack", "slack_post_message", "Post a new message to a Slack channel"),
    t("slack", "slack_add_reaction", "Add a reaction emoji to a message"),
    t("kubernetes", "ping", "Verify that the server is alive"),
    t("kubernetes", "kubectl_get", "Get or list Kubernetes resources"),
  ];
  const first = firstOf(tools);

  it("reads `file a …` as making one, `how many` as a count, `:eyes:` as an emoji", () => {
    expect(first("file a ticket titled 'flaky test' in the tracker")).toBe("github.create_issue");
    expect(first("how many files does PR 560 touch")).toBe("github.get_pull_request_files");
    expect(first("put an :eyes: on that Slack message")).toBe("slack.slack_add_reaction");
  });

  it("reads `don't`, `isn't`, `I'd` as their verbs without `not`, and `need` as no term of a query", () => {
    const labels = (text: string) => parseQuery(text, new Map()).concepts.map((c) => c.label);
    expect(labels("I don't need the old branch anymore, delete it")).toEqual(["old", "branch", "delete"]);
    expect(labels("why isn't my pod starting")).toEqual(["pod", "starting"]);
    expect(labels("I'd like a list of what we've got")).not.toContain("ve");
  });

  it("reads what follows `called` as a name, not words about the tool; `named` says the tool takes one", () => {
    const files = firstOf(
      corpusTools("@modelcontextprotocol/server-filesystem", "@modelcontextprotocol/server-gitlab"),
    );
    expect(files("I need a new folder called logs")).toBe("filesystem.create_directory");
    expect(files("make a new directory called issues")).toBe("filesystem.create_directory");
    expect(files("create a GitLab project named infra")).toBe("gitlab.create_repository");
    expect(
      parseQuery("where is getUserById called in the project", new Map()).concepts.map((c) => c.label),
    ).toContain("called");
  });

  it("reads looking up one thing by its identifier as getting it, not searching (look up product prod_789)", () => {
    const ranked = rankCatalog(
      [
        t("shop", "search_products", "Search for products you have created"),
        t("shop", "retrieve_product", "Retrieves the details of an existing product"),
      ],
      { query: "look up product prod_789" },
    ).map((tool) => tool.name);
    expect(ranked).toEqual(["retrieve_product", "search_products"]);
    expect(parseQuery("look up product prod_789", new Map([["product", 1]])).verbs).toContain("get");
    expect(parseQuery("look up products", new Map([["product", 1]])).verbs).not.toContain("get");
  });

  it("reads `still responding` as the liveness check", () => {
    expect(first("is kubernetes still responding?")).toBe("kubernetes.ping");
  });

  it("reads a phrasal verb split by its object (roll the deployment back) as the phrase", () => {
    const deploys = firstOf([
      t("kubernetes", "kubectl_rollout", "Manage the rollout of a resource: status, history, undo, restart"),
      t("supabase", "deploy_edge_function", "Deploys an Edge Function to a Supabase project"),
      t("playwright", "browser_navigate_back", "Go back to the previous page"),
    ]);
    expect(deploys("roll deployment/checkout back to the previous revision")).toBe(
      "kubernetes.kubectl_rollout",
    );
  });

  it("reads a split phrasal verb in queries only, and `up to` as how far", () => {
    const stems = (text: string) => terms(text, false).map((term) => term.stem);
    expect(stems("shut the dev server down")).toContain("shutdown");
    expect(stems("set the read limit up to 5000")).not.toContain("setup");
    expect(stemsOf("Rolls the deployment back to a revision")).not.toContain("rollback");
  });
});

describe("ranking by what verbs mean", () => {
  const tools = [
    t("notion", "API-move-page", "Notion | Move a page"),
    t("notion", "API-patch-page", "Notion | Update page properties"),
    t("browser", "click", "Click an element on the page"),
    t("browser", "fill", "Fill a form field or checkbox with a value"),
    t("slack", "reply_to_thread", "Reply to a thread with a new message"),
    t("slack", "get_thread_replies", "Get all replies in a message thread"),
  ];
  const first = firstOf(tools);

  it("reads resolve as looking up (a library ID) as well as settling (an issue)", () => {
    const first = firstOf(corpusTools("@upstash/context7-mcp", "@modelcontextprotocol/server-github"));
    expect(first("find the documentation library ID for next.js")).toBe("context7.resolve-library-id");
    expect(first("resolve issue 42 on GitHub")).toBe("github.update_issue");
  });

  it("reads leaving a comment as making one", () => {
    const comments = firstOf(corpusTools("@notionhq/notion-mcp-server"));
    expect(comments("leave a comment on the launch-plan page saying 'legal sign-off still pending'")).toBe(
      "notion.API-create-a-comment",
    );
  });

  it("reads past as historical", () => {
    const monitors = [
      t("firecrawl", "monitor_checks", "List historical checks for a monitor, optionally by status"),
      t(
        "firecrawl",
        "monitor_check",
        "Retrieve one monitor check and its page results; pages may show an error",
      ),
    ];
    expect(firstOf(monitors)("show the past checks of the docs monitor")).toBe("firecrawl.monitor_checks");
  });

  it("reads rename as a change, tick as a click, summarize as reading", () => {
    expect(first("rename the Notion page to 'Q3 Planning'")).toBe("notion.API-patch-page");
    expect(first("tick the 'I agree to the terms' checkbox")).toBe("browser.click");
    expect(first("summarize what people said in the deploy thread")).toBe("slack.get_thread_replies");
  });
});

describe("ranking the demo desk's everyday requests", () => {
  it("reads opening a ticket, an issue or a PR as making one (the demo desk)", async () => {
    const first = await demoFirstOf();
    expect(first("open a support ticket")).toBe("create_ticket");
    expect(first("open a new ticket for cus_00042 about a broken invoice")).toBe("create_ticket");
  });

  it("reads showing several things with no id as listing them (the demo desk)", async () => {
    const first = await demoFirstOf();
    expect(first("show me the customers")).toBe("list_customers");
    expect(first("display the customers")).toBe("list_customers");
    expect(first("show customer cus_00042")).toBe("get_customer");
  });

  it("reads `what's` as a question, like `what` (the demo desk)", async () => {
    const first = await demoFirstOf();
    expect(parseQuery("what's the status of ticket 42", new Map()).verbs).toEqual(
      parseQuery("what is the status of ticket 42", new Map()).verbs,
    );
    expect(first("what's in ticket 42")).toBe("get_ticket");
    expect(first("show me what's in ticket 42")).toBe("get_ticket");
  });

  it("reads a word after `stay` or `is` as how something is, not what to do (the demo desk)", async () => {
    const first = await demoFirstOf();
    expect(first("I don't want ticket 7 to stay open, close it")).toBe("update_ticket");
    expect(first("ticket 7 is still open, close it")).toBe("update_ticket");
  });

  it("reads `what's` as a word and `'s`, not as a plural to list", () => {
    // Were it a plural, `show` would be a listing and no longer find `read` (a getter's word).
    const vocabulary = new Map(["read", "file", "list"].map((s) => [s, 1]));
    const show = (text: string) => parseQuery(text, vocabulary).concepts[0]?.stems;
    expect(show("show me what's inside config.yaml")?.has("read")).toBe(true);
    expect(show("show me the files")?.has("read")).toBe(false);
  });

  it("reads an example in parentheses as how to call a tool, not what it does (ticket_stats)", async () => {
    const first = await demoFirstOf();
    // ticket_stats: "… (e.g. a creation date range, or status "open" to see open tickets per assignee)."
    expect(first("show me the open tickets")).toBe("list_tickets");
  });
});
