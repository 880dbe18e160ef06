// Run by prelude.js in every interpreter after polyfills/v8.js (not on first use like the other
// polyfill groups): the errors of JSON, URI, Date and Promise built-ins, and the errors QuickJS's
// own code throws as agent code catches them (compile/v8-semantics.ts), get V8's name and words;
// and the built-ins V8 has that QuickJS lacks or gets wrong. Gets the prelude's `worker`, the global
// object, its helpers and what polyfills/v8.js returned.
(worker, G, { define }, { ask, thisDate }) => {
  const apply = Reflect.apply;
  // --- built-ins whose errors carry QuickJS's words: V8's instead ---------------------------------
  const jsonParse = JSON.parse;
  define(
    JSON,
    "parse",
    {
      parse(text, reviver) {
        try {
          return apply(jsonParse, JSON, [text, reviver]);
        } catch (err) {
          if (!(err instanceof SyntaxError)) throw err;
          throw new SyntaxError(ask({ op: "jsonError", text: String(text) }) ?? err.message);
        }
      },
    }.parse,
  );
  const jsonStringify = JSON.stringify;
  define(
    JSON,
    "stringify",
    {
      stringify(value, replacer, space) {
        try {
          return apply(jsonStringify, JSON, [value, replacer, space]);
        } catch (err) {
          const circle = err instanceof TypeError ? circleOf(value) : undefined;
          if (circle) throw new TypeError(circle);
          if (err instanceof TypeError && /bigint/i.test(err.message))
            throw new TypeError("Do not know how to serialize a BigInt");
          throw err;
        }
      },
    }.stringify,
  );
  /** V8's message for a circular structure: the path from where the circle starts to where it closes. */
  function circleOf(root) {
    const ctor = (o) => {
      const c = o.constructor;
      return typeof c === "function" && c.name ? c.name : "Object";
    };
    const keyText = (holder, key) => (Array.isArray(holder) ? `index ${key}` : `property '${key}'`);
    const stack = [];
    const keys = [];
    const walk = (value) => {
      if (value === null || typeof value !== "object") return undefined;
      const at = stack.indexOf(value);
      if (at >= 0) return at;
      stack.push(value);
      for (const key of Object.keys(value)) {
        keys.push(key);
        const found = walk(value[key]);
        if (found !== undefined) return found;
        keys.pop();
      }
      stack.pop();
      return undefined;
    };
    const start = walk(root);
    if (start === undefined) return undefined;
    const lines = [
      "Converting circular structure to JSON",
      `    --> starting at object with constructor '${ctor(stack[start])}'`,
    ];
    const links = [];
    for (let i = start + 1; i < stack.length; i++)
      links.push(
        `    |     ${keyText(stack[i - 1], keys[i - 1])} -> object with constructor '${ctor(stack[i])}'`,
      );
    lines.push(
      ...(links.length > 3 ? [links[0], links[1], "    |     ...", links[links.length - 1]] : links),
    );
    lines.push(`    --- ${keyText(stack[stack.length - 1], keys[keys.length - 1])} closes the circle`);
    return lines.join("\n");
  }
  const toISO = Date.prototype.toISOString;
  define(
    Date.prototype,
    "toISOString",
    {
      toISOString() {
        if (Number.isNaN(thisDate(this))) throw new RangeError("Invalid time value");
        return apply(toISO, this, []);
      },
    }.toISOString,
  );
  for (const name of ["decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent"]) {
    const native = G[name];
    define(
      G,
      name,
      {
        [name](text) {
          try {
            return native(text);
          } catch (err) {
            if (err instanceof URIError) throw new URIError("URI malformed");
            throw err;
          }
        },
      }[name],
    );
  }
  const any = Promise.any;
  define(
    Promise,
    "any",
    {
      any(values) {
        return apply(any, this, [values]).catch((err) => {
          if (err instanceof AggregateError && err.message === "")
            throw new AggregateError(err.errors, "All promises were rejected");
          throw err;
        });
      },
    }.any,
  );

  // --- errors QuickJS's own code throws, as caught: V8's name and words (compile/v8-semantics.ts) ---
  const WORDS = [
    [
      /^cannot read property '(.*)' of (null|undefined)$/,
      (m) => `Cannot read properties of ${m[2]} (reading '${m[1]}')`,
    ],
    [
      /^cannot set property '(.*)' of (null|undefined)$/,
      (m) => `Cannot set properties of ${m[2]} (setting '${m[1]}')`,
    ],
    [/^'(.*)' is not defined$/, (m) => `${m[1]} is not defined`],
    [/^'(.*)' is read-only$/, () => "Assignment to constant variable."],
    [/^invalid array length$/, () => "Invalid array length"],
    [/^cannot convert symbol to string$/, () => "Cannot convert a Symbol value to a string"],
    [
      /^cannot convert bigint to number$/,
      () => "Cannot mix BigInt and other types, use explicit conversions",
    ],
    [/^stack overflow$/, () => "Maximum call stack size exceeded"],
  ];
  const errorStack = (err) => {
    const stack = String(err.stack ?? "");
    return stack.startsWith(`${err.name}:`) ? stack : `${err.name}: ${err.message}\n${stack}`;
  };
  /**
   * V8 names the callee that is not a function; QuickJS gives only the call's position (its `(`, in
   * the stack's first agent.js frame): the callee is read back from that line of the agent's module
   * (identifiers, `.`, `[…]`, calls shown as `(...)` as V8 shows them).
   */
  const calleeOf = (err) => {
    const at = /\(agent\.js:(\d+):(\d+)\)/.exec(String(err.stack ?? ""));
    if (!at) return undefined;
    const text = worker.agentLine(Number(at[1]));
    let i = Number(at[2]) - 2;
    const end = i + 1;
    const closing = { "]": "[", ")": "(" };
    for (;;) {
      const c = text[i];
      if (c !== undefined && /[\w$#]/.test(c)) while (i >= 0 && /[\w$#]/.test(text[i])) i--;
      else if (c === "]" || c === ")") {
        let depth = 0;
        for (; i >= 0; i--) {
          if (text[i] === c) depth++;
          else if (text[i] === closing[c] && --depth === 0) break;
        }
        i--;
        continue;
      } else break;
      if (text[i] === ".") i -= text[i - 1] === "?" ? 2 : 1;
      else if (text[i] !== "]" && text[i] !== ")") break;
    }
    const raw = text.slice(i + 1, end).trim();
    if (!raw || !/^[\w$#]/.test(raw)) return undefined;
    const made = /\bnew\s*$/.test(text.slice(0, i + 1));
    const shown = raw
      .replace(/\((?:[^()]|\([^()]*\))*\)/g, "(...)")
      .replace(/\[\s*(["'])([A-Za-z_$][\w$]*)\1\s*\]/g, ".$2");
    return [made ? "constructor" : "function", shown];
  };
  define(G, Symbol.for("sandbox.v8Error"), (err) => {
    if (!(err instanceof Error)) return err;
    try {
      const not = err instanceof TypeError && /^not a (function|constructor)$/.exec(err.message);
      const callee = not && calleeOf(err);
      if (callee) err.message = `${callee[1]} is not a ${callee[0]}`;
      for (const [pattern, words] of WORDS) {
        const m = pattern.exec(err.message);
        if (!m) continue;
        // QuickJS's InternalError for a stack overflow is V8's RangeError.
        const made = err.name === "InternalError" ? new RangeError(words(m)) : err;
        if (made !== err) define(made, "stack", `RangeError: ${made.message}\n${String(err.stack ?? "")}`);
        else err.message = words(m);
        return made;
      }
      if (Object.getOwnPropertyDescriptor(err, "stack")?.writable) err.stack = errorStack(err);
    } catch {}
    return err;
  });

  // `a ** b` (compile/v8-semantics.ts): V8's pow for numbers, QuickJS's for BigInts.
  const pow = Math.pow;
  define(G, Symbol.for("sandbox.v8Pow"), (a, b) =>
    typeof a === "bigint" || typeof b === "bigint" ? a ** b : pow(a, b),
  );

  // --- built-ins V8 has and QuickJS lacks ---------------------------------------------------------
  if (typeof Array.fromAsync !== "function")
    define(
      Array,
      "fromAsync",
      {
        async fromAsync(items, mapFn, thisArg) {
          const out = [];
          const take = async (value) => (mapFn ? apply(mapFn, thisArg, [await value, out.length]) : value);
          if (items != null && typeof items[Symbol.asyncIterator] === "function")
            for await (const value of items) out.push(await take(value));
          else {
            const list =
              items != null && typeof items[Symbol.iterator] === "function" ? items : Array.from(items);
            for (const value of list) out.push(await take(await value));
          }
          return out;
        },
      }.fromAsync,
    );
  // QuickJS has iterator helpers, but `map(…).take(n).toArray()` throws "not a function" (its helpers
  // have no `return` for `take` to call): generators instead, whose `return` closes the chain.
  const IteratorProto = Object.getPrototypeOf(Object.getPrototypeOf([].values()));
  {
    const helpers = {
      *map(fn) {
        let i = 0;
        for (const v of { [Symbol.iterator]: () => this }) yield fn(v, i++);
      },
      *filter(fn) {
        let i = 0;
        for (const v of { [Symbol.iterator]: () => this }) if (fn(v, i++)) yield v;
      },
      *take(n) {
        let left = Number(n);
        if (left <= 0) return;
        for (const v of { [Symbol.iterator]: () => this }) {
          yield v;
          if (--left <= 0) return;
        }
      },
      *drop(n) {
        let skip = Number(n);
        for (const v of { [Symbol.iterator]: () => this })
          if (skip > 0) skip--;
          else yield v;
      },
      *flatMap(fn) {
        let i = 0;
        for (const v of { [Symbol.iterator]: () => this }) yield* fn(v, i++);
      },
      toArray() {
        return Array.from({ [Symbol.iterator]: () => this });
      },
      forEach(fn) {
        let i = 0;
        for (const v of { [Symbol.iterator]: () => this }) fn(v, i++);
      },
      some(fn) {
        let i = 0;
        for (const v of { [Symbol.iterator]: () => this }) if (fn(v, i++)) return true;
        return false;
      },
      every(fn) {
        let i = 0;
        for (const v of { [Symbol.iterator]: () => this }) if (!fn(v, i++)) return false;
        return true;
      },
      find(fn) {
        let i = 0;
        for (const v of { [Symbol.iterator]: () => this }) if (fn(v, i++)) return v;
        return undefined;
      },
      reduce(fn, ...init) {
        let i = 0;
        let acc = init[0];
        let first = init.length === 0;
        for (const v of { [Symbol.iterator]: () => this }) {
          if (first) {
            acc = v;
            first = false;
            i++;
          } else acc = fn(acc, v, i++);
        }
        if (first) throw new TypeError("Reduce of empty iterator with no initial value");
        return acc;
      },
    };
    for (const name of Object.keys(helpers)) define(IteratorProto, name, helpers[name]);
  }
};
