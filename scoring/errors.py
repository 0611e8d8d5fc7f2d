"""The one family of errors a user may see: each is a single line naming the bad input.

The command line and the app print ``error: <message>`` for these and nothing else; any other
exception is a bug and surfaces as one.
"""

from __future__ import annotations

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
    characters long is shown by its ends, a long list by its first items)."""
    return reprlib.repr(value)
