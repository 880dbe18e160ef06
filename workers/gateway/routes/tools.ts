import { Hono } from "hono";
import { SearchInput } from "../../../shared/contract/discovery";
import type { AppEnv } from "../http/app-env";
import { parseBody } from "../http/body";
import { HttpError } from "../http/errors";
import { definition, search } from "../operations/discovery";

/**
 * REST twins of `search_tools` and `get_tool_definition` (`?schema=true` for its `schema: true`): the
 * same answers, as JSON. A definition that fails answers by its cause (http/errors.ts): 404 only for an
 * unknown tool.
 */
export const toolRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const q = c.req.query();
    // `q`, or `query` as search_tools and searchTools() name it.
    if (q.q !== undefined && q.query !== undefined && q.q !== q.query) {
      throw new HttpError(400, "invalid_request", "Give the search words once: q or query, not both");
    }
    const text = q.q ?? q.query;
    const limit = q.limit === undefined ? undefined : Number(q.limit);
    const input = parseBody(SearchInput, {
      ...(text !== undefined ? { query: text } : {}),
      ...(q.server !== undefined ? { server: q.server } : {}),
      ...(q.detail !== undefined ? { detail: q.detail } : {}),
      ...(limit !== undefined ? { limit } : {}),
    });
    return c.json(await search(c.get("context"), input));
  })
  .get("/:name", async (c) => {
    const schema = c.req.query("schema");
    if (schema !== undefined && schema !== "true" && schema !== "false") {
      throw new HttpError(400, "invalid_request", 'schema must be "true" or "false"');
    }
    return c.json(await definition(c.get("context"), c.req.param("name"), { schema: schema === "true" }));
  });
