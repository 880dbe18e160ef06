# _sandbox_globals: what the code sees besides builtins (tools, call_tool, search_tools,
# get_tool_definition, state, workspace, session, skills), on top of the JS functions of py-bridge.js,
# and how its values become JSON. Apart from _sandbox (driver.py), which guards and runs the code, so
# that each file is one concept; imported by it, so both are in the memory snapshot. The classes keep
# `_sandbox` as their module: the code sees the names it saw before they moved (reprs, error stacks).
import base64
import dataclasses
import datetime
import decimal
import inspect
import json
import math

MAX_DEPTH = 100


# --- what the code calls: tools, discovery, state, workspace, session, skills --------------------
_error_types = {}


def _error(name, message, path=None):
    cls = _error_types.get(name)
    if cls is None:
        # "builtins": a traceback's last line then reads `ValidationError: …`, naming no runtime module.
        cls = type(name if name.isidentifier() else "ToolError", (Exception,), {"__module__": "builtins"})
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


def _snake(name):
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def _snake_keys(value):
    """The gateway's own records (files, session info and history, skills) with snake_case keys, as
    Python spells them: `modified_at`, `input_schema`. Top-level keys only: a schema inside stays as it is."""
    if isinstance(value, list):
        return [_snake_keys(v) for v in value]
    if isinstance(value, dict):
        return {_snake(k): v for k, v in value.items()}
    return value


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
        return _snake_keys(await self._env.session({"op": "workspace.write", "path": str(path)}, bytes(data)))

    async def read_bytes(self, path):
        return await self._env.session({"op": "workspace.read", "path": str(path)})

    async def read(self, path):
        return (await self.read_bytes(path)).decode("utf-8", errors="replace")

    async def list(self, prefix=None):
        return _snake_keys(
            await self._env.session({"op": "workspace.list", **({} if prefix is None else {"prefix": prefix})})
        )

    async def delete(self, path):
        return await self._env.session({"op": "workspace.delete", "path": str(path)})


class _Session:
    def __init__(self, env):
        self._env = env

    async def info(self):
        return _snake_keys(await self._env.session({"op": "session.info"}))

    async def history(self):
        return _snake_keys(await self._env.session({"op": "session.history"}))


class _Skills:
    def __init__(self, env):
        self._env = env

    async def save(self, name, description, code, input_schema=None, output_schema=None, **other):
        for key in other:
            hint = f"Python spells it {_snake(key)}" if _snake(key) in ("input_schema", "output_schema") else None
            raise TypeError(
                f"skills.save() got an unexpected keyword argument {key!r}"
                + (f"; {hint}" if hint else "; it takes name, description, code, input_schema, output_schema")
            )
        payload = {"name": name, "description": description, "code": code}
        if input_schema is not None:
            payload["inputSchema"] = input_schema
        if output_schema is not None:
            payload["outputSchema"] = output_schema
        return await self._env.skills("save", payload)

    async def list(self):
        return _snake_keys(await self._env.skills("list", {}))

    async def get(self, name, version=None):
        return _snake_keys(
            await self._env.skills("get", {"name": name, **({} if version is None else {"version": version})})
        )

    async def delete(self, name):
        return await self._env.skills("delete", {"name": name})

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        env = self._env

        async def run(*args, **kwargs):
            text = _args_json(args, kwargs, f"skills.{name}", env.max_arg_chars)
            return _answer(await env.fns.callSkill(name, text))

        run.__qualname__ = f"skills.{name}"
        return _tracked(env, run)

    __getitem__ = __getattr__


class _Env:
    """The JS functions of py-bridge.js, wrapped: JSON text out, values or exceptions back."""

    def __init__(self, fns, max_arg_chars):
        self.fns = fns
        self.max_arg_chars = max_arg_chars
        # every call's coroutine, so that one the code never awaited is run and reported (driver.run)
        self.calls = []

    def tool(self, name):
        async def call(*args, **kwargs):
            text = _args_json(args, kwargs, name, self.max_arg_chars)
            return _answer(await self.fns.callTool(name, text))

        call.__name__ = name
        call.__qualname__ = f"tools.{name}"
        return _tracked(self, call)

    async def session(self, call, data=None):
        from pyodide.ffi import to_js

        out = await self.fns.session(json.dumps(call), None if data is None else to_js(data))
        if isinstance(out, str):
            return _answer(out)
        return out.to_bytes()

    async def skills(self, op, payload):
        text = _args_json((payload,), {}, f"skills.{op}", self.max_arg_chars)
        return _answer(await self.fns.skills(op, text))


async def _search(env, query, opts):
    payload = {k: v for k, v in {"query": query, **opts}.items() if v is not None}
    return _answer(await env.fns.searchTools(json.dumps(payload)))


async def _definition(env, name, schema):
    return _answer(await env.fns.getToolDefinition(str(name), schema is True))


MAX_TRACKED = 10_000


def _tracked(env, fn):
    """`fn` (an async function) whose coroutines env.calls keeps."""

    def start(*args, **kwargs):
        coro = fn(*args, **kwargs)
        if len(env.calls) < MAX_TRACKED:
            env.calls.append(coro)
        return coro

    start.__name__ = fn.__name__
    start.__qualname__ = fn.__qualname__
    return start


def _track_methods(obj, prefix):
    """obj's public async methods, their coroutines kept in obj._env.calls, named `<prefix>.<method>`."""
    for name in dir(type(obj)):
        fn = getattr(obj, name)
        if not name.startswith("_") and inspect.iscoroutinefunction(fn):
            fn.__func__.__qualname__ = f"{prefix}.{name}"
            setattr(obj, name, _tracked(obj._env, fn))
    return obj


# --- values as JSON: arguments, state, results ------------------------------------------------------
def _jsonable(v, depth, seen):
    if v is None or isinstance(v, (bool, str)):
        return v
    if inspect.isawaitable(v):
        what = getattr(v, "__qualname__", type(v).__name__)
        raise TypeError(f"{what}() was not awaited: missing await? Await each call before using its value")
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


_search.__qualname__ = "search_tools"
_definition.__qualname__ = "get_tool_definition"

for _cls in (_Server, _Tools, _State, _Workspace, _Session, _Skills, _Env):
    _cls.__module__ = "_sandbox"
del _cls
