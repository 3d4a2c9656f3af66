"""JSON as the Swift reader (`JSONParser`, `JSONValue`) reads it, with Python's `json` doing the work.

    value = parse(line)          # raises JSONProblem with the Swift reader's words
    int_value(value.get("frame"))

Python's `json` accepts more than JSON: `NaN`, `Infinity` and `-Infinity`, numbers too large for a
double (read as infinity), lone UTF-16 surrogates (`"\\ud800"`), a byte-order mark, and nesting as
deep as the stack allows. Lumatrace refuses each, and so does `parse`, so both readers accept
exactly the same lines. Numbers are what the Swift reader makes of them: an integer that fits in
64 bits is an `int`, any other number a `float` (`"t":1` is an integer, `"t":1.0` a float). Of a
key given twice, the first is the one read (as `JSONValue`'s subscript reads it).

The accessors (`int_value`, `number_value`) are `JSONValue.intValue` and `doubleValue`: None for a
value of another type, so a check reads as the Swift one does.
"""
from __future__ import annotations

import json
import math
import re

#: The deepest nesting of objects and arrays read (as the Swift `JSONParser.maximumDepth`).
MAXIMUM_DEPTH = 128
#: A `\u` escape of a UTF-16 surrogate somewhere in a line: only then can a string hold a lone one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_INT64 = range(-(1 << 63), 1 << 63)


class JSONProblem(ValueError):
    """Why a line is not JSON, in the Swift reader's words (`JSONProblem`)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def parse(line: bytes):
    """The JSON value of one line (UTF-8 bytes), or `JSONProblem`."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JSONProblem(f"string is not valid UTF-8 at character {e.start + 1}") from None
    if text.startswith("\ufeff"):
        raise JSONProblem("invalid value at character 1 (a byte-order mark)")
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as e:
        words = e.msg.removesuffix(" at")  # "Invalid control character at"
        raise JSONProblem(f"{words[:1].lower()}{words[1:]} at character {e.pos + 1}") from None
    except RecursionError:
        raise JSONProblem(f"nesting deeper than {MAXIMUM_DEPTH} levels") from None
    deep = line.count(b"[") + line.count(b"{") > MAXIMUM_DEPTH
    if deep or _SURROGATE_ESCAPE.search(line):
        _check_strings_and_depth(value)
    return value


def _constant(name: str):
    raise JSONProblem(f"invalid value ({name} is not JSON)")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999: JSON has no infinity
        raise JSONProblem(f"number {text[:32]} is out of range")
    return value


def _int(text: str):
    if len(text) <= 20:
        value = int(text)
        if value in _INT64:
            return value
    return _float(text)  # as the Swift reader: an integer beyond 64 bits is a double


def _first_of_each_key(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        out = {}
        for key, value in pairs:
            out.setdefault(key, value)
    return out


#: One decoder for every line: `json.loads` with hooks builds a new one per call, which cost a
#: third of the time of reading a log.
_DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_float, parse_int=_int,
                            object_pairs_hook=_first_of_each_key)


def int_value(value) -> int | None:
    """An integer, or a float that is one (below 9e15 in size); None otherwise (`JSONValue.intValue`)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 9e15:
        return int(value)
    return None


def number_value(value) -> float | None:
    """Any number as a float; None otherwise (`JSONValue.doubleValue`)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def member(value, key: str):
    """`value[key]` when `value` is an object that has it, else None (`JSONValue`'s subscript)."""
    return value.get(key) if isinstance(value, dict) else None


def compact(value, limit: int = 200) -> str:
    """A value as one short line of JSON, for a message."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)[:limit]


def _check_strings_and_depth(value) -> None:
    """Refuses a lone surrogate in any key or string, and nesting deeper than `MAXIMUM_DEPTH`."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            _check_string(item)
            continue
        if not isinstance(item, (dict, list)):
            continue
        if depth > MAXIMUM_DEPTH:
            raise JSONProblem(f"nesting deeper than {MAXIMUM_DEPTH} levels")
        if isinstance(item, dict):
            for key, inner in item.items():
                _check_string(key)
                pending.append((inner, depth + 1))
        else:
            pending.extend((inner, depth + 1) for inner in item)


def _check_string(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise JSONProblem("unpaired surrogate") from None
