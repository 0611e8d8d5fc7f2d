"""A flower read that is the hand's missing tile: the tile the classifier took for a flower.

Players set their flowers apart from the hand. A tile the classifier reads as a flower is set
apart with them, and its place in the hand (in the row, a meld, the winning tile's) is left
empty: the hand is a tile short. Where one doubtful flower, read as one of its runner-up
tiles, makes the photo read as a whole winning hand as it lies, that tile is what lies there
(the one that keeps a sorted row in order, else the likeliest): on the real photos 3 of the 13 bird 1s read as flowers (1f, 4f), each doubtful and each
with 1s as its first runner-up. The layout itself says whether the tile has a place in the hand:
read as a tile, a flower lying apart is a stray, and the hand stays short. Where the photo shows
the place of the tile it lacks (a gap in the row, between a meld's two tiles), only a flower
lying there counts. A flower read surely stays a flower, and so do two that could each be the
tile (the photo does not say which).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from scoring.tiles import tile_from_code
from vision.layout import problems
from vision.layout.complete import runner_ups
from vision.layout.gap import in_order
from vision.layout.reading import Reading
from vision.layout.tiles import LayoutTile


def flower_as_missing_tile(
    tiles: Sequence[LayoutTile],
    reading: Reading,
    read_layout: Callable[[list[LayoutTile]], Reading],
    whole: Callable[[Reading], bool],
    wins: Callable[[Mapping[str, Any]], bool],
) -> Reading | None:
    """The photo's reading with the one doubtful flower of ``reading`` (a hand a tile short)
    read as the tile it lacks, and said so; None where no flower is, or more than one would be.
    ``read_layout`` reads the tiles again as they lie, ``whole`` says a reading lacks no tile,
    ``wins`` says a reading is a winning hand by the table's rules."""
    place = reading.unseen.box if reading.unseen is not None else None
    set_apart = {i for g in reading.groups if g.role == "flowers" for i in g.tiles}
    found = []
    for flower in tiles:
        if flower.index not in set_apart or not flower.low_confidence:
            continue
        if place is not None and not _centred_in(flower, place):
            continue
        readings = []
        for code in runner_ups(flower):
            if tile_from_code(code).is_flower:
                continue
            # Read as that tile and nothing else: with its other runner-ups the layout would
            # read it again as one of them to make a meld, and the tile said would not be
            # the tile scored.
            as_tile = replace(flower, code=code, alternatives=())
            again = read_layout([as_tile if t is flower else t for t in tiles])
            if whole(again) and wins(again.hand_json()):
                readings.append((code, again))
        if readings:
            # Of the tiles that would win, one that keeps a sorted row in order (the place it
            # lies says it, as for a tile not found: ``gap.fitting``), else the likeliest.
            code, again = next(((c, r) for c, r in readings if in_order(r.hand[:-1])), readings[0])
            found.append((flower, code, again))
    if len(found) != 1:
        return None
    flower, code, again = found[0]
    said = [
        p for p in again.problems if not (p.kind == "low_confidence" and flower.index in p.tiles)
    ]
    return replace(again, problems=(*said, problems.substituted(flower, code, "winning hand")))


def _centred_in(tile: LayoutTile, box: tuple[float, float, float, float]) -> bool:
    x, y = tile.centre
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]
