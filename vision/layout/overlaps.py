"""Tiles lying on top of each other: a tile stacked on a pon (an added kong) or a double reading."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from vision.layout.geometry import Frame
from vision.layout.tiles import LayoutTile

OVERLAP = 0.45
"""Centres closer than this many pitches are one tile on another: side by side they are >= 1."""


@dataclass(frozen=True)
class Overlap:
    kept: LayoutTile
    lifted: LayoutTile
    """Set aside: the upper tile of a stack, or the weaker of two readings of one tile."""


def _rank(tile: LayoutTile) -> tuple[bool, float]:
    # A face-up reading says more than a back; then trust the more confident one.
    return (not tile.face_down, tile.confidence)


def find_overlaps(
    tiles: Sequence[LayoutTile], frame: Frame
) -> tuple[list[LayoutTile], list[Overlap]]:
    """Split tiles into the ones lying flat and the ones lifted off an overlapping pair."""
    lifted: dict[int, Overlap] = {}
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            if a.index in lifted or b.index in lifted:
                continue
            if _overlap(a, b, frame):
                keep, lift = (a, b) if _rank(a) >= _rank(b) else (b, a)
                lifted[lift.index] = Overlap(keep, lift)
    flat = [t for t in tiles if t.index not in lifted]
    return flat, list(lifted.values())


def clear_of(
    boxes: Sequence[LayoutTile], tiles: Sequence[LayoutTile], frame: Frame
) -> list[LayoutTile]:
    """The ``boxes`` that lie on none of ``tiles``."""
    return [box for box in boxes if not any(_overlap(box, tile, frame) for tile in tiles)]


def _overlap(a: LayoutTile, b: LayoutTile, frame: Frame) -> bool:
    """Whether two tiles lie on each other: centres closer than ``OVERLAP`` of their size."""
    (ax, ay), (bx, by) = a.centre, b.centre
    return math.hypot(ax - bx, ay - by) < OVERLAP * (frame.scale(a) + frame.scale(b)) / 2
