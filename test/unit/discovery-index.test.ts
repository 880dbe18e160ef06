import { describe, expect, it } from "vitest";
import type { CatalogTool } from "../../shared/contract/tools";
import { rankCatalog } from "../../workers/gateway/discovery/search";
import { searchTools } from "../../workers/gateway/discovery/service";
import { catalogTool as t } from "../helpers/catalog-tool";

/** Tools whose descriptions count how often they are read (a tool's fields are read to index it). */
function counted(descriptions: Record<string, string>): { tools: CatalogTool[]; reads: () => number } {
  let reads = 0;
  const tools = Object.entries(descriptions).map(([name, description]) => {
    const tool = t("shop", name, description);
    Object.defineProperty(tool, "description", {
      get: () => {
        reads++;
        return description;
      },
      enumerable: true,
    });
    return tool;
  });
  return { tools, reads: () => reads };
}

const SHOP = {
  list_orders: "List the orders of the shop, newest first.",
  refund_payment: "Refund a payment in full or in part.",
  get_customer: "Get one customer by id.",
};
const names = (tools: CatalogTool[]) => tools.map((tool) => tool.qualifiedName);

describe("the catalog index, found by the catalog's version", () => {
  it("is built once per version: a new catalog array of the same version reads no tool's fields", () => {
    const { tools, reads } = counted(SHOP);
    const version = `index-test ${Math.random()}`;
    expect(names(rankCatalog(tools, { query: "refund a payment", version }))).toEqual([
      "shop.refund_payment",
    ]);
    const built = reads();
    expect(built).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      const answer = searchTools(
        { tools: [...tools], servers: [], version },
        { query: "refund a payment", detail: "name" },
      );
      expect(answer.tools.map((tool) => tool.name)).toEqual(["shop.refund_payment"]);
    }
    expect(reads()).toBe(built);
  });

  it("is built again for a changed version, with the new tools' ranking, then kept for it", () => {
    const first = counted(SHOP);
    const version = `index-test ${Math.random()}`;
    expect(names(rankCatalog(first.tools, { query: "cancel a subscription", version }))).toEqual([]);
    const changed = counted({ ...SHOP, cancel_subscription: "Cancel a customer's subscription." });
    const next = `${version}+1`;
    const ranked = () =>
      names(rankCatalog([...changed.tools], { query: "cancel a subscription", version: next }));
    expect(ranked()).toEqual(["shop.cancel_subscription"]);
    const built = changed.reads();
    expect(built).toBeGreaterThan(0);
    expect(ranked()).toEqual(["shop.cancel_subscription"]);
    expect(changed.reads()).toBe(built);
  });

  it("is built again when the tools under a version are not the ones it was built for", () => {
    const version = `index-test ${Math.random()}`;
    expect(names(rankCatalog(counted(SHOP).tools, { query: "cancel a subscription", version }))).toEqual([]);
    const other = counted({ cancel_subscription: "Cancel a customer's subscription." });
    const ranked = () => names(rankCatalog([...other.tools], { query: "cancel a subscription", version }));
    expect(ranked()).toEqual(["shop.cancel_subscription"]);
    const built = other.reads();
    expect(ranked()).toEqual(["shop.cancel_subscription"]);
    expect(other.reads()).toBe(built);
  });

  it("gives search_tools the page and total of the whole ranking, from the index of the version", () => {
    const { tools, reads } = counted(
      Object.fromEntries([
        ...Array.from({ length: 40 }, (_, i) => [`list_things_${i}`, `List things of kind ${i}.`]),
        ["list_orders", "List the orders."],
      ]),
    );
    const version = `index-test ${Math.random()}`;
    const all = rankCatalog(tools, { query: "list things", version });
    const built = reads();
    const page = searchTools(
      { tools: [...tools], servers: [], version },
      { query: "list things", limit: 7, detail: "name" },
    );
    expect(page.total).toBe(all.length);
    expect(page.tools.map((tool) => tool.name)).toEqual(names(all.slice(0, 7)));
    expect(reads()).toBe(built);
  });
});
