"""Where in a sorted row a tile the detector missed lay, and which tiles fit there.

Most players sort the hand they lay down: each suit together, its numbers rising. A missed tile
leaves a gap of about one tile in the row, and between a 4m and a 6m only a 4m, 5m or 6m fits.
So a hand a tile short that several tiles would make a winning hand (``complete.tiles_that_win``)
may still say which one it was. Nothing here is guessed for a row that is not in order as read.
"""

from __future__ import annotations

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
    """Where the tile missing at ``place`` in ``row`` lay (``missing_place``): the box midway
    between its two neighbours' boxes, in image pixels."""
    before, after = row[place - 1].box, row[place].box
    return (
        (before[0] + after[0]) / 2,
        (before[1] + after[1]) / 2,
        (before[2] + after[2]) / 2,
        (before[3] + after[3]) / 2,
    )


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
