import { describe, expect, it } from "vitest";
import { rankCatalog } from "../../workers/gateway/discovery/search";
import { catalogTool as t } from "../helpers/catalog-tool";
import { demoCatalog } from "../helpers/demo-mcp";

const notion = ["Retrieve a page", "Create a page", "Query a data source", "Create a comment"].map((what) =>
  t(
    "notion",
    `API-${what.toLowerCase().replaceAll(" ", "-")}`,
    `Notion | ${what} Error Responses: 400: Bad request`,
  ),
);

describe("text a server repeats in most of its descriptions", () => {
  it("does not make its words match every tool of the server", () => {
    const tools = [
      ...notion,
      t("chrome-devtools", "list_console_messages", "List console messages, errors first"),
    ];
    expect(rankCatalog(tools, { query: "show the errors" })[0]?.qualifiedName).toBe(
      "chrome-devtools.list_console_messages",
    );
    expect(rankCatalog(tools, { query: "bad request responses" }).map((tool) => tool.server)).not.toContain(
      "notion",
    );
  });

  it("keeps text that only a few of the server's tools share, and servers with few tools", () => {
    const few = notion.slice(0, 3);
    expect(rankCatalog(few, { query: "bad request" })).toHaveLength(3);
    const themed = [...notion, t("notion", "API-get-self", "Retrieve your token's bot user")];
    expect(rankCatalog(themed, { query: "retrieve" }).map((tool) => tool.name)).toEqual([
      "API-retrieve-a-page",
      "API-get-self",
    ]);
  });

  it("does not let one server's description make its words worthless (a team with one upstream)", async () => {
    const tools = await demoCatalog();
    const servers = [{ name: "demo", description: "Demo support desk: 10,000 tickets, 2,000 customers" }];
    const first = (query: string) => rankCatalog(tools, { query, servers })[0]?.name;
    expect(first("which tickets are still open")).toBe("list_tickets");
    expect(first("what customers do we have")).toBe("list_customers");
    // and so with a server whose descriptions also repeat text
    const workspace = [{ name: "notion", description: "Notion workspace: pages, databases, comments" }];
    expect(rankCatalog(notion, { query: "workspace", servers: workspace })).toEqual([]);
  });
});
