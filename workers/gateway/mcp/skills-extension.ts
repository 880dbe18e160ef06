import type { McpServer } from "@modelcontextprotocol/server";
import { type Skill, SkillsExtension, skillEntry } from "@modelcontextprotocol/server/ext/skills";
import type { RequestContext } from "../request/context";
import { renderSkillMd } from "../skills/skill-md";
import { extensionName, skillNameOf, skillStore, visibleSkills } from "./skill-resources";

const PAGE_SIZE = 50;

/** A skill's extension entry; undefined for a name the Agent Skills rules refuse (`a__b`, `a_`). */
async function entry(ctx: RequestContext, name: string): Promise<Skill | undefined> {
  const record = await skillStore(ctx).get(name);
  const ext = extensionName(name);
  if (!record) return undefined;
  return skillEntry(ext, { "SKILL.md": renderSkillMd(record, ext) }).catch(() => undefined);
}

/**
 * The MCP skills extension (`io.modelcontextprotocol/skills`: `skills/list`, `skills/get`, declared
 * in the capabilities) over the team's skills, each one file, `skill://<ext-name>/SKILL.md` — the
 * SKILL.md of the `skill://<name>` resource with the name spelt as the extension requires (`_` → `-`),
 * under the team's allow/deny lists. Attached before the
 * gateway's own resource handlers, which then answer resources/list and resources/read for both.
 */
export function attachSkillsExtension(server: McpServer, ctx: RequestContext): void {
  new SkillsExtension({
    source: {
      async list({ cursor }) {
        const offset = cursor === undefined ? 0 : Number(cursor);
        if (!Number.isSafeInteger(offset) || offset < 0)
          throw new Error("Invalid cursor: pass back nextCursor unchanged");
        const names = (await visibleSkills(ctx)).map((s) => s.name);
        const page = await Promise.all(names.slice(offset, offset + PAGE_SIZE).map((n) => entry(ctx, n)));
        return {
          skills: page.filter((s): s is Skill => s !== undefined),
          ...(offset + PAGE_SIZE < names.length ? { nextCursor: String(offset + PAGE_SIZE) } : {}),
        };
      },
      async get(uri) {
        const name = skillNameOf(uri);
        const visible = name !== undefined && (await visibleSkills(ctx)).some((s) => s.name === name);
        return visible ? entry(ctx, name) : undefined;
      },
      async read(uri) {
        const name = skillNameOf(uri);
        const visible = name !== undefined && (await visibleSkills(ctx)).some((s) => s.name === name);
        const record = visible ? await skillStore(ctx).get(name) : null;
        return record
          ? { text: renderSkillMd(record, extensionName(record.name)), mimeType: "text/markdown" }
          : undefined;
      },
    },
  }).attach(server);
}
