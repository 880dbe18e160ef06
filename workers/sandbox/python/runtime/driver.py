# _sandbox: the Python side of a Python isolate. Imported once while the memory snapshot is made
# (so it is already in sys.modules in every isolate restored from it); holds no JS reference until
# run() is called. run() parses the code, guards every loop and function body, makes the value of
# a trailing expression the result, runs it with top-level await, and reports JSON text that the
# isolate turns into the same report as TypeScript's. Everything the code reaches outside Python
# goes through `fns` (py-bridge.js), as JSON text.
import ast
import base64
import builtins
import dataclasses
import datetime
import decimal
import itertools
import json
import linecache
import logging
import math
import operator
import secrets
import sys
import time
import traceback

AGENT_FILE = "<code>"
CHUNK = 1024
MAX_DEPTH = 100
# Below what the isolate's JS stack holds even with exception handling on every frame: past it
# CPython raises RecursionError instead of the wasm stack overflowing, which kills the interpreter.
RECURSION_LIMIT = 400


class BudgetExceeded(BaseException):
    """The guard's stop. A BaseException, so `except Exception:` in the code does not swallow it."""


def preimport():
    """Modules worth having in the memory snapshot."""
    import asyncio  # noqa: F401
    import collections  # noqa: F401
    import csv  # noqa: F401
    import functools  # noqa: F401
    import io  # noqa: F401
    import re  # noqa: F401
    import statistics  # noqa: F401
    import string  # noqa: F401
    import textwrap  # noqa: F401
    import typing  # noqa: F401

    import pyodide.code  # noqa: F401
    import pyodide.ffi  # noqa: F401
    import pyodide.webloop  # noqa: F401


def after_restore():
    """State that must not be shared by every isolate restored from one snapshot."""
    import random

    random.seed()


# --- guard: a step budget and a wall-clock deadline, checked every CHUNK steps ------------------
class _Budget:
    __slots__ = ("steps_left", "deadline", "tripped", "line", "ticker", "names")

    def __init__(self, max_steps, deadline, names):
        self.steps_left = max_steps
        self.deadline = deadline
        self.tripped = None
        self.names = names
        # The per-step path is C only (chain → repeat); every CHUNK steps chain asks _Chunks for more.
        self.ticker = itertools.chain.from_iterable(_Chunks(self))


class _Chunks:
    __slots__ = ("b",)

    def __init__(self, b):
        self.b = b

    def __iter__(self):
        return self

    def __next__(self):
        b = self.b
        if b.steps_left <= 0:
            _trip(b, "the step limit (EXEC_MAX_STEPS) was reached")
        if time.monotonic() > b.deadline:
            _trip(b, "the time limit was reached")
        b.steps_left -= CHUNK
        return itertools.repeat(None, CHUNK)


def _trip(b, why):
    b.tripped = why

    def stopped(*_):
        raise BudgetExceeded(why)

    # chain.from_iterable drops a source that raised: from now on every tick raises by itself.
    builtins.__dict__[b.names[0]] = stopped
    builtins.__dict__[b.names[1]] = stopped
    raise BudgetExceeded(why)


def _install_guard(b):
    tick, tick_iter = b.names
    builtins.__dict__[tick] = b.ticker.__next__
    builtins.__dict__[tick_iter] = lambda it, _t=b.ticker, _g=operator.itemgetter(0): map(_g, zip(it, _t))


class _Instrument(ast.NodeTransformer):
    """A tick at the top of every loop and function body; comprehension iterables ticked per item."""

    def __init__(self, names):
        self.tick, self.tick_iter = names

    def _call(self, node):
        return ast.copy_location(ast.Expr(ast.Call(ast.Name(self.tick, ast.Load()), [], [])), node)

    def _loop(self, node):
        self.generic_visit(node)
        node.body.insert(0, self._call(node.body[0] if node.body else node))
        return node

    visit_For = visit_AsyncFor = visit_While = _loop

    def _func(self, node):
        self.generic_visit(node)
        node.body.insert(0, self._call(node))
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _func

    def visit_Lambda(self, node):
        self.generic_visit(node)
        # (tick(), body)[1]: the tick runs on every call of the lambda
        tup = ast.Tuple([ast.Call(ast.Name(self.tick, ast.Load()), [], []), node.body], ast.Load())
        node.body = ast.copy_location(ast.Subscript(tup, ast.Constant(1), ast.Load()), node.body)
        return node

    def visit_comprehension(self, node):
        self.generic_visit(node)
        node.iter = ast.copy_location(ast.Call(ast.Name(self.tick_iter, ast.Load()), [node.iter], []), node.iter)
        return node


# --- what the code calls: tools, discovery, state, workspace, session, skills --------------------
_error_types = {}


def _error(name, message, path=None):
    cls = _error_types.get(name)
    if cls is None:
        cls = type(name if name.isidentifier() else "ToolError", (Exception,), {})
        _error_types[name] = cls
    err = cls(message)
    if path is not None:
        err.path = path
    return err


def _answer(text):
    res = json.loads(text)
    if res.get("ok"):
        return res.get("value")
    e = res.get("error") or {}
    raise _error(str(e.get("name", "Error")), str(e.get("message", "")), e.get("path"))


def _args_json(args, kwargs, what, max_chars):
    if args and kwargs:
        raise TypeError(f"{what}: pass keyword arguments or one dict, not both")
    if len(args) > 1:
        raise TypeError(f"{what}: pass keyword arguments or one dict")
    value = args[0] if args else kwargs
    if value is None:
        value = {}
    try:
        text = json.dumps(_jsonable(value, 0, set()), allow_nan=False)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{what}: arguments are not JSON-serializable ({e})") from None
    if len(text) > max_chars:
        raise _error("LimitError", f"{what}: arguments are {len(text)} characters of JSON; the limit is {max_chars}")
    return text


class _Server:
    def __init__(self, env, server):
        self._env = env
        self._server = server

    def __getattr__(self, tool):
        if tool.startswith("__"):
            raise AttributeError(tool)
        return self._env.tool(f"{self._server}.{tool}")

    __getitem__ = __getattr__


class _Tools:
    def __init__(self, env):
        self._env = env

    def __getattr__(self, server):
        if server.startswith("__"):
            raise AttributeError(server)
        return _Server(self._env, server)

    __getitem__ = __getattr__


class _State:
    def __init__(self, env):
        self._env = env

    async def get(self, key):
        text = await self._env.session({"op": "state.get", "key": key})
        return None if text is None else json.loads(text)

    async def set(self, key, value):
        text = json.dumps(_jsonable(value, 0, set()), allow_nan=False)
        await self._env.session({"op": "state.set", "key": key, "json": text})

    async def delete(self, key):
        return await self._env.session({"op": "state.delete", "key": key})

    async def keys(self, prefix=None):
        return await self._env.session({"op": "state.keys", **({} if prefix is None else {"prefix": prefix})})


class _Workspace:
    def __init__(self, env):
        self._env = env

    async def write(self, path, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("workspace.write(path, data): data must be str or bytes")
        return await self._env.session({"op": "workspace.write", "path": str(path)}, bytes(data))

    async def read_bytes(self, path):
        return await self._env.session({"op": "workspace.read", "path": str(path)})

    async def read(self, path):
        return (await self.read_bytes(path)).decode("utf-8", errors="replace")

    async def list(self, prefix=None):
        return await self._env.session({"op": "workspace.list", **({} if prefix is None else {"prefix": prefix})})

    async def delete(self, path):
        return await self._env.session({"op": "workspace.delete", "path": str(path)})


class _Session:
    def __init__(self, env):
        self._env = env

    async def info(self):
        return await self._env.session({"op": "session.info"})

    async def history(self):
        return await self._env.session({"op": "session.history"})


class _Skills:
    def __init__(self, env):
        self._env = env

    async def save(self, name, description, code, input_schema=None):
        payload = {"name": name, "description": description, "code": code}
        if input_schema is not None:
            payload["inputSchema"] = input_schema
        return await self._env.skills("save", payload)

    async def list(self):
        return await self._env.skills("list", {})

    async def get(self, name, version=None):
        return await self._env.skills("get", {"name": name, **({} if version is None else {"version": version})})

    async def delete(self, name):
        return await self._env.skills("delete", {"name": name})

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        env = self._env

        async def run(*args, **kwargs):
            text = _args_json(args, kwargs, f"skills.{name}", env.max_arg_chars)
            return _answer(await env.fns.callSkill(name, text))

        return run

    __getitem__ = __getattr__


class _Env:
    """The JS functions of py-bridge.js, wrapped: JSON text out, values or exceptions back."""

    def __init__(self, fns, max_arg_chars):
        self.fns = fns
        self.max_arg_chars = max_arg_chars

    def tool(self, name):
        async def call(*args, **kwargs):
            text = _args_json(args, kwargs, name, self.max_arg_chars)
            return _answer(await self.fns.callTool(name, text))

        call.__name__ = name
        return call

    async def session(self, call, data=None):
        from pyodide.ffi import to_js

        out = await self.fns.session(json.dumps(call), None if data is None else to_js(data))
        if isinstance(out, str):
            return _answer(out)
        return out.to_bytes()

    async def skills(self, op, payload):
        text = _args_json((payload,), {}, f"skills.{op}", self.max_arg_chars)
        return _answer(await self.fns.skills(op, text))


# --- logging and results ---------------------------------------------------------------------------
_LEVELS = {"DEBUG": "debug", "INFO": "info", "WARNING": "warn", "ERROR": "error", "CRITICAL": "error"}


class _LogHandler(logging.Handler):
    def __init__(self, log):
        super().__init__(logging.DEBUG)
        self._log = log

    def emit(self, record):
        try:
            self._log(_LEVELS.get(record.levelname, "log"), self.format(record))
        except Exception:  # noqa: BLE001
            pass


def _jsonable(v, depth, seen):
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v if -(2**53) <= v <= 2**53 else str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if depth > MAX_DEPTH:
        return "[depth limit]"
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"type": "bytes", "base64": base64.b64encode(bytes(v)).decode("ascii")}
    if hasattr(v, "to_py"):
        return _jsonable(v.to_py(), depth + 1, seen)
    if id(v) in seen:
        return "[Circular]"
    seen.add(id(v))
    try:
        if isinstance(v, dict):
            return {k if isinstance(k, str) else str(k): _jsonable(x, depth + 1, seen) for k, x in v.items()}
        if isinstance(v, (list, tuple, set, frozenset)):
            return [_jsonable(x, depth + 1, seen) for x in v]
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return {f.name: _jsonable(getattr(v, f.name), depth + 1, seen) for f in dataclasses.fields(v)}
        return repr(v)
    finally:
        seen.discard(id(v))


def _describe(e):
    tb = e.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != AGENT_FILE:
        tb = tb.tb_next
    line = None
    t = tb
    while t is not None:
        if t.tb_frame.f_code.co_filename == AGENT_FILE:
            line = t.tb_lineno
        t = t.tb_next
    out = {"name": type(e).__name__, "message": str(e)}
    if isinstance(e, SyntaxError) and e.filename == AGENT_FILE:
        line = e.lineno
        msg = e.msg
        out["message"] = f"{msg} (line {e.lineno}, column {e.offset})" if e.offset else msg
        out["column"] = e.offset
    if isinstance(e, BudgetExceeded):
        out["name"] = "TimeoutError"
        out["message"] = f"Execution stopped: {e}" + (f" (line {line})" if line else "")
    if line is not None:
        out["line"] = line
    out["stack"] = "".join(traceback.TracebackException(type(e), e, tb).format())[-8000:]
    out["message"] = out["message"][:4000]
    out["name"] = out["name"][:200]
    return out


async def run(code, options, fns, log):
    opts = options.to_py() if hasattr(options, "to_py") else dict(options)
    max_chars = int(opts["maxChars"])
    names = (f"__tick_{secrets.token_hex(8)}", f"__tick_iter_{secrets.token_hex(8)}")
    budget = _Budget(int(opts["maxSteps"]), time.monotonic() + opts["timeoutMs"] / 1000, names)
    result_name = f"__result_{secrets.token_hex(8)}"
    env = _Env(fns, int(opts["maxArgChars"]))
    handler = _LogHandler(log)
    handler.setFormatter(logging.Formatter("%(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG)
    linecache.cache[AGENT_FILE] = (len(code), None, code.splitlines(True), AGENT_FILE)
    g = {
        "__name__": "__main__",
        "__builtins__": builtins,
        "tools": _Tools(env),
        "call_tool": lambda name, args=None: env.tool(str(name))(args),
        "search_tools": lambda query=None, **opts: _search(env, query, opts),
        "get_tool_definition": lambda name: _definition(env, name),
        "state": _State(env),
        "workspace": _Workspace(env),
        "session": _Session(env),
        "skills": _Skills(env),
    }
    report = {"resultTruncated": False}
    try:
        tree = ast.parse(code, filename=AGENT_FILE, mode="exec")
        tree = _Instrument(names).visit(tree)
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = tree.body[-1]
            tree.body[-1] = ast.copy_location(ast.Assign([ast.Name(result_name, ast.Store())], last.value), last)
        ast.fix_missing_locations(tree)
        compiled = compile(tree, AGENT_FILE, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
        _install_guard(budget)
        sys.setrecursionlimit(RECURSION_LIMIT)
        pending = eval(compiled, g)  # noqa: S307 - the code is the user's, in its own isolate
        if pending is not None and hasattr(pending, "__await__"):
            await pending
        if result_name in g and g[result_name] is not None:
            text = json.dumps(_jsonable(g[result_name], 0, set()), allow_nan=False)
            if len(text) > max_chars:
                text = text[:max_chars]
                report["resultTruncated"] = True
            report["resultJson"] = text
    except BaseException as e:  # noqa: BLE001
        report["error"] = _describe(e)
        if budget.tripped is None and _exhausted(budget):
            # RecursionError inside the guard's refill ends its ticker: every later tick raised
            # StopIteration, which is what stopped the code.
            report["error"]["name"] = "RecursionError"
            report["error"]["message"] = "maximum recursion depth exceeded (the code kept recursing after RecursionError)"
    finally:
        for name in names:
            builtins.__dict__.pop(name, None)
    return json.dumps(report)


def _exhausted(budget):
    try:
        next(budget.ticker)
        return False
    except StopIteration:
        return True
    except BaseException:  # noqa: BLE001
        return False


async def _search(env, query, opts):
    payload = {k: v for k, v in {"query": query, **opts}.items() if v is not None}
    return _answer(await env.fns.searchTools(json.dumps(payload)))


async def _definition(env, name):
    return _answer(await env.fns.getToolDefinition(str(name)))
