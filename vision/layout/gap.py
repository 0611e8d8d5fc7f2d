"""Where in a sorted row a tile the detector missed lay, and which tiles fit there.

Most players sort the hand they lay down: each suit together, its numbers rising. A missed tile
leaves a gap of about one tile in the row, and between a 4m and a 6m only a 4m, 5m or 6m fits.
So a hand a tile short that several tiles would make a winning hand (``complete.tiles_that_win``)
may still say which one it was. Nothing here is guessed for a row that is not in order as read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from scoring.errors import TilescoreError
from scoring.tiles import tile_from_code
from vision.layout.geometry import Frame
from vision.layout.tiles import LayoutTile

ONE_MISSING = (1.6, 2.5)
"""A step between row neighbours, in pitches near them, that holds one missing tile: touching
tiles are 1 apart (a little more with the gaps of a hand laid by hand), two missing 3."""


def missing_place(row: Sequence[LayoutTile], frame: Frame) -> int | None:
    """The position in ``row`` (tiles in reading order) where one tile is missing: the index
    of the tile after the gap; None when no step, or more than one, holds a missing tile.

    Only a step between two tiles of one suit counts: some players leave a tile's width between
    suits, and a tile missed at the row's end would be taken for one missed there."""
    places = [
        index
        for index in range(1, len(row))
        if ONE_MISSING[0] <= pitches_apart(row[index - 1], row[index], frame) <= ONE_MISSING[1]
    ]
    if len(places) != 1:
        return None
    return places[0] if one_suit(row[places[0] - 1], row[places[0]]) else None


def one_suit(left: LayoutTile, right: LayoutTile) -> bool:
    """Whether two tiles either side of a gap are of one suit: a gap between two suits may be
    the player's own, not a missed tile's."""
    return left.tile is not None and right.tile is not None and left.tile.suit == right.tile.suit


def missing_box(row: Sequence[LayoutTile], place: int) -> tuple[float, float, float, float]:
    """Where the tile missing at ``place`` in ``row`` lay (``missing_place``), in image pixels."""
    return box_between(row[place - 1], row[place])


def pitches_apart(before: LayoutTile, after: LayoutTile, frame: Frame) -> float:
    """How far along the row ``after`` lies past ``before``, in pitches near them (touching: 1)."""
    step = frame.project(after)[0] - frame.project(before)[0]
    return step / ((frame.extent(before) + frame.extent(after)) / 2)


def fitting(codes: Sequence[str], place: int, candidates: Sequence[str]) -> tuple[str, ...]:
    """Of ``candidates``, those that put at ``place`` in the row ``codes`` leave it in order;
    none when the row is not in order as read (the player did not sort it)."""
    if not in_order(codes):
        return ()
    return tuple(c for c in candidates if in_order([*codes[:place], c, *codes[place:]]))


def in_order(codes: Sequence[str]) -> bool:
    """Whether a row is sorted as players sort: each suit's tiles together, in any order of
    suits, their numbers never falling (the honours too, 東南西北白發中)."""
    suits: list[str] = []
    last: dict[str, int] = {}
    for code in codes:
        try:
            tile = tile_from_code(code).plain
        except TilescoreError:
            return False
        suit = tile.suit.value
        if not suits or suits[-1] != suit:
            if suit in suits:
                return False
            suits.append(suit)
        if tile.number < last.get(suit, 0):
            return False
        last[suit] = tile.number
    return True


def box_between(first: LayoutTile, second: LayoutTile) -> tuple[float, float, float, float]:
    """The box of a tile lying upright between two tiles of a row, in image pixels: centred
    midway between their facing edges (a sideways neighbour is longer along the row), the size
    of an upright neighbour's box (a claimed meld turns one tile only)."""
    (x1, y1), (x2, y2) = first.centre, second.centre
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    dx, dy = (x2 - x1) / length, (y2 - y1) / length

    def half_along(tile: LayoutTile) -> float:
        left, top, right, bottom = tile.box
        return (abs(dx) * (right - left) + abs(dy) * (bottom - top)) / 2

    cx = (x1 + dx * half_along(first) + x2 - dx * half_along(second)) / 2
    cy = (y1 + dy * half_along(first) + y2 - dy * half_along(second)) / 2
    upright = [_size(t) for t in (first, second) if not t.rotated] or [
        _size(t)[::-1] for t in (first, second)
    ]
    width = sum(w for w, _ in upright) / len(upright)
    height = sum(h for _, h in upright) / len(upright)
    return (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)


def _size(tile: LayoutTile) -> tuple[float, float]:
    left, top, right, bottom = tile.box
    return (right - left, bottom - top)
