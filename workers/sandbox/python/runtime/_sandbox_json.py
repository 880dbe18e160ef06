# _sandbox_json: values crossing to and from the gateway as JSON text: arguments out (_args_json,
# _jsonable), answers in (_answer, raising the gateway's error by its name), and the gateway's own
# records with the snake_case keys Python spells.
import base64
import dataclasses
import datetime
import decimal
import inspect
import json
import math

MAX_DEPTH = 100


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
