"""The one family of errors a user may see: each is a single line naming the bad input.

The command line and the app print ``error: <message>`` for these and nothing else; any other
exception is a bug and surfaces as one.
"""

from __future__ import annotations

import math
import reprlib


class TilescoreError(ValueError):
    """Base of every error caused by bad input (a hand, a file, an option, an image)."""


class TileError(TilescoreError):
    """An unknown tile code, or a tile where it cannot be."""


class HandError(TilescoreError):
    """A hand that cannot be read: wrong size, five copies, a meld that is not a meld."""


class NoYakuError(HandError):
    """A complete riichi hand with no yaku: 一翻起胡. The layout tells it from a hand that is not
    complete (``hand_json.wins_under``): declared riichi, it may win."""


class RuleOptionError(TilescoreError):
    """An unknown rule option, or a value of the wrong kind."""


class VariantError(TilescoreError):
    """An unknown variant name."""


def shown(value: object) -> str:
    """A bad value as an error message quotes it: short and on one line (a value thousands of
    characters long is shown by its ends, a long list by its first items), and true, false,
    null and JSON's other words as JSON spells them, which is how they were given (Python's
    True read as a typo); text is quoted as it was typed."""
    return reprlib.repr(_spelt(value, _SHOWN_LEVELS))


class _Word:
    """A value shown by its JSON word (``reprlib`` writes what ``repr`` says)."""

    def __init__(self, word: str) -> None:
        self.word = word

    def __repr__(self) -> str:
        return self.word


_SHOWN_LEVELS = 7  # reprlib shows six levels of nesting, then "..."
_SHOWN_ITEMS = 12  # and the first items of a list or an object: more than it shows, no more


def _spelt(value: object, levels: int) -> object:
    """``value`` with Python's words for JSON values swapped for JSON's, as deep and as far as
    reprlib will show it."""
    if value is None or isinstance(value, bool):
        return _Word({None: "null", True: "true", False: "false"}[value])
    if isinstance(value, float) and not math.isfinite(value):
        return _Word("NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity")
    if levels <= 0:
        return value
    if isinstance(value, list | tuple):
        shown = [_spelt(item, levels - 1) for item in value[:_SHOWN_ITEMS]]
        return shown if isinstance(value, list) else tuple(shown)
    if isinstance(value, dict):
        items = list(value.items())[:_SHOWN_ITEMS]
        return {key: _spelt(item, levels - 1) for key, item in items}
    return value


def kind_of(value: object) -> str:
    """What a JSON value is, in JSON's words: a message says "got a list", not "got list"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return _KINDS.get(type(value), type(value).__name__)


_KINDS = {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number"}
