"""A flower read that is the hand's missing tile: the tile the classifier took for a flower.

Players set their flowers apart from the hand. A tile the classifier reads as a flower is set
apart with them, and its place in the hand (in the row, a meld, the winning tile's) is left
empty: the hand is a tile short. Where one doubtful flower read as its runner-up tile makes the
photo read as a winning hand with nothing missing, that tile is what lies there: on the real
photos 3 of the 13 bird 1s read as flowers (1f, 4f), each doubtful and each with 1s as its first
runner-up. The layout itself says whether the tile has a place in the hand: read as a tile, a
flower lying apart is a stray, or leaves the gap a missed tile left elsewhere, and the hand stays
short. A flower read surely stays a flower.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from vision.layout.complete import runner_ups
from vision.layout.tiles import LayoutTile

R = TypeVar("R")


def flower_read_as_tile(
    flowers: Sequence[LayoutTile], reads_as: Callable[[LayoutTile, str], R | None]
) -> tuple[LayoutTile, str, R] | None:
    """The one doubtful flower whose first runner-up tile ``reads_as(flower, code)`` accepts
    (the photo's reading with it read so, or None), that tile and that reading; None when no
    flower is or more than one would be (then the photo does not say which)."""
    found = []
    for flower in flowers:
        if not flower.low_confidence:
            continue
        for code in runner_ups(flower):
            if _is_flower(flower, code):
                continue
            reading = reads_as(flower, code)
            if reading is not None:
                found.append((flower, code, reading))
                break
    return found[0] if len(found) == 1 else None


def _is_flower(tile: LayoutTile, code: str) -> bool:
    return LayoutTile(tile.index, code, tile.box).is_flower
