"""Tiles the detector missed, read where the layout says they lie.

A hand short of tiles most often lies whole on the table: the detector scored a tile under its
floor (a tile in shadow, a blank 白), the tile is not gone. The layout says where it lies: a
step of one tile between two neighbours in the concealed row or any row of tiles it chains (a
concealed kong's faces; of any suits: the pixels, not the sort order, say whether the place is
empty), one to two steps past either end of the concealed row (the
next tile, or a winning tile set apart), and, in a meld of two found tiles, the place between
them or past either end, looked at upright and lying sideways (a claimed tile). The classifier
reads each place as it reads any tile (``TilePipeline.read_places``); a face read there surely
is taken where it leaves the hand lacking fewer tiles and says nothing new is wrong, and said,
for a person to check. On the 30 real photos a place between two found row neighbours, where a
tile lies, is read right 50 times in 60 (two blank 白 the classifier took for this set's yellow
backs among them, told by colour) and wrongly never; places past a row's end, where none
lies, are read as a face once in 435 (a round black button as 1p). On the example photos, with
each tile's box dropped in turn, 35 of the 38 hands read whole against 22 (32 with the tile
read in its place) (``benchmarks/missed_places.py``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from vision.boxes import areas, intersection_matrix
from vision.layout import problems
from vision.layout.gap import ONE_MISSING, box_between, pitches_apart
from vision.layout.geometry import Frame
from vision.layout.reading import Box, Reading
from vision.layout.short_melds import ShortKong, ShortMeld
from vision.layout.tiles import LayoutTile, from_detections

if TYPE_CHECKING:
    from vision.detection import Detection

Look = Callable[[Sequence[Box]], Sequence["Detection"]]
"""Reads the photo at each place given (boxes in the detections' pixels): each mahjong tile
read surely there (a xiangqi piece is never read: a hand of pieces is not looked at), none for
a place read as no tile."""

STEPS_PAST = (1.0, 1.25, 1.5, 1.75, 2.0)
"""How far past a row's end a missed tile is looked for, in steps between the end's tiles: the
next tile, or a winning tile set apart by half a tile or a tile."""
SPARE_TRIES = 2
"""Reads tried beyond the tiles the hand lacks, the surest first: each tried reads the layout
again, and a table of 129 tiles with every place read as a tile took 0.7 s trying them all."""
COVERED = 0.25
"""A place whose area a found box covers this much holds that tile, not a missed one."""


def places_to_look(
    row: Sequence[LayoutTile],
    frame: Frame,
    meld: ShortMeld | ShortKong | None = None,
    rows: Sequence[Sequence[LayoutTile]] = (),
) -> tuple[Box, ...]:
    """Where a missed tile may lie: in the concealed ``row`` (reading order, the winning tile
    in it) and the ``rows`` the layout chained (melds laid in line, a concealed kong), each
    step between neighbours that holds one tile; past either end of the concealed row
    (``_past_the_end``); in a ``meld`` of two found tiles, between them or a step past either
    (a kong's lost back, which no place read as a face can be, is left to ``short_melds``)."""
    places = [
        box_between(before, after)
        for line in (row, *rows)
        for before, after in pairwise(line)
        if ONE_MISSING[0] <= abs(pitches_apart(before, after, frame)) <= ONE_MISSING[1]
    ]
    for run in (row, row[::-1]):
        places += _past_the_end(run, frame)
    if isinstance(meld, ShortMeld):
        # A meld's claimed tile lies sideways, at either end or in the middle: each place is
        # looked at both ways (cut as an upright tile, a sideways 6s read 9p at 0.96).
        first, second = meld.found
        if meld.middle_missing:
            places += [box_between(first, second), _sideways_between(first, second, frame)]
        else:
            for neighbour, end in ((second, first), (first, second)):
                places += [box_past(neighbour, end), _sideways_past(neighbour, end, frame)]
    return tuple(dict.fromkeys(places))  # a gap of the concealed row is its chained row's too


def _past_the_end(run: Sequence[LayoutTile], frame: Frame) -> list[Box]:
    """Places past the last tile of ``run``, stepping as its last two tiles step: one to two
    steps where they touch; where the last lies apart (the winning tile set apart), the one
    step past the tile before it, where the hand's last tile lay, the other tile past it
    being the winning tile's (a step over the gap to the winning tile missed it)."""
    if len(run) < 2:
        return []
    before, end = run[-2], run[-1]
    if abs(pitches_apart(before, end, frame)) < ONE_MISSING[0]:
        return [box_past(before, end, steps) for steps in STEPS_PAST]
    return [box_past(run[-3], before)] if len(run) >= 3 else []


def read_in_places(
    tiles: Sequence[LayoutTile],
    reading: Reading,
    look: Look,
    read_again: Callable[[list[LayoutTile]], Reading],
    lacking: Callable[[Reading], int],
) -> Reading | None:
    """The photo's reading with the tiles ``look`` reads in ``reading.places`` that the hand
    lacks, each said; None where no place holds one. A tile read in a place is taken only
    where it leaves the hand fewer tiles ``lacking`` (a tile read past the row's end of some
    other hand's row would be a stray), the surest first."""
    free = [
        box
        for box, covered in zip(reading.places, _covered(reading.places, tiles), strict=True)
        if not covered
    ]
    if not free:
        return None
    said = list(look(free))
    seen = sorted(zip(from_detections(said), said, strict=True), key=lambda s: -s[0].confidence)
    taken: list[tuple[LayoutTile, Detection]] = []
    best, short = reading, lacking(reading)
    for tile, given in seen[: short + SPARE_TRIES]:
        tile = replace(tile, index=len(tiles) + len(taken), placed=True)
        again = read_again([*tiles, *(t for t, _ in taken), tile])
        if lacking(again) < short and not _worse(again, best):
            taken.append((tile, given))
            best, short = again, lacking(again)
            if not short:
                break  # whole: a surer place's read is all the hand lacked
    if not taken:
        return None
    return replace(best, looked=tuple(given for _, given in taken))


MENDED = problems.LACKING | problems.CHECKED | {"count"}
"""Problems a tile read in its place may leave or take away: any other it adds (a group that
is no meld, a stray) says the read is not the tile that lies there (a claimed tile lying
sideways at a meld's end, cut as an upright one, read 9p at 0.96 where 6s lay)."""


def _worse(again: Reading, before: Reading) -> bool:
    """Whether ``again`` says of the layout something ``before`` did not, but what reading a
    missed tile mends, or takes another group for the hand: a tile made up in the gap between
    two melds laid in line joined them into the longest row, the concealed row moved there and
    the hand's own tiles were read as melds (helper 70)."""
    kinds = Counter(p.kind for p in before.problems if p.kind not in MENDED)
    if Counter(p.kind for p in again.problems if p.kind not in MENDED) - kinds:
        return True
    return not _held(before) <= _held(again)


def _held(reading: Reading) -> set[int]:
    """The tiles (indices) a reading holds in the hand's concealed part, winning tile in."""
    return {i for g in reading.groups if g.role in ("concealed", "win") for i in g.tiles}


def box_past(neighbour: LayoutTile, end: LayoutTile, steps: float = 1.0) -> Box:
    """The box of a tile lying ``steps`` steps past ``end``, away from ``neighbour``."""
    (nx, ny), (ex, ey) = neighbour.centre, end.centre
    dx, dy = steps * (ex - nx), steps * (ey - ny)
    x1, y1, x2, y2 = end.box
    return (x1 + dx, y1 + dy, x2 + dx, y2 + dy)


def _sideways_past(neighbour: LayoutTile, end: LayoutTile, frame: Frame) -> Box:
    """The box of a tile lying sideways against ``end``, away from ``neighbour``."""
    (nx, ny), (ex, ey) = neighbour.centre, end.centre
    ux, uy = _unit(ex - nx, ey - ny)
    width, height = _upright_size(end)
    reach = _half(ux, uy, width, height) + _half(ux, uy, height, width)
    return _sideways_at(ex + ux * reach, ey + uy * reach, ux, uy, width, height, frame)


def _sideways_between(first: LayoutTile, second: LayoutTile, frame: Frame) -> Box:
    """The box of a tile lying sideways between ``first`` and ``second``: centred where an
    upright one would be (``box_between``), midway between their facing edges."""
    (x1, y1), (x2, y2) = first.centre, second.centre
    ux, uy = _unit(x2 - x1, y2 - y1)
    left, top, right, bottom = box_between(first, second)
    return _sideways_at(
        (left + right) / 2, (top + bottom) / 2, ux, uy, *_upright_size(first), frame
    )


def _sideways_at(
    cx: float, cy: float, ux: float, uy: float, width: float, height: float, frame: Frame
) -> Box:
    """A sideways tile's box (an upright one's ``width`` and ``height`` swapped) centred at
    (cx, cy) along the row (ux, uy), pushed to the front edge: a claimed tile lies flush with
    its meld's side nearest the player, so its middle is nearer than theirs."""
    shift = _half(uy, ux, width, height) - _half(uy, ux, height, width)
    fx, fy = frame.front
    cx, cy = cx + fx * shift, cy + fy * shift
    return (cx - height / 2, cy - width / 2, cx + height / 2, cy + width / 2)


def _half(ux: float, uy: float, width: float, height: float) -> float:
    """Half the length of a ``width`` x ``height`` box along (ux, uy)."""
    return (abs(ux) * width + abs(uy) * height) / 2


def _unit(dx: float, dy: float) -> tuple[float, float]:
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _upright_size(tile: LayoutTile) -> tuple[float, float]:
    """The box size ``tile`` would have upright (a sideways one's turned back)."""
    x1, y1, x2, y2 = tile.box
    width, height = x2 - x1, y2 - y1
    return (height, width) if tile.rotated else (width, height)


def _covered(places: Sequence[Box], tiles: Sequence[LayoutTile]) -> list[bool]:
    """Whether a found box covers each place by ``COVERED`` of its area."""
    if not tiles:
        return [False] * len(places)
    boxes = np.array(places, float).reshape(-1, 4)
    inter = intersection_matrix(boxes, np.array([t.box for t in tiles], float))
    return list(inter.max(axis=1) >= COVERED * areas(boxes))
