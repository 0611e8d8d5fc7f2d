"""A hand's edits to its groups, kept when its tiles are read again, and the problems they leave
stale.

A tile read again (a tap in the picker) reads the whole hand again from the photo's boxes. The
player's edits that restate no tile, a meld split or joined, a tile the camera missed added with
the offer's tap, are made again on that reading, in order, where they still apply. Groups typed
in Edit groups restate every tile: the tiles read again replace them, and the problems say so,
as they say an edit that no longer applies. The layout's problems about the hand's shape (a tile
short, a meld of two, the winning tile not set apart) hold for the hand the photo showed; once
the player says the groups or the winning tile, they are dropped, and those about the photo's
tiles (a doubtful read, a tile on another) kept.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from device.app import service
from scoring.errors import TilescoreError

TYPED = ("hand", "melds", "flowers")
"""Edits that restate the tiles: replaced when the tiles are read again."""
REPLAYED = ("split", "join", "add")
"""Edits that restate no tile: made again when the tiles are read again."""
PHOTO_KINDS = frozenset({"low_confidence", "overlap", "unreadable", "face_down"})
"""Problems about the photo's tiles, which no edit to the groups makes stale."""
WIN_KINDS = frozenset({"win_not_apart", "no_win_tile", "would_win_as"})
"""Problems about the layout's winning tile (the reads that would win name it)."""


def restates_groups(fix: Mapping[str, Any]) -> bool:
    return any(key in fix for key in (*TYPED, *REPLAYED))


def replayed(
    reading: dict[str, Any], corrections: Sequence[Mapping[str, Any]], variant: str
) -> dict[str, Any]:
    """``reading``, the tiles read again, with the hand's earlier edits made again: those
    after its last typed groups (which replaced any before), each where it applies; typed groups
    and edits that no longer apply since the last reading are said among the problems."""
    typed = [i for i, c in enumerate(corrections) if any(k in c for k in TYPED)]
    tiles = [i for i, c in enumerate(corrections) if "tile" in c]
    since = tiles[-1] if tiles else -1  # the edits made on the last reading, not said before
    lost: list[str] = []
    if typed and typed[-1] > since:
        lost.append("the groups typed in Edit groups")
    edited = False
    for number, correction in enumerate(corrections):
        if number <= (typed[-1] if typed else -1) or not any(k in correction for k in REPLAYED):
            continue
        try:
            made = _made_again(reading, correction, variant)
        except TilescoreError:
            if number > since:
                lost.append(_said(correction))
            continue
        if made is not None:
            reading, edited = made, True
    if edited:
        reading = without_problems(reading, keep=PHOTO_KINDS)
    if lost:
        note = f"read again from the photo; not kept: {', and '.join(lost)}"
        reading = {
            **reading,
            "problems": [*reading.get("problems", []), note],
            "problem_kinds": [*reading.get("problem_kinds", []), "edits_lost"],
        }
    return reading


def _made_again(
    reading: dict[str, Any], correction: Mapping[str, Any], variant: str
) -> dict[str, Any] | None:
    """One edit made on a reading; None where there is nothing to make (a tile added to a hand
    no longer short). A tile added is added again while the hand is still short of one and,
    where the reading names the tiles that would make it win, is one of them (a box set aside by
    mistake and read again is the tile the hand lacked: another is not added)."""
    if "split" in correction:
        meld = correction.get("split_meld")
        melds = [service.meld_text(m) for m in reading.get("melds") or []]
        if meld is not None and meld not in melds:
            raise TilescoreError(f"no meld {meld} to split")
        index = melds.index(meld) if meld is not None else correction["split"]
        return service.split_meld(reading, index)
    if "join" in correction:
        return service.join_tiles(reading, correction["join"], correction["meld"])
    code = correction["add"]
    if (service.shortfall(reading, variant) or 0) <= 0:
        return None
    if code not in reading.get("would_win", [code]):
        raise TilescoreError(f"{code} no longer makes a winning hand")
    return service.add_tile(reading, code)


def _said(correction: Mapping[str, Any]) -> str:
    if "split" in correction:
        return f"the meld split ({correction.get('split_meld', correction['split'])})"
    if "join" in correction:
        return f"the {correction['meld']} joined ({correction['join']})"
    return f"the tile added ({correction['add']})"


def without_problems(
    reading: dict[str, Any], keep: Collection[str] = (), drop: Collection[str] = ()
) -> dict[str, Any]:
    """The reading with its problems of the kinds in ``drop``, or of any kind not in ``keep``,
    left out. A hand kept by an older version, whose reading does not say its problems' kinds,
    keeps them all."""
    problems, kinds = reading.get("problems"), reading.get("problem_kinds")
    if not isinstance(problems, list) or not isinstance(kinds, list):
        return reading
    if len(kinds) != len(problems):
        return reading
    pairs = [
        (p, k)
        for p, k in zip(problems, kinds, strict=True)
        if (k in keep if keep else True) and k not in drop
    ]
    return {**reading, "problems": [p for p, _ in pairs], "problem_kinds": [k for _, k in pairs]}
