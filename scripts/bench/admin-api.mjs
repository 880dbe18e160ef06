// One call to the gateway's admin API (/admin/*) for the bench sections that make a team of their
// own: `npm run admin`'s request (scripts/lib/admin-api.mjs), answering the parsed JSON.
import { callAdmin } from "../lib/admin-api.mjs";

export async function admin(base, token, method, path, body) {
  return (await callAdmin({ url: base, token, source: "the bench" }, method, path, body)).data;
}
