# _sandbox_skills: Python skills, run in this interpreter. A skill's code is the body of an async
# function of `args` (a dict: a JSON copy of the caller's arguments) in which `tools`, `call_tool`,
# `skills`, `state` and `workspace` work as in the execution; what it returns (as JSON) is the call's
# value. Compiled once per execution under the file name `skills.<name>` (tracebacks and errors name
# it), guarded like the code. A call first asks the gateway (it checks the arguments against the
# skill's inputSchema, counts the call against the execution's cap and audits it), and is counted
# here for `stats.calls` (reported as `skillRuns`, like the TypeScript runtime's). TypeScript skills
# are the JavaScript runtime's (py-bridge.js callSkill).
import builtins

__builtins__ = dict(vars(builtins))  # the runtime's own (see _sandbox_json)

import ast  # noqa: E402
import linecache  # noqa: E402
from time import monotonic as _monotonic  # noqa: E402

from _sandbox_guard import _Instrument  # noqa: E402
from _sandbox_json import _dumps, _jsonable, _loads  # noqa: E402

SKILL_FILE = "skills."
# nested skill calls: a → b → c … (MAX_SKILL_DEPTH in shared/contract/skills.ts)
MAX_DEPTH = 16
MAX_RUNS = 64


def compile_skill(name, code, names):
    """The code object that defines the skill as `async def skill(args, skills)`: its `skills` is the
    caller's, which knows the chain of calls. Raises SyntaxError naming `skills.<name>` and the line."""
    filename = f"{SKILL_FILE}{name}"
    tree = ast.parse(code, filename=filename, mode="exec")
    params = ast.arguments(
        posonlyargs=[], args=[ast.arg("args"), ast.arg("skills")], kwonlyargs=[], kw_defaults=[], defaults=[]
    )
    fn = ast.AsyncFunctionDef("skill", params, tree.body or [ast.Pass()], [], None, None, [])
    fn.lineno, fn.col_offset = 1, 0
    module = _Instrument(names).visit(ast.Module([fn], []))
    ast.fix_missing_locations(module)
    return compile(module, filename, "exec", dont_inherit=True)


class _Runner:
    """The execution's Python skills: `has(name)`, `run(name, args_text, chain, scoped)`, `runs()`."""

    def __init__(self, env, skills, names, code_globals):
        self._env = env
        self._code = {s["name"]: s["code"] for s in skills}
        self._names = names
        self._globals = code_globals
        self._functions = {}
        self._runs = {}

    def has(self, name):
        return name in self._code

    async def run(self, name, args_text, chain, scoped):
        started = _monotonic()
        ok = False
        try:
            if name in chain:
                raise RecursionError(f"skills.{name} was called again by itself: {' → '.join([*chain, name])}")
            if len(chain) >= MAX_DEPTH:
                raise RecursionError(f"skills nested more than {MAX_DEPTH} deep: {' → '.join([*chain, name])}")
            args = _loads(args_text)
            await self._env.skills("call", {"name": name, "args": args, "caller": "python"})
            value = await self._function(name)(args, scoped((*chain, name)))
            ok = True
            return None if value is None else _loads(_dumps(_jsonable(value, 0, set())))
        finally:
            self._count(f"skills.{name}", ok, _monotonic() - started)

    def runs(self):
        """Each skill's calls as the code saw them: `[{ name, count, errors, ms }]`."""
        return [{"name": k, **v} for k, v in self._runs.items()]

    def _function(self, name):
        fn = self._functions.get(name)
        if fn is None:
            code = self._code[name]
            filename = f"{SKILL_FILE}{name}"
            linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
            g = self._globals(filename)
            exec(compile_skill(name, code, self._names), g)  # noqa: S102 - the team's own code, like the agent's
            fn = self._functions[name] = g["skill"]
        return fn

    def _count(self, label, ok, seconds):
        stat = self._runs.get(label)
        if stat is None:
            if len(self._runs) >= MAX_RUNS:
                return
            stat = self._runs[label] = {"count": 0, "errors": 0, "ms": 0}
        stat["count"] += 1
        stat["errors"] += 0 if ok else 1
        stat["ms"] += round(seconds * 1000)
