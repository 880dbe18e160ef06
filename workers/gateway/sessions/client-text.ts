import type { PiiItem } from "../../../shared/contract/session";
import { tokenizeValues } from "../../../shared/privacy/tokenize";
import type { RequestContext } from "../request/context";
import { sessionStub } from "./store";

/**
 * A workspace file's text as a client may read it (MCP resources/read, REST download): with the
 * team's PII mode `tokenize`, personal data replaced by session `id`'s tokens, as in results; else
 * unchanged. Null when the session ended meanwhile.
 */
export async function textForClient(ctx: RequestContext, id: string, text: string): Promise<string | null> {
  if (ctx.config.pii !== "tokenize") return text;
  let ended = false;
  const [out] = await tokenizeValues([text], async (items: PiiItem[]) => {
    const tokens = await sessionStub(ctx.env, id).tokenize(ctx.team, items);
    if (!tokens) ended = true;
    return tokens ?? [];
  });
  return ended ? null : (out as string);
}
