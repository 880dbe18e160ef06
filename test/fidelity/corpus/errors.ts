import type { Snippet } from "../snippet";

export default [
  {
    name: "errors: custom error class with code",
    code: `class ApiError extends Error {
  constructor(message: string, public code: string, public status: number) {
    super(message);
    this.name = "ApiError";
  }
}
try {
  throw new ApiError("Customer not found", "NOT_FOUND", 404);
} catch (e) {
  if (e instanceof ApiError) return { name: e.name, message: e.message, code: e.code, status: e.status, isError: e instanceof Error };
  throw e;
}`,
  },
  {
    name: "errors: error cause chain",
    code: `function loadConfig() {
  try {
    JSON.parse("{bad json}");
  } catch (err) {
    throw new Error("Config could not be loaded", { cause: err });
  }
}
try {
  loadConfig();
} catch (e) {
  const err = e as Error;
  return { message: err.message, causeName: (err.cause as Error).name, hasCause: "cause" in err };
}`,
  },
  {
    name: "errors: reading a property of a null field",
    code: `const response: any = { data: null };
try {
  return response.data.items.length;
} catch (e) {
  return { name: (e as Error).name, message: (e as Error).message };
}`,
  },
  {
    name: "errors: calling undefined as a function",
    code: `const api: any = { users: {} };
try {
  api.users.list();
  return "ok";
} catch (e) {
  return { name: (e as Error).name, message: (e as Error).message };
}`,
  },
  {
    name: "errors: property of undefined variable message",
    code: `let customer: any;
try {
  return customer.name;
} catch (err: any) {
  return "Error: " + err.message;
}`,
  },
  {
    name: "errors: JSON.parse message returned to the user",
    code: `try {
  JSON.parse("<html>Service Unavailable</html>");
  return null;
} catch (e: any) {
  return \`Could not parse response: \${e.message}\`;
}`,
  },
  {
    name: "errors: RangeError from toFixed and Array length",
    code: `const out: Record<string, string> = {};
try { (1.5).toFixed(101); } catch (e: any) { out.toFixed = e.name; }
try { new Array(-1); } catch (e: any) { out.array = e.name + ": " + e.message; }
try { "x".repeat(-1); } catch (e: any) { out.repeat = e.name; }
return out;`,
  },
  {
    name: "errors: Error.prototype.toString and String(err)",
    code: `const e1 = new TypeError("bad input");
const e2 = new Error("");
const e3 = new RangeError();
return [String(e1), e1.toString(), String(e2), String(e3), \`\${new Error("x")}\`];`,
  },
  {
    name: "errors: finally ordering",
    code: `const steps: string[] = [];
function run() {
  try {
    steps.push("try");
    throw new Error("fail");
  } catch (e) {
    steps.push("catch:" + (e as Error).message);
    return "from-catch";
  } finally {
    steps.push("finally");
  }
}
const result = run();
return { result, steps };`,
  },
  {
    name: "errors: wrapping errors with context",
    code: `class ValidationError extends Error {
  code = "E_VALIDATION";
  constructor(public field: string, message: string) { super(message); this.name = "ValidationError"; }
}
const errors: object[] = [];
const rows = [{ email: "zoe@example.com", age: 34 }, { email: "bad", age: -1 }, { email: "", age: 200 }];
rows.forEach((r, i) => {
  try {
    if (!r.email.includes("@")) throw new ValidationError("email", "Invalid email: '" + r.email + "'");
    if (r.age < 0 || r.age > 150) throw new ValidationError("age", "Age out of range: " + r.age);
  } catch (e) {
    if (e instanceof ValidationError) errors.push({ row: i, field: e.field, code: e.code, message: e.message });
  }
});
return errors;`,
  },
  {
    name: "errors: JSON.stringify of an Error",
    code: `const err = new Error("Payment declined");
(err as any).code = "card_declined";
return {
  plain: JSON.stringify(err),
  ownProps: Object.getOwnPropertyNames(err).filter(p => p !== "stack").sort(),
  manual: JSON.stringify({ name: err.name, message: err.message, code: (err as any).code }),
};`,
  },
  {
    name: "errors: throwing non-Error values",
    code: `const thrown: unknown[] = ["a string", 42, { code: 1 }, null, undefined];
return thrown.map(v => {
  try { throw v; } catch (e) { return { type: typeof e, isError: e instanceof Error, str: String(e) }; }
});`,
  },
  {
    name: "errors: mixing BigInt and number",
    code: `try {
  const total = 10n + (5 as any);
  return String(total);
} catch (e: any) {
  return { name: e.name, message: e.message };
}`,
  },
  {
    name: "errors: malformed URI sequence",
    code: `try {
  return decodeURIComponent("100%");
} catch (e: any) {
  return { name: e.name, message: e.message, isURIError: e instanceof URIError };
}`,
  },
  {
    name: "errors: assignment to a constant",
    code: `try {
  const limit = 10;
  // @ts-ignore
  limit = 20;
  return limit;
} catch (e: any) {
  return { name: e.name, message: e.message };
}`,
  },
  {
    name: "errors: stack is a string with the message",
    code: `function inner() { throw new Error("deep failure"); }
try {
  inner();
} catch (e: any) {
  return { hasStack: typeof e.stack === "string", firstLine: e.stack.split("\\n")[0], mentionsInner: e.stack.includes("inner") };
}`,
  },
  {
    name: "errors: Error.captureStackTrace guard",
    code: `class HttpError extends Error {
  constructor(public status: number, message: string) {
    super(message);
    this.name = "HttpError";
    if (typeof (Error as any).captureStackTrace === "function") (Error as any).captureStackTrace(this, HttpError);
  }
}
const e = new HttpError(503, "Upstream unavailable");
return { name: e.name, status: e.status, message: e.message, str: String(e), proto: Object.getPrototypeOf(e) === HttpError.prototype };`,
  },
  {
    name: "errors: AggregateError from Promise.any",
    code: `try {
  await Promise.any([Promise.reject(new Error("a down")), Promise.reject(new Error("b down"))]);
  return "some succeeded";
} catch (e: any) {
  return { name: e.name, isAggregate: e instanceof AggregateError, messages: e.errors.map((x: Error) => x.message), message: e.message };
}`,
  },
  {
    name: "errors: maximum call stack",
    code: `function depth(n: number): number { return depth(n + 1) + 1; }
try {
  depth(0);
  return "no overflow";
} catch (e: any) {
  return { name: e.name, isRangeError: e instanceof RangeError };
}`,
  },
  {
    name: "errors: null property access in a map callback",
    code: `const users: any[] = [{ profile: { city: "Malmö" } }, { profile: null }, {}];
const cities: string[] = [];
const failures: string[] = [];
for (const u of users) {
  try { cities.push(u.profile.city); } catch (e: any) { failures.push(e.constructor.name + ": " + e.message); }
}
return { cities, failures };`,
  },
  {
    name: "errors: optional chaining avoids errors",
    code: `const resp: any = { data: { items: [{ name: "Zoë" }] } };
return {
  first: resp?.data?.items?.[0]?.name ?? "unknown",
  missing: resp?.meta?.page ?? 1,
  call: resp.data.fn?.() ?? "no fn",
  len: resp.data.items?.length,
};`,
  },
  {
    name: "errors: Symbol to string conversion",
    code: `const sym = Symbol("id");
try {
  return "key: " + (sym as any);
} catch (e: any) {
  return { name: e.name, message: e.message, safe: "key: " + String(sym), desc: sym.description };
}`,
  },
  {
    name: "errors: instanceof checks across built-in types",
    code: `const errs = [new TypeError("t"), new RangeError("r"), new SyntaxError("s"), new ReferenceError("ref"), new EvalError("e"), new URIError("u")];
return errs.map(e => ({ name: e.name, ctor: e.constructor.name, isError: e instanceof Error, isType: e instanceof TypeError, tag: Object.prototype.toString.call(e) }));`,
  },
  {
    name: "errors: undeclared variable reference",
    code: `try {
  // @ts-ignore
  return totalRevenue * 2;
} catch (e: any) {
  return { name: e.name, message: e.message };
}`,
  },
  {
    name: "errors: rethrow unknown errors, handle known",
    code: `class NotFound extends Error { name = "NotFound"; }
class RateLimited extends Error { name = "RateLimited"; retryAfter = 30; }
function handle(fn: () => void): string {
  try { fn(); return "ok"; }
  catch (e) {
    if (e instanceof NotFound) return "404 " + e.message;
    if (e instanceof RateLimited) return "429 retry in " + e.retryAfter + "s";
    return "500 " + (e instanceof Error ? e.message : String(e));
  }
}
return [handle(() => {}), handle(() => { throw new NotFound("order 9"); }), handle(() => { throw new RateLimited("slow down"); }), handle(() => { throw "weird"; })];`,
  },
  {
    name: "errors: error with cause option and custom fields serialized",
    code: `const root = new TypeError("fetch failed");
const err = new Error("Sync job failed", { cause: root });
function serialize(e: any): any {
  return { name: e.name, message: e.message, cause: e.cause ? serialize(e.cause) : undefined };
}
return serialize(err);`,
  },
  {
    name: "errors: structuredClone of a function throws",
    code: `try {
  structuredClone({ fn: () => 1 });
  return "cloned";
} catch (e: any) {
  return { name: e.name, isDomException: typeof DOMException !== "undefined" && e instanceof DOMException };
}`,
  },
  {
    name: "errors: invalid Date in toISOString within a map",
    code: `const rows = [{ id: 1, at: "2026-01-02" }, { id: 2, at: "someday" }];
return rows.map(r => {
  try { return new Date(r.at).toISOString(); } catch (e: any) { return "row " + r.id + ": " + e.message; }
});`,
  },
  {
    name: "errors: new on a non-constructor",
    code: `const make = () => ({});
try {
  // @ts-ignore
  new make();
  return "constructed";
} catch (e: any) {
  return { name: e.name, message: e.message };
}`,
  },
] satisfies Snippet[];
