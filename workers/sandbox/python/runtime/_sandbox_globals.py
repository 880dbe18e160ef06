# _sandbox_globals: what the code sees besides builtins (tools, call_tool, search_tools,
# get_tool_definition, state, workspace, session, skills), on top of the JS functions of py-bridge.js;
# values cross as JSON by _sandbox_json. Apart from _sandbox (driver.py), which runs the code, and
# _sandbox_guard, which bounds it, so that each file is one concept; all are imported by _sandbox, so
# all are in the memory snapshot. The classes keep `_sandbox` as their module: the code sees the names
# it saw before they moved (reprs, error stacks). What they use is their own (see _sandbox_json).
import builtins

__builtins__ = dict(vars(builtins))

from inspect import iscoroutinefunction as _iscoroutinefunction  # noqa: E402

from pyodide.ffi import to_js as _to_js  # noqa: E402

from _sandbox_json import _answer, _args_json, _dumps, _jsonable, _loads, _snake, _snake_keys  # noqa: E402
from _sandbox_skills import compile_skill  # noqa: E402


# --- what the code calls: tools, discovery, state, workspace, session, skills --------------------
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
        return None if text is None else _loads(text)

    async def set(self, key, value):
        text = _dumps(_jsonable(value, 0, set()))
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
    def __init__(self, env, chain=()):
        self._env = env
        # the Python skills this one was called through (the execution's own code: none)
        self._chain = chain

    async def save(
        self, name, description, code, input_schema=None, output_schema=None, language="python", **other
    ):
        for key in other:
            hint = f"Python spells it {_snake(key)}" if _snake(key) in ("input_schema", "output_schema") else None
            raise TypeError(
                f"skills.save() got an unexpected keyword argument {key!r}"
                + (
                    f"; {hint}"
                    if hint
                    else "; it takes name, description, code, input_schema, output_schema, language"
                )
            )
        if language == "python" and isinstance(name, str) and isinstance(code, str):
            compile_skill(name, code, ("_", "_"))  # a SyntaxError now, naming skills.<name> and the line
        payload = {"name": name, "description": description, "code": code, "language": language}
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
        chain = self._chain

        async def run(*args, **kwargs):
            text = _args_json(args, kwargs, f"skills.{name}", env.max_arg_chars)
            if env.python_skills.has(name):
                return await env.python_skills.run(name, text, chain, lambda c: _skills_of(env, c))
            return _answer(await env.fns.callSkill(name, text))

        run.__qualname__ = f"skills.{name}"
        return _tracked(env, run)

    __getitem__ = __getattr__


class _Env:
    """The JS functions of py-bridge.js, wrapped: JSON text out, values or exceptions back."""

    def __init__(self, fns, max_arg_chars):
        self.fns = fns
        self.max_arg_chars = max_arg_chars
        # the execution's Python skills (_sandbox_skills._Runner), set by _sandbox.run()
        self.python_skills = None
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
        out = await self.fns.session(_dumps(call), None if data is None else _to_js(data))
        if isinstance(out, str):
            return _answer(out)
        return out.to_bytes()

    async def skills(self, op, payload):
        text = _args_json((payload,), {}, f"skills.{op}", self.max_arg_chars)
        return _answer(await self.fns.skills(op, text))


async def _search(env, query, opts):
    payload = {k: v for k, v in {"query": query, **opts}.items() if v is not None}
    return _answer(await env.fns.searchTools(_dumps(payload)))


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
        if not name.startswith("_") and _iscoroutinefunction(fn):
            fn.__func__.__qualname__ = f"{prefix}.{name}"
            setattr(obj, name, _tracked(obj._env, fn))
    return obj


def _skills_of(env, chain):
    return _track_methods(_Skills(env, chain), "skills")


def _code_globals(env, name):
    """The globals of code named `name`: the execution's (`__main__`) or a Python skill's."""
    return {
        "__name__": name,
        "__builtins__": builtins,
        "tools": _Tools(env),
        "call_tool": lambda name, args=None: env.tool(str(name))(args),
        "search_tools": _tracked(env, lambda query=None, **opts: _search(env, query, opts)),
        "get_tool_definition": _tracked(env, lambda name, schema=False: _definition(env, name, schema)),
        "state": _track_methods(_State(env), "state"),
        "workspace": _track_methods(_Workspace(env), "workspace"),
        "session": _track_methods(_Session(env), "session"),
        "skills": _skills_of(env, ()),
    }


_search.__qualname__ = "search_tools"
_definition.__qualname__ = "get_tool_definition"

for _cls in (_Server, _Tools, _State, _Workspace, _Session, _Skills, _Env):
    _cls.__module__ = "_sandbox"
del _cls
