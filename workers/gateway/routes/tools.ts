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
    const limit = q.limit === undefined ? undefined : Number(q.limit);
    const input = parseBody(SearchInput, {
      ...(q.q !== undefined ? { query: q.q } : {}),
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
