import type { Snippet } from "../snippet";

export default [
  {
    name: "url-encoding: parse URL components",
    code: `const u = new URL("https://user:pa%20ss@api.example.com:8443/v1/customers/42?expand=orders&limit=10#details");
return { protocol: u.protocol, username: u.username, password: u.password, host: u.host, hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash, origin: u.origin };`,
  },
  {
    name: "url-encoding: read query parameters",
    code: `const u = new URL("https://shop.example.com/search?q=caf%C3%A9+cr%C3%A8me&tag=a&tag=b&empty=&flag");
const p = u.searchParams;
return { q: p.get("q"), tags: p.getAll("tag"), empty: p.get("empty"), flag: p.get("flag"), missing: p.get("nope"), has: p.has("flag") };`,
  },
  {
    name: "url-encoding: build and sort URLSearchParams",
    code: `const params = new URLSearchParams({ status: "open", q: "Zoë & Müller", page: "2" });
params.append("tag", "vip");
params.append("tag", "eu/west");
params.sort();
return { str: params.toString(), size: [...params].length };`,
  },
  {
    name: "url-encoding: URL with searchParams set",
    code: `const url = new URL("https://api.example.com/v2/tickets");
url.searchParams.set("assignee", "Ñúñez");
url.searchParams.set("created_after", "2026-01-02T00:00:00Z");
url.searchParams.set("sort", "-priority");
url.pathname += "/export";
return url.toString();`,
  },
  {
    name: "url-encoding: encodeURIComponent of unicode and reserved",
    code: `const values = ["Zoë Ångström", "a&b=c", "100%", "path/to file", "emoji 😀", "~!*()'"];
return values.map(v => encodeURIComponent(v));`,
  },
  {
    name: "url-encoding: encodeURI versus encodeURIComponent",
    code: `const s = "https://example.com/a b?x=1&y=ü#frag";
return { uri: encodeURI(s), component: encodeURIComponent(s), escape: escape("ü ä") };`,
  },
  {
    name: "url-encoding: decodeURIComponent",
    code: `return {
  plus: decodeURIComponent("caf%C3%A9+cr%C3%A8me"),
  plusFixed: decodeURIComponent("caf%C3%A9+cr%C3%A8me".replace(/\\+/g, " ")),
  emoji: decodeURIComponent("%F0%9F%98%80"),
  decodeURI: decodeURI("%3Fa%3Db%20c"),
};`,
  },
  {
    name: "url-encoding: relative URL resolution",
    code: `const base = "https://docs.example.com/guide/intro/index.html";
return ["../api", "./setup", "/root", "?q=1", "#top", "//cdn.example.org/x.js", "https://other.com"].map(r => new URL(r, base).href);`,
  },
  {
    name: "url-encoding: default ports and normalization",
    code: `return [
  "https://Example.COM:443/a/./b/../c",
  "http://example.com:80",
  "http://example.com:8080/%7Euser",
  "HTTPS://example.com/path with space",
].map(s => new URL(s).href);`,
  },
  {
    name: "url-encoding: internationalized domain names",
    code: `const u = new URL("https://münchen.de/straße?stadt=köln");
return { host: u.hostname, href: u.href, pathname: u.pathname };`,
  },
  {
    name: "url-encoding: invalid URL is caught",
    code: `const inputs = ["not a url", "https://ok.example.com", "http://", "mailto:zoe@example.com"];
return inputs.map(s => {
  try { return { s, ok: true, protocol: new URL(s).protocol }; }
  catch (e: any) { return { s, ok: false, error: e.name }; }
});`,
  },
  {
    name: "url-encoding: URL.canParse",
    code: `if (typeof (URL as any).canParse !== "function") return "canParse unavailable";
return ["https://a.b", "nope", "/relative"].map(s => (URL as any).canParse(s));`,
  },
  {
    name: "url-encoding: query string to object",
    code: `const qs = "?utm_source=newsletter&utm_medium=email&ids=1,2,3&name=%C3%98ster&a=1&a=2";
const params = new URLSearchParams(qs);
return { obj: Object.fromEntries(params), ids: params.get("ids")!.split(",").map(Number), keys: [...new Set(params.keys())] };`,
  },
  {
    name: "url-encoding: URLSearchParams encodes spaces as plus",
    code: `const p = new URLSearchParams();
p.set("q", "hello world+more");
p.set("path", "/a/b?c");
p.set("star", "*.-_~");
return { str: p.toString(), back: new URLSearchParams(p.toString()).get("q") };`,
  },
  {
    name: "url-encoding: modify URL parts",
    code: `const u = new URL("http://localhost:3000/api/v1/items?page=1");
u.protocol = "https:";
u.hostname = "api.example.com";
u.port = "";
u.searchParams.delete("page");
u.hash = "results";
return { href: u.href, json: JSON.stringify({ u }) };`,
  },
  {
    name: "url-encoding: build a paginated API URL list",
    code: `const base = "https://api.example.com/v1/orders";
return Array.from({ length: 3 }, (_, i) => {
  const u = new URL(base);
  u.search = new URLSearchParams({ page: String(i + 1), per_page: "50", currency: "EUR" }).toString();
  return u.toString();
});`,
  },
  {
    name: "url-encoding: file and data URLs",
    code: `const f = new URL("file:///home/zoe/My%20Docs/report.pdf");
const d = new URL("data:text/plain;base64,SGVsbG8=");
return { fpath: decodeURIComponent(f.pathname), fhost: f.host, dproto: d.protocol, dpath: d.pathname, origin: d.origin };`,
  },
] satisfies Snippet[];
