"""JSON as tilescore reads it from a user (a hand file, stdin, a label file, a request body):
strictly, and any problem one line naming where it came from.

Python's json reads more than JSON: NaN and Infinity (which it then writes back as no JSON at
all), a key given twice in one object (the last kept, silently), and it fails with other errors
than a decoding one on input nested too deeply or holding a number of more digits than it
converts. Each of those is a ``TilescoreError`` here.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from scoring.errors import TilescoreError


class NotTextError(TilescoreError):
    """The input is no UTF-8 text at all (a photo in a format tilescore does not read, say)."""


def loads(raw: bytes | str, where: str) -> Any:
    """The JSON value in ``raw`` (UTF-8 bytes, or text); ``where`` names it in the error."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise NotTextError(f"{where} is not UTF-8 text") from None
    # Windows' Notepad begins a UTF-8 file with a byte-order mark; the text is JSON all the same.
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_object)
    except json.JSONDecodeError as error:
        raise TilescoreError(
            f"{where} is not valid JSON: {error.msg} at line {error.lineno}"
        ) from None
    except _NotJson as error:
        raise TilescoreError(f"{where} is not valid JSON: {error} is not a JSON number") from None
    except _Twice as error:
        raise TilescoreError(f"{where} gives the key {error} twice in one object") from None
    except RecursionError:
        raise TilescoreError(f"{where} is nested too deeply to read") from None
    except ValueError:
        # json reads a whole number through int(), which refuses more digits than this.
        limit = sys.get_int_max_str_digits()
        raise TilescoreError(f"{where} holds a number of more than {limit} digits") from None


class _NotJson(Exception):
    """A constant Python's json reads but JSON has not (NaN, Infinity, -Infinity)."""


def _no_constant(name: str) -> Any:
    raise _NotJson(name)


class _Twice(Exception):
    """A key given twice in one object: Python's json keeps the last silently, so a fix naming
    two tiles would change the second."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Twice(repr(key))
            seen.add(key)
    return found
