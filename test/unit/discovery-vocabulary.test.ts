import { describe, expect, it } from "vitest";
import { parseQuery } from "../../workers/gateway/discovery/query";
import { rankCatalog, rankTools } from "../../workers/gateway/discovery/search";
import { termStem } from "../../workers/gateway/discovery/terms";
import { catalogTool as t } from "../helpers/catalog-tool";
import { corpusTools, firstOf } from "../helpers/corpus-tools";
import { demoCatalog } from "../helpers/demo-mcp";

// Words people use that tool definitions do not (everyday.ts), values that say what they are, things
// named by an identifier, and words whose part of speech decides what they ask for ("open tickets":
// a state; "open a ticket": an action). Verbs and common English forms: discovery-verbs.test.ts.
describe("ranking by everyday meaning", () => {
  it("reads `one more` as adding (one more fact: add observations, not delete them)", () => {
    const first = firstOf(corpusTools("@modelcontextprotocol/server-memory"));
    expect(first("note one more fact about the customer Acme we already track")).toBe(
      "memory.add_observations",
    );
  });

  it("reads a product's own jargon only for a catalog that has the product (how much: Supabase's cost)", () => {
    const said = (vocabulary: Map<string, unknown>) =>
      parseQuery("how much money is in our account balance", vocabulary).concepts.flatMap((concept) => [
        ...concept.stems.keys(),
      ]);
    expect(said(new Map())).not.toContain(termStem("cost"));
    expect(said(new Map([[termStem("supabase"), []]]))).toContain(termStem("cost"));
  });

  it("reads an everyday phrase in either order (build red, red build)", () => {
    const github = [
      t(
        "github",
        "get_pull_request_status",
        "Get the combined status of all status checks for a pull request",
      ),
      t("github", "get_pull_request", "Get details of a specific pull request"),
      t("github", "get_pull_request_comments", "Get the review comments on a pull request"),
    ];
    const first = firstOf(github);
    expect(first("why is the build red on pull request 77")).toBe("github.get_pull_request_status");
    expect(first("is the red build on pull request 77 fixed")).toBe("github.get_pull_request_status");
  });

  it("reads everyday words and phrases as the words tools use (commute, opening hours)", () => {
    const maps = [
      t("google-maps", "maps_directions", "Get directions between two points"),
      t("google-maps", "maps_place_details", "Get detailed information about a specific place"),
      t("google-maps", "maps_elevation", "Get elevation data for locations on the earth"),
      t("google-maps", "maps_reverse_geocode", "Convert coordinates into an address"),
      t("google-maps", "maps_geocode", "Convert an address into geographic coordinates"),
      t("everything", "get-weather", "Returns the weather for a city"),
      t("github", "get_pull_request_reviews", "Get the reviews on a pull request"),
      t("github", "get_pull_request", "Get details of a specific pull request"),
    ];
    const first = firstOf(maps);
    expect(first("plan my commute to the office")).toBe("google-maps.maps_directions");
    expect(first("which city is at -33.8688, 151.2093")).toBe("google-maps.maps_reverse_geocode");
    expect(first("when does the bakery close, what are its opening hours")).toBe(
      "google-maps.maps_place_details",
    );
  });

  it("reads a state named in the query as a filter, not as the tool's action (the demo desk)", () => {
    const filters = {
      status: { type: "string", enum: ["open", "pending", "resolved", "closed"] },
      priority: { type: "string", enum: ["low", "normal", "high", "urgent"] },
    };
    const desk = [
      {
        ...t(
          "demo",
          "list_tickets",
          "List support tickets, newest first, optionally filtered by status, priority, assignee, customer, tag and creation date (filters combine with AND). Paginated.",
        ),
        inputSchema: { type: "object", properties: filters },
      },
      t(
        "demo",
        "create_ticket",
        'Open a new ticket (status "open") for an existing customer and return it with its new id.',
      ),
      t(
        "demo",
        "get_ticket",
        "Get one ticket by id with its full conversation and a summary of the customer.",
      ),
      {
        ...t(
          "demo",
          "update_ticket",
          "Change a ticket's status, priority, assignee and/or tags and return the updated ticket.",
        ),
        inputSchema: { type: "object", properties: filters },
      },
      t("demo", "add_ticket_comment", "Add an agent reply or internal note to a ticket that is not closed."),
    ];
    const first = firstOf(desk);
    // `open` is a status here, not "Open a new ticket"; `close` changes a status.
    expect(first("which open tickets are urgent")).toBe("demo.list_tickets");
    expect(first("show me the urgent open tickets")).toBe("demo.list_tickets");
    expect(first("close ticket 42")).toBe("demo.update_ticket");
    expect(first("escalate ticket 9 to urgent")).toBe("demo.update_ticket");
    expect(first("open a ticket for cus_00042")).toBe("demo.create_ticket");
  });
});

describe("ranking by what values and verbs say", () => {
  const tools = [
    t("kubernetes", "kubectl_get", "Get or list Kubernetes resources by kind and namespace"),
    t("kubernetes", "kubectl_apply", "Apply a YAML manifest to the cluster"),
    t("filesystem", "search_files", "Recursively search for files and directories matching a pattern"),
    t("desktop-commander", "write_pdf", "Create a new PDF file from markdown content"),
    t("firecrawl", "firecrawl_parse", "Parse a PDF or document and return markdown"),
  ];
  const first = firstOf(tools);

  it("reads a path ending in a slash as a folder, not as the server its name recalls", () => {
    expect(first("find every .yaml file under the k8s/ folder")).toBe("filesystem.search_files");
    expect(first("list the pods in the k8s cluster")).toBe("kubernetes.kubectl_get");
  });

  it("reads `write` as making something new (write a PDF)", () => {
    expect(first("produce a PDF document from this markdown")).toBe("desktop-commander.write_pdf");
  });
});

describe("ranking by how the query is written", () => {
  const tools = [
    t("supabase", "list_edge_functions", "Lists all Edge Functions in a project"),
    t("supabase", "deploy_edge_function", "Deploys an Edge Function to a project"),
    t("firecrawl", "firecrawl_map", "Map a website: all the URLs it has"),
    t("firecrawl", "firecrawl_scrape", "Scrape one URL of a website as markdown"),
    t("filesystem", "search_files", "Search for files whose names match a pattern"),
    t("filesystem", "get_file_info", "Get a file's size, times and permissions"),
    t("filesystem", "read_multiple_files", "Read several files at once"),
    t("filesystem", "read_text_file", "Read a text file"),
  ];
  const first = firstOf(tools);

  it("prefers a tool whose name has two of the query's words side by side (edge functions)", () => {
    expect(first("which edge functions are deployed")).toBe("supabase.list_edge_functions");
  });

  it("reads every as all, a where-question as a search, dotfiles as files", () => {
    expect(first("get every URL of that website")).toBe("firecrawl.firecrawl_map");
    expect(first("where is the settings file")).toBe("filesystem.search_files");
    expect(first("compare .env.example and .env")).toBe("filesystem.read_multiple_files");
  });
});

describe("query values", () => {
  const labels = (text: string) => parseQuery(text, new Map()).concepts.map((c) => c.label);

  it("reads a path ending in a slash as a folder, but not a host's path or an owner/repo", () => {
    expect(labels("files under ./src/app/")).toContain("folder");
    expect(labels("what is in .github/workflows/")).toContain("folder");
    expect(labels("every URL under docs.stripe.com/payments/")).not.toContain("folder");
    expect(labels("the packages of facebook/react")).not.toContain("folder");
  });

  it("reads a URL as a URL and a host name as a website, whatever words they are made of", () => {
    expect(labels("get every URL under docs.stripe.com/payments")).toContain("website");
    expect(labels("get every URL under docs.stripe.com/payments")).not.toContain("payments");
    expect(labels("fetch what https://example.com/robots.txt says")).toContain("url");
    expect(labels("fetch what https://example.com/robots.txt says")).not.toContain("file");
    expect(labels("is deploy.sh executable")).toContain("file");
    expect(labels("send the report to bob@acme.com")).toContain("email");
    expect(labels("send the report to bob@acme.com")).not.toContain("website");
  });

  it("reads what's as `what is`: no term of its own, its everyday phrases count for what follows", () => {
    const query = parseQuery("list what's in the repo", new Map());
    expect(query.concepts.map((c) => c.label)).not.toContain("whats");
    expect(query.concepts.find((c) => c.label === "repo")?.stems.has("content")).toBe(true);
  });

  it("reads `.name` as a CSS selector, a dotfile still as a file", () => {
    expect(labels("read the innerText of the .price element")).toContain("selector");
    expect(labels("read the innerText of the .price element")).not.toContain("price");
    expect(labels("open .env and .gitignore")).not.toContain("selector");
    expect(labels("docs for next.js")).not.toContain("selector");
  });

  it("reads `#name` as a chat channel, `#77` not", () => {
    expect(labels("let #releases know that v3.2 shipped")).toContain("channel");
    expect(labels("let #releases know that v3.2 shipped")).not.toContain("releases");
    expect(labels("close #77")).not.toContain("channel");
  });

  it("reads a dotfile as a file and a long identifier as code", () => {
    expect(labels("open .env.example")).toContain("file");
    expect(labels("where is getUserById called")).toContain("code");
    expect(labels("run printEnv")).not.toContain("code");
    const stems = (text: string, label: string) => [
      ...(parseQuery(text, new Map())
        .concepts.find((c) => c.label === label)
        ?.stems.keys() ?? []),
    ];
    // A symbol's parts are not words about the tool to look for ("get", "user"); a short name's are.
    expect(stems("where is getUserById called", "getuserbyid")).not.toContain("get");
    expect(stems("run printEnv", "printenv")).toContain("print");
  });

  it("reads `file a …` as making one only where the query says file, not where a file name stood", () => {
    expect(labels("file a bug about the login page")).toContain("create");
    expect(labels("attach report.pdf an hour after the meeting")).toContain("file");
    expect(labels("attach report.pdf an hour after the meeting")).not.toContain("create");
  });

  it("reads `which things are …` and `what things do I have` as asking for a list", () => {
    const first = firstOf(corpusTools("@wonderwhy-er/desktop-commander", "firecrawl-mcp"));
    expect(first("which searches are still running in the background")).toBe(
      "desktop-commander.list_searches",
    );
    expect(first("what page monitors do I have set up")).toBe("firecrawl.firecrawl_monitor_list");
    const verbs = (text: string) => parseQuery(text, new Map()).verbs;
    expect(verbs("what columns does the Bugs table have")).toEqual(verbs("what is in the table"));
    expect(verbs("which process is still running")).toEqual(verbs("what is in the table"));
  });

  it("reads select, choose and pick as one action (choosing an option)", () => {
    const verbs = (text: string) => parseQuery(text, new Map()).verbs;
    expect(verbs("pick Large in the size dropdown")).not.toEqual([]);
    expect(verbs("choose Large in the size dropdown")).toEqual(verbs("pick Large in the size dropdown"));
    const browsers = firstOf(corpusTools("@playwright/mcp", "@modelcontextprotocol/server-puppeteer"));
    expect(browsers("select both Red and Blue in the colors multi-select")).toMatch(/select/);
  });

  it("reads a verb with a subject as what someone does, not what to do (the customer we track)", () => {
    const verbs = (text: string) => parseQuery(text, new Map()).verbs;
    expect(verbs("note a fact about the customer we already track")).toEqual([]);
    expect(verbs("delete the tabs I open every morning")).toEqual(verbs("delete the tabs"));
    expect(verbs("can you track this page")).toEqual(verbs("track this page"));
    expect(verbs("how do I invalidate the cache")).not.toEqual([]);
  });

  it("reads an -s form after the action as a thing, not a second action (the past checks)", () => {
    const query = parseQuery("show the past checks of the docs monitor", new Map());
    expect(query.concepts.find((c) => c.label === "checks")?.verbs).toEqual([]);
    expect(labels("the page that lists users")).toContain("lists");
  });
});

describe("ranking for a thing named by its identifier", () => {
  const first = firstOf(corpusTools("@modelcontextprotocol/server-github"));

  it("does not list or make what the query names one existing one of (PR 560)", () => {
    expect(first("how many files does PR 560 touch")).toBe("github.get_pull_request_files");
    expect(first("show PR 560")).not.toBe("github.list_pull_requests");
    expect(first("show the open PRs")).toBe("github.list_pull_requests");
    expect(first("create an issue about the login crash")).toBe("github.create_issue");
  });

  it("prefers tools that need no more identifiers than the query gives (monitor_check needs two)", () => {
    const firecrawl = firstOf(corpusTools("firecrawl-mcp"));
    expect(firecrawl("show the schedule and goal configured on monitor mon_42")).toBe(
      "firecrawl.firecrawl_monitor_get",
    );
    expect(firecrawl("show the past checks of the docs monitor that errored")).toBe(
      "firecrawl.firecrawl_monitor_checks",
    );
    expect(parseQuery("the results of check chk_9 of monitor mon_42", new Map()).identifiers).toBe(2);
  });

  it("does not offer, for a thing's ID asked for, the tools that need that ID", () => {
    const slack = firstOf(corpusTools("@modelcontextprotocol/server-slack"));
    expect(slack("I need the channel ID of #incident-response")).toBe("slack.slack_list_channels");
    const notion = firstOf(corpusTools("@notionhq/notion-mcp-server"));
    expect(notion("look up the Notion user with id 6a2f91 to get their email")).toBe("notion.API-get-user");
  });

  it("knows a thing of two words by its required ID (data_source_id: the data source ID)", () => {
    const notion = corpusTools("@notionhq/notion-mcp-server");
    const matched = (query: string, tool: string) =>
      rankTools(notion, { query }).find((hit) => hit.tool.name === tool)?.matched;
    expect(
      matched("I need the data source ID of the Bugs tracker", "API-retrieve-a-data-source"),
    ).not.toContain("id");
    expect(matched("I need the ID of the data source", "API-retrieve-a-data-source")).not.toContain("id");
    expect(matched("retrieve data source 5e2c1 by its ID", "API-retrieve-a-data-source")).toContain("id");
  });

  it("reads a bare required `id` as the identifier of the thing the tool is named for (get_customer)", async () => {
    const desk = await demoCatalog();
    const ranked = rankCatalog(desk, { query: "I need the customer ID of Acme Corp" }).map(
      (tool) => tool.name,
    );
    expect(ranked.indexOf("list_customers")).toBeLessThan(ranked.indexOf("get_customer"));
    expect(rankCatalog(desk, { query: "get customer cus_00042" })[0]?.name).toBe("get_customer");
  });

  it("reads numbers and ids after a thing's name as naming one, not versions or names", () => {
    const vocabulary = new Map(["issu", "monitor", "branch", "pullrequest"].map((s) => [s, 1]));
    const instances = (text: string) => [...parseQuery(text, vocabulary).instances];
    expect(instances("close issue #42")).toEqual(["issu"]);
    expect(instances("show monitor mon_42")).toEqual(["monitor"]);
    expect(instances("why is the build red on pull request 77")).toEqual(["pullrequest"]);
    expect(instances("open an issue for cus_42")).toEqual([]);
    expect(instances("cut a branch release-2.0")).toEqual([]);
    expect(instances("add a page under Sprint 12")).toEqual([]);
  });
});

describe("ranking when a server's name is part of an everyday phrase", () => {
  const tools = [
    t("memory", "create_entities", "Create multiple new entities in the knowledge graph"),
    t("memory", "add_observations", "Add new observations to existing entities in the knowledge graph"),
    t("memory", "read_graph", "Read the entire knowledge graph"),
    t("chrome-devtools", "take_heapsnapshot", "Take a heap snapshot of the page's JavaScript memory"),
    t("chrome-devtools", "performance_start_trace", "Start a performance trace recording"),
    t("google-maps", "maps_directions", "Get directions between two points"),
    t("google-maps", "maps_geocode", "Convert an address into geographic coordinates"),
    t("firecrawl", "firecrawl_map", "Map a website to discover all its URLs"),
  ];
  const first = firstOf(tools);

  it("does not read the phrase's word as the server when the server does not do what it means", () => {
    expect(first("debug a memory leak in the web app")).toBe("chrome-devtools.take_heapsnapshot");
    expect(first("what is in memory")).toBe("memory.read_graph");
    expect(first("route to the airport with google maps")).toBe("google-maps.maps_directions");
  });
});
