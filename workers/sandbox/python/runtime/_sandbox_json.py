# _sandbox_json: values crossing to and from the gateway as JSON text: arguments out (_args_json,
# _jsonable), answers in (_answer, raising the gateway's error by its name), and the gateway's own
# records with the snake_case keys Python spells.
# The code runs in this interpreter and may change any module, builtins included; what the runtime
# uses is taken here, when the snapshot is made: its own copy of builtins (functions take theirs from
# their module's `__builtins__` when they are defined), the JSON encoder and decoder of the C module
# `_json`, and the functions it calls, by reference. The same in _sandbox, _sandbox_globals and
# _sandbox_guard.
import builtins

__builtins__ = dict(vars(builtins))

import _json  # noqa: E402
from binascii import b2a_base64  # noqa: E402
from dataclasses import fields as _fields, is_dataclass as _is_dataclass  # noqa: E402
from datetime import date as _date, datetime as _datetime, time as _time  # noqa: E402
from decimal import Decimal as _Decimal  # noqa: E402
from inspect import isawaitable as _isawaitable  # noqa: E402
from json.decoder import JSONDecoder as _JSONDecoder  # noqa: E402
from math import isinf as _isinf, isnan as _isnan  # noqa: E402

MAX_DEPTH = 100


def _not_json(value):
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# markers None: _jsonable has already cut cycles; allow_nan False, as JSON has no NaN.
_encode = _json.make_encoder(None, _not_json, _json.encode_basestring_ascii, None, ": ", ", ", False, False, False)
_scan = _json.make_scanner(_JSONDecoder())


def _dumps(value):
    """JSON text of `value` (made of dict, list, str, int, float, bool, None)."""
    return "".join(_encode(value, 0))


def _loads(text):
    """The value of JSON text the gateway wrote."""
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        raise ValueError("not JSON") from None
    if end != len(text):
        raise ValueError("extra data after JSON")
    return value


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
    res = _loads(text)
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
        text = _dumps(_jsonable(value, 0, set()))
    except (TypeError, ValueError) as e:
        raise TypeError(f"{what}: arguments are not JSON-serializable ({e})") from None
    if len(text) > max_chars:
        raise _error("LimitError", f"{what}: arguments are {len(text)} characters of JSON; the limit is {max_chars}")
    return text


# --- values as JSON: arguments, state, results ------------------------------------------------------
def _jsonable(v, depth, seen):
    if v is None or isinstance(v, (bool, str)):
        return v
    if _isawaitable(v):
        what = getattr(v, "__qualname__", type(v).__name__)
        raise TypeError(f"{what}() was not awaited: missing await? Await each call before using its value")
    if isinstance(v, int):
        return v if -(2**53) <= v <= 2**53 else str(v)
    if isinstance(v, float):
        if _isnan(v):
            return "NaN"
        if _isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if depth > MAX_DEPTH:
        return "[depth limit]"
    if isinstance(v, (_datetime, _date, _time)):
        return v.isoformat()
    if isinstance(v, _Decimal):
        return str(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"type": "bytes", "base64": b2a_base64(bytes(v), newline=False).decode("ascii")}
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
        if _is_dataclass(v) and not isinstance(v, type):
            return {f.name: _jsonable(getattr(v, f.name), depth + 1, seen) for f in _fields(v)}
        return repr(v)
    finally:
        seen.discard(id(v))


def _error_data(e, max_chars):
    """An exception's own attributes (its `__dict__`, and `args` when they hold more than the message)
    as a JSON-safe dict, for the result's `error.data` (the JS side cuts it to ERROR_CAPS.data); a value
    that is not JSON becomes its repr. None when it has none, or when their JSON exceeds `max_chars`."""
    try:
        own = getattr(e, "__dict__", None)
        own = own if isinstance(own, dict) else {}
        fields = {k: v for k, v in own.items() if isinstance(k, str) and not k.startswith("__")}
        args = e.args
        if isinstance(args, tuple) and len(args) > 1 and "args" not in fields:
            fields["args"] = list(args)
        data = {}
        for key, value in fields.items():
            try:
                data[key] = _jsonable(value, 0, set())
            except Exception:  # noqa: BLE001 - an awaitable, or a repr that raised
                data[key] = f"<{type(value).__name__}>"
        return data if data and len(_dumps(data)) <= max_chars else None
    except Exception:  # noqa: BLE001 - the exception's own attribute access failed
        return None
