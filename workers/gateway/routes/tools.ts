import { Hono } from "hono";
import { SearchInput } from "../bridge/discovery-io";
import type { AppEnv } from "../env";
import { parseBody } from "../http/body";
import { HttpError } from "../http/errors";
import { scopeOf } from "../http/scope";
import { DefinitionError, definition, search } from "../operations";

/** REST twins of `search_tools` and `get_tool_definition`: the same answers, as JSON. */
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
    return c.json(await search(await scopeOf(c), input));
  })
  .get("/:name", async (c) => {
    try {
      return c.json(await definition(await scopeOf(c), c.req.param("name")));
    } catch (err) {
      if (err instanceof DefinitionError) throw new HttpError(404, "unknown_tool", err.message);
      throw err;
    }
  });
