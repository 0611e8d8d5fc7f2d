"""Rows and groups: chain each tile to its neighbours along the layout's axis, split at gaps.

Chaining neighbour to neighbour (rather than fitting one straight line) lets a row bend: each
link only has to run roughly along the axis, and a bent row is a chain of such links.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.layout.geometry import Frame
from vision.layout.tiles import LayoutTile

REACH = 4.5
"""Longest link along a row, in pitches: a meld may lie three tile widths past the hand."""
SIDE_SLACK = 0.5
SIDE_SLOPE = 0.1
"""A link may stray this far sideways (pitches, plus a share of its length): enough for a bend of
about 30 degrees between neighbours, too little to reach a row in front (>= 1.33 pitches away)."""
GAP = 1.25
"""Tiles further apart than this share of their touching distance are in different groups.
Touching tiles measure ~1.0, the winning tile pushed half a tile apart ~1.5."""


@dataclass(frozen=True)
class Run:
    """Tiles that touch, in reading order: one group of a row."""

    row: int
    tiles: tuple[LayoutTile, ...]
    along: float
    """Mean position along the layout axis."""
    front: float
    """Mean position toward the player."""

    def __len__(self) -> int:
        return len(self.tiles)


def chain_rows(tiles: Sequence[LayoutTile], frame: Frame) -> list[list[LayoutTile]]:
    """Tiles linked into rows, each in order along the frame's axis; lone tiles are rows of one.

    First each tile links to the nearest tile ahead along the layout's axis when it is also that
    tile's nearest one behind; then each row's
    ends reach further along their own direction (the line through the last tiles), so a row
    that bends is followed to its winning tile and melds.
    """
    parent = list(range(len(tiles)))
    position = {id(t): i for i, t in enumerate(tiles)}
    # Every tile's centre and pitch, once: each link looked for is then one pass over arrays,
    # not a Python call per tile (a table of 300 boxes took a second, most of it here).
    xs = np.array([t.centre[0] for t in tiles], dtype=float)
    ys = np.array([t.centre[1] for t in tiles], dtype=float)
    pitches = np.array([frame.scale(t) for t in tiles], dtype=float)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def nearest_ahead(a: LayoutTile, axis: tuple[float, float], skip: int | None) -> int | None:
        # Only the nearest tile ahead: linking every tile in reach would bridge rows through gaps.
        # A candidate lies ahead of a along ``axis``, within REACH pitches, and strays sideways
        # by SIDE_SLACK pitches plus SIDE_SLOPE of its distance along.
        i = position[id(a)]
        dx, dy = xs - xs[i], ys - ys[i]
        scale = (pitches[i] + pitches) / 2
        along = dx * axis[0] + dy * axis[1]
        side = np.abs(-dx * axis[1] + dy * axis[0])
        ok = (along > 0) & (along <= REACH * scale)
        ok &= side <= (SIDE_SLACK + SIDE_SLOPE * along / scale) * scale
        if skip is not None:
            ok &= np.array([root(j) != skip for j in range(len(tiles))], dtype=bool)
        if not ok.any():
            return None
        # The first of the nearest, as a scan in order would keep it.
        return int(np.argmin(np.where(ok, along, math.inf)))

    back = (-frame.along[0], -frame.along[1])
    for i, a in enumerate(tiles):
        best = nearest_ahead(a, frame.along, None)
        # Mutual: a tile lying off the row (beside a kong) reaches far along a wide cone, but
        # the tile it reaches has a nearer one behind it in its own row.
        if best is not None and nearest_ahead(tiles[best], back, None) == i:
            parent[root(i)] = root(best)
    for _ in range(len(tiles)):
        merged = False
        for row in _collect(tiles, root, frame):
            if len(row) < 2:
                continue
            for end, inner in (
                (row[-1], row[max(0, len(row) - 3)]),
                (row[0], row[min(2, len(row) - 1)]),
            ):
                axis = _unit(end.centre, inner.centre, away=True)
                best = nearest_ahead(end, axis, root(position[id(end)]))
                if best is not None:
                    parent[root(best)] = root(position[id(end)])
                    merged = True
                    break
            if merged:
                break
        if not merged:
            break
    return _collect(tiles, root, frame)


def _unit(end: tuple[float, float], inner: tuple[float, float], away: bool) -> tuple[float, float]:
    dx, dy = end[0] - inner[0], end[1] - inner[1]
    length = math.hypot(dx, dy) or 1.0
    return (dx / length, dy / length) if away else (-dx / length, -dy / length)


def _collect(tiles: Sequence[LayoutTile], root, frame: Frame) -> list[list[LayoutTile]]:  # type: ignore[no-untyped-def]
    rows: dict[int, list[LayoutTile]] = {}
    for i, tile in enumerate(tiles):
        rows.setdefault(root(i), []).append(tile)
    ordered = [sorted(r, key=lambda t: frame.project(t)[0]) for r in rows.values()]
    return sorted(ordered, key=lambda r: frame.project(r[0])[1])


def split_groups(row: Sequence[LayoutTile], frame: Frame, row_id: int) -> list[Run]:
    """Cut a row wherever neighbours stand further apart than touching tiles would."""
    runs: list[list[LayoutTile]] = [[row[0]]] if row else []
    for a, b in itertools.pairwise(row):
        (ax, ay), (bx, by) = a.centre, b.centre
        touching = (frame.extent(a) + frame.extent(b)) / 2
        if math.hypot(bx - ax, by - ay) > GAP * touching:
            runs.append([b])
        else:
            runs[-1].append(b)
    return [_run(row_id, run, frame) for run in runs]


def without(runs: Sequence[Run], aside: Sequence[LayoutTile], frame: Frame) -> list[Run]:
    """The runs without the tiles ``aside``, runs left empty dropped. A box a person said holds
    no tile keeps its place while a row is cut into runs, so the gap it leaves cuts nothing."""
    kept = [[t for t in run.tiles if t not in aside] for run in runs]
    return [_run(run.row, tiles, frame) for run, tiles in zip(runs, kept, strict=True) if tiles]


def _run(row_id: int, tiles: Sequence[LayoutTile], frame: Frame) -> Run:
    coords = [frame.project(t) for t in tiles]
    return Run(
        row_id,
        tuple(tiles),
        sum(c[0] for c in coords) / len(coords),
        sum(c[1] for c in coords) / len(coords),
    )
