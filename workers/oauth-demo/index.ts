import { type DemoEnv, PATHS, rolesFor } from "./oauth";
import { signIn } from "./sign-in";
import { DEMO_USERS } from "./users";

/**
 * The OAuth demo upstream (workers/oauth-demo/wrangler.toml): its sign-in page, the library's
 * authorization server (metadata, registration, token, revocation) and the protected MCP endpoint
 * with its RFC 9728 metadata, all on the origin it is reached at.
 */
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/live") return new Response("ok");
    const roles = rolesFor(url.origin);
    if (!roles)
      return new Response("This demo serves OAuth over https, or http on a loopback host.", { status: 404 });
    if (url.pathname === PATHS.authorize) return signIn(request, roles.authorization.getOAuthApi(env));
    if (url.pathname === "/") {
      return Response.json({
        name: "OAuth demo notes",
        mcp: `${url.origin}${PATHS.mcp}`,
        users: Object.keys(DEMO_USERS),
        tools: ["whoami", "my_notes"],
      });
    }
    const protectedPath =
      url.pathname === PATHS.mcp ||
      url.pathname.startsWith(`${PATHS.mcp}/`) ||
      url.pathname.startsWith(PATHS.resourceMetadata);
    if (protectedPath) return roles.resource.fetch(request, env, ctx);
    return roles.authorization.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<DemoEnv>;
