import { type Context, Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { readJson } from "../http/body";
import { HttpError } from "../http/errors";
import { SkillError } from "../skills/errors";
import { renderSkillMd } from "../skills/skill-md";
import { SkillStore } from "../skills/store";

/** The key's team's skills (contract "Skills"); another team's skill is a 404 like an unknown one. */
export const skillRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const skills = await storeOf(c).list();
    return c.json({
      skills: skills.map(({ name, description, language, version, updatedAt }) => ({
        name,
        description,
        language,
        version,
        updatedAt,
      })),
    });
  })
  .get("/:name", async (c) => {
    const name = c.req.param("name");
    const version = versionParam(c.req.query("version"));
    const record = await storeOf(c).get(name, version);
    if (!record) throw skillNotFound(name, version);
    if (/\btext\/markdown\b/i.test(c.req.header("Accept") ?? "")) {
      return c.body(renderSkillMd(record), 200, { "Content-Type": "text/markdown; charset=utf-8" });
    }
    return c.json(record);
  })
  .put("/:name", async (c) => {
    const body = await readJson(c);
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new HttpError(
        400,
        "invalid_skill",
        "The body must be a JSON object: { description, code, language?, inputSchema?, outputSchema? }",
      );
    if ("name" in body)
      throw new HttpError(
        400,
        "invalid_skill",
        "The skill's name is the URL's {name}; leave name out of the body",
      );
    try {
      return c.json(await storeOf(c).save({ ...body, name: c.req.param("name") }), 201);
    } catch (err) {
      if (!(err instanceof SkillError)) throw err;
      throw new HttpError(400, err.name === "LimitError" ? "limit_exceeded" : "invalid_skill", err.message);
    }
  })
  .delete("/:name", async (c) => {
    const name = c.req.param("name");
    if (!(await storeOf(c).delete(name))) throw skillNotFound(name);
    return c.body(null, 204);
  });

function storeOf(c: Context<AppEnv>): SkillStore {
  const { env, team, config } = c.get("context");
  if (!env.SKILLS || !env.SKILL_INDEX) {
    throw new HttpError(
      503,
      "skills_unavailable",
      "Skills are not configured (no SKILLS or SKILL_INDEX binding)",
    );
  }
  return new SkillStore(env, team, config.skills);
}

function versionParam(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d{0,14}$/.test(raw)) {
    throw new HttpError(
      400,
      "invalid_request",
      `version: expected a whole number from 1 (got "${raw.slice(0, 40)}")`,
    );
  }
  return Number(raw);
}

function skillNotFound(name: string, version?: number): HttpError {
  const which = version === undefined ? "" : ` version ${version}`;
  return new HttpError(404, "skill_not_found", `Skill not found: ${name.slice(0, 100)}${which}`);
}
