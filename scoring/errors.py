"""The one family of errors a user may see: each is a single line naming the bad input.

The command line and the app print ``error: <message>`` for these and nothing else; any other
exception is a bug and surfaces as one.
"""

from __future__ import annotations

import re
import reprlib


class TilescoreError(ValueError):
    """Base of every error caused by bad input (a hand, a file, an option, an image)."""


class TileError(TilescoreError):
    """An unknown tile code, or a tile where it cannot be."""


class HandError(TilescoreError):
    """A hand that cannot be read: wrong size, five copies, a meld that is not a meld."""


class RuleOptionError(TilescoreError):
    """An unknown rule option, or a value of the wrong kind."""


class VariantError(TilescoreError):
    """An unknown variant name."""


def shown(value: object) -> str:
    """A bad value as an error message quotes it: short and on one line (a value thousands of
    characters long is shown by its ends, a long list by its first items), and true, false
    and null as JSON spells them, which is how they were given (Python's True read as a typo)."""
    text = reprlib.repr(value)
    return text if isinstance(value, str) else _JSON_WORDS.sub(lambda m: _WORDS[m.group(0)], text)


def kind_of(value: object) -> str:
    """What a JSON value is, in JSON's words: a message says "got a list", not "got list"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return _KINDS.get(type(value), type(value).__name__)


_WORDS = {"True": "true", "False": "false", "None": "null", "inf": "Infinity", "-inf": "-Infinity"}
# Only the words standing alone: quoted in a text ('None of them') they are the user's own.
_JSON_WORDS = re.compile(r"(?<![\w'\"])(?:True|False|None|-?inf)(?![\w'\"])")
_KINDS = {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number"}
