# _sandbox: the Python side of a Python isolate. Imported once while the memory snapshot is made
# (so it is already in sys.modules in every isolate restored from it); holds no JS reference until
# run() is called. run() parses the code, guards every loop and function body, makes the value of
# a trailing expression the result, runs it with top-level await, and reports JSON text that the
# isolate turns into the same report as TypeScript's. Everything the code reaches outside Python
# goes through `fns` (py-bridge.js), as JSON text, by the globals of _sandbox_globals.py.
# What it uses once the code has run is its own (see _sandbox_json), and run() answers even when the
# code broke that: a fixed report, which the JS side says is the runtime's failure.
import builtins

__builtins__ = dict(vars(builtins))

import ast  # noqa: E402
import linecache  # noqa: E402
import logging  # noqa: E402
import secrets  # noqa: E402
import sys  # noqa: E402
from asyncio import wait_for as _wait_for  # noqa: E402
from inspect import CORO_CREATED as _CORO_CREATED, getcoroutinestate as _coro_state  # noqa: E402
from time import monotonic as _monotonic  # noqa: E402
from traceback import StackSummary as _StackSummary, TracebackException as _TracebackException  # noqa: E402

from _sandbox_json import _dumps, _error_data, _jsonable  # noqa: E402
from _sandbox_guard import BudgetExceeded, _Budget, _exhausted, _install_guard, _Instrument  # noqa: E402
from _sandbox_globals import _code_globals, _Env  # noqa: E402
from _sandbox_skills import SKILL_FILE, _Runner  # noqa: E402

AGENT_FILE = "<code>"
# Below what the isolate's JS stack holds even with exception handling on every frame: past it
# CPython raises RecursionError instead of the wasm stack overflowing, which kills the interpreter.
RECURSION_LIMIT = 400


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
    """State that must not be shared by every isolate restored from one snapshot (and by the
    executions of a reused instance: the warm worker's reset.js calls it after each reset)."""
    import random

    random.seed()


def seal_js():
    """The warm worker reuses one instance (reset.js): pyodide's own JS objects, which a reset keeps,
    must not be reachable. `pyodide_js` becomes a stub with the one value pyodide's asyncio reads."""
    import types

    from _pyodide._importhook import jsfinder

    config = sys.modules["pyodide_js"]._api.config
    api = types.SimpleNamespace(config=types.SimpleNamespace(enableRunUntilComplete=bool(config.enableRunUntilComplete)))
    stub = types.ModuleType("pyodide_js", "pyodide's JS API is not available in this sandbox")
    stub._api = api
    jsfinder.unregister_js_module("pyodide_js")
    sys.modules["pyodide_js"] = stub


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


def _describe(e, max_chars):
    line = None
    # the innermost Python skill frame below the code's last line: where in which skill it failed
    skill_at = None
    t = e.__traceback__
    while t is not None:
        filename = t.tb_frame.f_code.co_filename
        if filename == AGENT_FILE:
            line, skill_at = t.tb_lineno, None
        elif filename.startswith(SKILL_FILE):
            skill_at = f"in {filename} line {t.tb_lineno}: "
        t = t.tb_next
    try:
        message = str(e)
    except Exception:  # noqa: BLE001 - the exception's own __str__ failed
        message = "(its message could not be read)"
    out = {"name": type(e).__name__, "message": (skill_at or "") + message}
    if isinstance(e, SyntaxError) and e.filename == AGENT_FILE:
        line = e.lineno
        msg = e.msg
        out["message"] = f"{msg} (line {e.lineno}, column {e.offset})" if e.offset else msg
        out["column"] = e.offset
    if isinstance(e, BudgetExceeded):
        out["name"] = "TimeoutError"
        out["message"] = f"Execution stopped: {e}" + (f" (line {line})" if line else "") + f"; {e.fix}"
    if line is not None:
        out["line"] = line
    if isinstance(e, (AttributeError, TypeError)) and "'coroutine' object" in out["message"]:
        out["message"] += " (a call was not awaited: write (await tools.<server>.<tool>(...)))"
    try:
        out["stack"] = "".join(_agent_traceback(e).format())[-4000:]
    except Exception:  # noqa: BLE001 - the traceback module runs on what the code may have changed
        pass
    out["message"] = out["message"][:1000]
    out["name"] = out["name"][:200]
    data = None if isinstance(e, BudgetExceeded) else _error_data(e, max_chars)
    if data is not None:
        out["data"] = data
    return out


def _theirs(filename):
    """A frame of the submitted code or of one of the team's Python skills."""
    return filename == AGENT_FILE or filename.startswith(SKILL_FILE)


def _agent_traceback(e):
    """The traceback with only the submitted code's frames, in `e` and every exception chained to it."""
    top = _TracebackException(type(e), e, e.__traceback__)
    todo, seen = [top], set()
    while todo:
        te = todo.pop()
        if id(te) in seen:
            continue
        seen.add(id(te))
        te.stack = _StackSummary.from_list([f for f in te.stack if _theirs(f.filename)])
        todo.extend(x for x in (te.__cause__, te.__context__, *(getattr(te, "exceptions", None) or ())) if x is not None)
    return top


MAX_WARNINGS = 5


async def _settle(env, deadline):
    """Runs the calls the code started but never awaited (a coroutine runs only when awaited),
    until the deadline; says what became of each, grouped by call."""
    groups = {}
    seen = 0
    while seen < len(env.calls):
        coro = env.calls[seen]
        seen += 1
        if _coro_state(coro) != _CORO_CREATED:
            continue
        label = f"{coro.__qualname__}()"
        left = deadline - _monotonic()
        if left <= 0:
            coro.close()
            outcome = "late"
        else:
            try:
                await _wait_for(coro, left)
                outcome = "ok"
            except TimeoutError:
                outcome = "late"
            except Exception as e:  # noqa: BLE001
                outcome = f"{type(e).__name__}: {str(e)[:140]}"
        groups.setdefault(label, []).append(outcome)
    warnings = []
    for label, outcomes in groups.items():
        if len(warnings) == MAX_WARNINGS:
            warnings.append(f"{len(groups) - MAX_WARNINGS} more calls were not awaited")
            break
        warnings.append(_not_awaited(label, outcomes))
    return warnings


def _not_awaited(label, outcomes):
    head = f"{label} was not awaited; it ran after the code returned"
    if len(outcomes) == 1:
        o = outcomes[0]
        if o == "ok":
            return f"{head} and completed"
        if o == "late":
            return f"{label} was not awaited and did not run before the time limit"
        return f"{head} and failed: {o}"
    ok = outcomes.count("ok")
    late = outcomes.count("late")
    failed = [o for o in outcomes if o not in ("ok", "late")]
    parts = [f"{ok} completed"]
    if failed:
        parts.append(f"{len(failed)} failed (first: {failed[0]})")
    if late:
        parts.append(f"{late} did not run before the time limit")
    return f"{label} was not awaited ({len(outcomes)} calls); they ran after the code returned: {', '.join(parts)}"


async def run(code, options, fns, log):
    """One execution: its report as JSON text. Never raises: when reporting failed, a literal that
    nothing the code changed can alter (the JS side says it is the runtime's failure)."""
    try:
        return await _run(code, options, fns, log)
    except BaseException:  # noqa: BLE001
        return "not a report"


async def _run(code, options, fns, log):
    opts = options.to_py() if hasattr(options, "to_py") else dict(options)
    max_chars = int(opts["maxChars"])
    names = (f"__tick_{secrets.token_hex(8)}", f"__tick_iter_{secrets.token_hex(8)}")
    budget = _Budget(int(opts["maxSteps"]), _monotonic() + opts["timeoutMs"] / 1000, names)
    result_name = f"__result_{secrets.token_hex(8)}"
    env = _Env(fns, int(opts["maxArgChars"]))
    handler = _LogHandler(log)
    handler.setFormatter(logging.Formatter("%(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG)
    linecache.cache[AGENT_FILE] = (len(code), None, code.splitlines(True), AGENT_FILE)
    env.python_skills = _Runner(env, opts.get("skills") or [], names, lambda name: _code_globals(env, name))
    g = _code_globals(env, "__main__")
    report = {}
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
    except BaseException as e:  # noqa: BLE001
        report["error"] = _describe(e, max_chars)
        if budget.tripped is None and _exhausted(budget):
            # RecursionError inside the guard's refill ends its ticker: every later tick raised
            # StopIteration, which is what stopped the code.
            report["error"]["name"] = "RecursionError"
            report["error"]["message"] = "maximum recursion depth exceeded (the code kept recursing after RecursionError)"
    try:
        warnings = await _settle(env, budget.deadline)
        if warnings:
            report["warnings"] = warnings
        runs = env.python_skills.runs()
        if runs:
            report["skillRuns"] = runs
        if "error" not in report and result_name in g and g[result_name] is not None:
            text = _dumps(_jsonable(g[result_name], 0, set()))
            if len(text) > max_chars:
                raise _result_too_large(len(text), max_chars)
            report["resultJson"] = text
    except BaseException as e:  # noqa: BLE001
        report["error"] = _describe(e, max_chars)
    finally:
        for name in names:
            builtins.__dict__.pop(name, None)
    return _dumps(report)


def _result_too_large(size, limit):
    err = ValueError(
        f"the result is {size} characters of JSON; at most {limit} can be returned: "
        "return less (filter or summarize in the code, or write it to workspace)"
    )
    return err
