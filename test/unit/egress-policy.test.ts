import { describe, expect, it } from "vitest";
import { egressFetch, MAX_REPLAY_BYTES } from "../../workers/gateway/egress/fetch";
import { egressDecision, parseEgressPattern } from "../../workers/gateway/egress/policy";
import { TeamInput } from "../../workers/gateway/teams/schema";

const allowed = (url: string, patterns: string[]) => egressDecision(new URL(url), patterns).ok;

describe("egress host patterns", () => {
  it("accepts hosts, *.domains, IP literals and ports, in canonical lowercase form", () => {
    const text = (raw: string) => {
      const parsed = parseEgressPattern(raw);
      return parsed.ok ? parsed.pattern.text : parsed.reason;
    };
    expect(text("API.Example.com")).toBe("api.example.com");
    expect(text("*.example.com")).toBe("*.example.com");
    expect(text("api.example.com:8443")).toBe("api.example.com:8443");
    expect(text("10.0.0.7")).toBe("10.0.0.7");
    expect(text("[2001:DB8::1]:8080")).toBe("[2001:db8::1]:8080");
  });

  it("refuses schemes, paths, user info, bad ports, stray wildcards and non-canonical hosts, naming the pattern", () => {
    const reason = (raw: string) => {
      const parsed = parseEgressPattern(raw);
      return parsed.ok ? "accepted" : parsed.reason;
    };
    expect(reason("https://api.example.com")).toMatch(
      /^egress pattern "https:\/\/api.example.com" has a scheme/,
    );
    expect(reason("api.example.com/v1")).toMatch(/"api.example.com\/v1" has a path/);
    expect(reason("user@api.example.com")).toMatch(/has user info/);
    expect(reason("api.example.com:0")).toMatch(/port/);
    expect(reason("api.example.com:65536")).toMatch(/port/);
    expect(reason("api.example.com:")).toMatch(/port/);
    expect(reason("a.*.example.com")).toMatch(/leading \*\./);
    expect(reason("*")).toMatch(/leading \*\./);
    expect(reason("*.10.0.0.7")).toMatch(/wildcards need a domain name/);
    expect(reason("example..com")).toMatch(/empty label/);
    expect(reason("::1")).toMatch(/brackets/);
    expect(reason("[::1]80")).toMatch(/after the IPv6 address/);
    expect(reason("0x7f.0.0.1")).toMatch(/write the host as 127.0.0.1/);
    expect(reason("bücher.de")).toMatch(/punycode, as xn--bcher-kva.de/);
    expect(reason(`${"a".repeat(64)}.com`)).toMatch(/label longer than 63/);
    expect(reason(`${"a.".repeat(127)}com`)).toMatch(/longer than 253/);
  });

  it("validates a team's egress list with errors that name the bad pattern, and stores it lowercase", () => {
    const bad = TeamInput.safeParse({ egress: ["api.example.com", "https://evil.example.net/x"] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('"https://evil.example.net/x"');
    expect(bad.error?.issues[0]?.path).toEqual(["egress", 1]);
    expect(TeamInput.parse({ egress: ["API.example.com:8443"] }).egress).toEqual(["api.example.com:8443"]);
  });
});

describe("egressDecision", () => {
  it("matches exact hosts and *.domain subdomains only, whatever the case", () => {
    expect(allowed("https://api.example.com/v1", ["api.example.com"])).toBe(true);
    expect(allowed("https://API.EXAMPLE.com/", ["api.example.com"])).toBe(true);
    expect(allowed("https://api.example.com/", ["API.example.com"])).toBe(true);
    expect(allowed("https://x.y.example.com/", ["*.example.com"])).toBe(true);
    expect(allowed("https://example.com/", ["*.example.com"])).toBe(false);
    expect(allowed("https://evilexample.com/", ["*.example.com"])).toBe(false);
    expect(allowed("https://example.com.evil.net/", ["example.com"])).toBe(false);
    expect(allowed("https://other.example.net/", [])).toBe(false);
  });

  it("allows only http and https", () => {
    expect(allowed("http://api.example.com/", ["api.example.com"])).toBe(true);
    expect(allowed("ftp://api.example.com/", ["api.example.com"])).toBe(false);
    expect(allowed("ws://api.example.com/", ["api.example.com"])).toBe(false);
    expect(egressDecision(new URL("file:///etc/passwd"), ["api.example.com"])).toEqual({
      ok: false,
      reason: "egress over file: (to file:///etc/passwd) is not allowed",
    });
  });

  it("allows the scheme's default port, and another port only where the matching pattern lists it", () => {
    expect(allowed("https://api.example.com:443/", ["api.example.com"])).toBe(true);
    expect(allowed("http://api.example.com:80/", ["api.example.com"])).toBe(true);
    expect(allowed("https://api.example.com:8443/", ["api.example.com"])).toBe(false);
    expect(allowed("http://api.example.com:443/", ["api.example.com"])).toBe(false);
    expect(allowed("https://api.example.com:8443/", ["api.example.com:8443"])).toBe(true);
    expect(allowed("https://api.example.com/", ["api.example.com:8443"])).toBe(true);
    expect(allowed("https://api.example.com:9000/", ["api.example.com:8443"])).toBe(false);
    expect(allowed("https://api.example.com:8443/", ["other.example.com:8443", "api.example.com"])).toBe(
      false,
    );
    expect(allowed("https://x.example.com:8443/", ["*.example.com:8443"])).toBe(true);
    expect(egressDecision(new URL("https://api.example.com:8443/"), ["api.example.com"])).toEqual({
      ok: false,
      reason: "egress to api.example.com:8443 is not allowed",
    });
  });

  it("refuses URLs with credentials", () => {
    expect(allowed("https://user:pw@api.example.com/", ["api.example.com"])).toBe(false);
    expect(allowed("https://user@api.example.com/", ["api.example.com"])).toBe(false);
  });

  it("matches IPv4 and IPv6 literals, ports included", () => {
    expect(allowed("http://10.0.0.7/", ["10.0.0.7"])).toBe(true);
    expect(allowed("http://0x0a.0.0.7/", ["10.0.0.7"])).toBe(true);
    expect(allowed("http://[::1]/", ["[::1]"])).toBe(true);
    expect(allowed("http://[0:0::1]:8080/", ["[::1]:8080"])).toBe(true);
    expect(allowed("http://[::1]:8080/", ["[::1]"])).toBe(false);
    expect(allowed("http://[::2]/", ["[::1]"])).toBe(false);
  });

  it("ignores patterns that do not parse", () => {
    expect(allowed("https://api.example.com/", ["https://api.example.com/", "api.*"])).toBe(false);
  });
});

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A fake network: each URL (without query) answers from its route; every request is logged first. */
function fakeNetwork(routes: Record<string, (req: Request) => Response>) {
  const log: Sent[] = [];
  const fetcher = async (req: Request) => {
    log.push({
      method: req.method,
      url: req.url,
      headers: Object.fromEntries(req.headers),
      body: req.body ? await req.text() : "",
    });
    expect(req.redirect).toBe("manual");
    const url = new URL(req.url);
    const route = routes[`${url.origin}${url.pathname}`];
    return route ? route(req) : new Response("not found", { status: 404 });
  };
  return { log, fetcher };
}

const redirect = (status: number, location: string) => () =>
  new Response(null, { status, headers: { Location: location } });
const ok = (text: string) => () => new Response(text);

describe("egressFetch", () => {
  const team = "t1";

  it("refuses an allowed host's redirect to a host not allowed, without ever contacting it", async () => {
    const net = fakeNetwork({
      "https://api.example.com/go": redirect(302, "https://evil.example.net/steal"),
      "https://evil.example.net/steal": ok("stolen"),
    });
    const res = await egressFetch(new Request("https://api.example.com/go"), {
      team,
      allowlist: ["api.example.com"],
      fetcher: net.fetcher,
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("X-Egress-Blocked")).toBe("1");
    expect(await res.json()).toEqual({
      error:
        'egress to evil.example.net is not allowed for team "t1" (allowed: api.example.com); redirected there by api.example.com',
    });
    expect(net.log.map((s) => s.url)).toEqual(["https://api.example.com/go"]);
    expect(net.log.some((s) => s.url.includes("evil.example.net"))).toBe(false);
  });

  it("refuses a request to a host not allowed before sending anything", async () => {
    const net = fakeNetwork({});
    const res = await egressFetch(new Request("https://other.example.net/"), {
      team: "egress-team",
      allowlist: ["api.example.com"],
      fetcher: net.fetcher,
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: 'egress to other.example.net is not allowed for team "egress-team" (allowed: api.example.com)',
    });
    expect(net.log).toEqual([]);
  });

  it("follows a redirect chain within allowed hosts, resolving relative Locations", async () => {
    const net = fakeNetwork({
      "https://api.example.com/a": redirect(301, "/b"),
      "https://api.example.com/b": redirect(307, "https://cdn.example.com/c?x=1"),
      "https://cdn.example.com/c": redirect(308, "d"),
      "https://cdn.example.com/d": ok("arrived"),
    });
    const res = await egressFetch(new Request("https://api.example.com/a"), {
      team,
      allowlist: ["api.example.com", "*.example.com"],
      fetcher: net.fetcher,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("arrived");
    expect(net.log.map((s) => s.url)).toEqual([
      "https://api.example.com/a",
      "https://api.example.com/b",
      "https://cdn.example.com/c?x=1",
      "https://cdn.example.com/d",
    ]);
  });

  it("stops a redirect loop after maxRedirects", async () => {
    const net = fakeNetwork({
      "https://a.example.com/": redirect(302, "https://b.example.com/"),
      "https://b.example.com/": redirect(302, "https://a.example.com/"),
    });
    const res = await egressFetch(new Request("https://a.example.com/"), {
      team,
      allowlist: ["*.example.com"],
      fetcher: net.fetcher,
    });
    expect(res.status).toBe(508);
    expect(res.headers.get("X-Egress-Blocked")).toBe("1");
    expect(((await res.json()) as { error: string }).error).toMatch(/stopped after 5 redirects/);
    expect(net.log).toHaveLength(6);

    const none = fakeNetwork({ "https://a.example.com/": redirect(302, "https://a.example.com/") });
    const once = await egressFetch(new Request("https://a.example.com/"), {
      team,
      allowlist: ["*.example.com"],
      fetcher: none.fetcher,
      maxRedirects: 0,
    });
    expect(once.status).toBe(508);
    expect(none.log).toHaveLength(1);
  });

  it("turns a POST into a GET without body on 303 (and on 301/302)", async () => {
    for (const status of [303, 302, 301]) {
      const net = fakeNetwork({
        "https://api.example.com/form": redirect(status, "/done"),
        "https://api.example.com/done": ok("done"),
      });
      const res = await egressFetch(
        new Request("https://api.example.com/form", {
          method: "POST",
          body: "a=1",
          headers: { "Content-Type": "text/plain", "X-Keep": "yes" },
        }),
        { team, allowlist: ["api.example.com"], fetcher: net.fetcher },
      );
      expect(await res.text()).toBe("done");
      expect(net.log[0]).toMatchObject({ method: "POST", body: "a=1" });
      expect(net.log[1]).toMatchObject({ method: "GET", body: "" });
      expect(net.log[1]?.headers["content-type"]).toBeUndefined();
      expect(net.log[1]?.headers["x-keep"]).toBe("yes");
    }
  });

  it("keeps a PUT's method and body on 301/302, and a HEAD on 303", async () => {
    const net = fakeNetwork({
      "https://api.example.com/put": redirect(302, "/put2"),
      "https://api.example.com/put2": ok("put"),
      "https://api.example.com/head": redirect(303, "/head2"),
      "https://api.example.com/head2": ok(""),
    });
    const opts = { team, allowlist: ["api.example.com"], fetcher: net.fetcher };
    await egressFetch(new Request("https://api.example.com/put", { method: "PUT", body: "x" }), opts);
    await egressFetch(new Request("https://api.example.com/head", { method: "HEAD" }), opts);
    expect(net.log.map((s) => `${s.method} ${new URL(s.url).pathname} ${s.body}`)).toEqual([
      "PUT /put x",
      "PUT /put2 x",
      "HEAD /head ",
      "HEAD /head2 ",
    ]);
  });

  it("keeps a POST and its body across 307 and 308", async () => {
    const net = fakeNetwork({
      "https://api.example.com/upload": redirect(307, "/upload2"),
      "https://api.example.com/upload2": redirect(308, "/upload3"),
      "https://api.example.com/upload3": (req) => new Response(`got ${req.method}`),
    });
    const res = await egressFetch(
      new Request("https://api.example.com/upload", {
        method: "POST",
        body: JSON.stringify({ n: 1 }),
        headers: { "Content-Type": "application/json" },
      }),
      { team, allowlist: ["api.example.com"], fetcher: net.fetcher },
    );
    expect(await res.text()).toBe("got POST");
    expect(net.log.map((s) => [s.method, s.body, s.headers["content-type"]])).toEqual([
      ["POST", '{"n":1}', "application/json"],
      ["POST", '{"n":1}', "application/json"],
      ["POST", '{"n":1}', "application/json"],
    ]);
  });

  it("hands back a 307 instead of following it when the body is too large to send again", async () => {
    const net = fakeNetwork({
      "https://api.example.com/big": redirect(307, "/big2"),
      "https://api.example.com/big2": ok("unreachable"),
    });
    const big = "x".repeat(MAX_REPLAY_BYTES + 10);
    const res = await egressFetch(new Request("https://api.example.com/big", { method: "POST", body: big }), {
      team,
      allowlist: ["api.example.com"],
      fetcher: net.fetcher,
    });
    expect(res.status).toBe(307);
    expect(res.headers.get("Location")).toBe("/big2");
    expect(net.log).toHaveLength(1);
    expect(net.log[0]?.body.length).toBe(big.length);
  });

  it("drops Authorization and Cookie when a redirect crosses origins, for good", async () => {
    const net = fakeNetwork({
      "https://api.example.com/1": redirect(302, "/2"),
      "https://api.example.com/2": redirect(302, "https://cdn.example.com/3"),
      "https://cdn.example.com/3": redirect(302, "https://api.example.com/4"),
      "https://api.example.com/4": ok("end"),
    });
    await egressFetch(
      new Request("https://api.example.com/1", {
        headers: { Authorization: "Bearer secret", Cookie: "s=1", "X-Trace": "t" },
      }),
      { team, allowlist: ["*.example.com"], fetcher: net.fetcher },
    );
    expect(net.log.map((s) => [s.headers.authorization, s.headers.cookie, s.headers["x-trace"]])).toEqual([
      ["Bearer secret", "s=1", "t"],
      ["Bearer secret", "s=1", "t"],
      [undefined, undefined, "t"],
      [undefined, undefined, "t"],
    ]);
  });

  it("refuses a non-default port unless the pattern lists it, on the first hop and on redirects", async () => {
    const net = fakeNetwork({
      "https://api.example.com:8443/": ok("on 8443"),
      "https://api.example.com/hop": redirect(302, "https://api.example.com:9000/"),
    });
    const plain = { team, allowlist: ["api.example.com"], fetcher: net.fetcher };
    const first = await egressFetch(new Request("https://api.example.com:8443/"), plain);
    expect(first.status).toBe(403);
    expect(((await first.json()) as { error: string }).error).toBe(
      'egress to api.example.com:8443 is not allowed for team "t1" (allowed: api.example.com)',
    );
    const hop = await egressFetch(new Request("https://api.example.com/hop"), plain);
    expect(hop.status).toBe(403);
    expect(net.log.map((s) => s.url)).toEqual(["https://api.example.com/hop"]);

    const listed = await egressFetch(new Request("https://api.example.com:8443/"), {
      ...plain,
      allowlist: ["api.example.com:8443"],
    });
    expect(await listed.text()).toBe("on 8443");
  });

  it("refuses a redirect to another scheme or to a URL with credentials", async () => {
    const net = fakeNetwork({
      "https://api.example.com/ftp": redirect(302, "ftp://api.example.com/file"),
      "https://api.example.com/creds": redirect(302, "https://u:p@api.example.com/"),
    });
    const opts = { team, allowlist: ["api.example.com"], fetcher: net.fetcher };
    expect((await egressFetch(new Request("https://api.example.com/ftp"), opts)).status).toBe(403);
    expect((await egressFetch(new Request("https://api.example.com/creds"), opts)).status).toBe(403);
    expect(net.log).toHaveLength(2);
  });

  it("returns a redirect without a usable Location as it is", async () => {
    const net = fakeNetwork({ "https://api.example.com/": () => new Response(null, { status: 302 }) });
    const res = await egressFetch(new Request("https://api.example.com/"), {
      team,
      allowlist: ["api.example.com"],
      fetcher: net.fetcher,
    });
    expect(res.status).toBe(302);
  });
});
