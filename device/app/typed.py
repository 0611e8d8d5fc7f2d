"""A hand typed in where the camera found no tile (the photo blank, the light poor, the tiles
on a cloth the detector misses): the same fields as Edit groups, checked as a correction's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from device.app import context as table_context
from device.app import edits, fixes
from scoring.errors import TilescoreError, shown

TYPED_KEYS = (*edits.TYPED, "win_tile")
"""What the page sends: the concealed tiles (winning tile among them), melds, flowers, and the
winning tile."""
SAME_TYPED_WITHIN_S = 3.0
"""A typed hand sent again this soon after the same one was recorded is a double tap."""


def typed_reading(given: Any, context: Mapping[str, Any]) -> dict[str, Any]:
    """The reading of a typed hand, checked as Edit groups' fields are (``fixes.check_fix``)
    against the table's rule set. There are no photo problems to say: the player said every
    tile. Anything else is a one-line ``TilescoreError``, and nothing is recorded."""
    if not isinstance(given, dict):
        raise TilescoreError("a typed hand must be a JSON object")
    unknown = set(given) - set(TYPED_KEYS)
    if unknown:
        raise TilescoreError(f"unknown typed hand key {shown(sorted(unknown)[0])}")
    if not isinstance(given.get("hand"), str) or not given["hand"].strip():
        raise TilescoreError('type the concealed tiles as "hand", e.g. "123m456p789s1122z"')
    fix = fixes.check_fix(given, 0)  # no photo: no tile number to name
    fixes.check_fix_tiles(fix, context)
    fixes.check_fix_melds(fix.get("melds", []), context)
    reading: dict[str, Any] = {
        "hand": fix["hand"],
        "melds": fix.get("melds", []),
        "flowers": fix.get("flowers", ""),
        "problems": [],
        "problem_kinds": [],
        "typed": True,  # no photo read: the Result screen has no boxes to tap
    }
    if "win_tile" in fix:
        reading["win_tile"] = fix["win_tile"]
    return reading


def same_typed_again(
    latest: Mapping[str, Any],
    reading: Mapping[str, Any],
    context: Mapping[str, Any],
    now: float,
) -> bool:
    """Whether ``reading`` is the session's latest hand, typed, sent again at once to the same
    table: the hand typed again after a change on the Table screen (self-drawn, the rule set)
    is the hand as it should have been, not a double tap (it showed the old hand's score)."""
    kept = latest.get("reading") or {}
    if not kept.get("typed") or not table_context.sent_again(
        latest, context, now, SAME_TYPED_WITHIN_S
    ):
        return False
    return all(kept.get(key) == reading.get(key) for key in TYPED_KEYS)
