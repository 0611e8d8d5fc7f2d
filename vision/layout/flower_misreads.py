"""A flower read where the hand's row lacks a tile: the tile the classifier took for a flower.

Players set their flowers apart from the hand. A tile the classifier reads as a flower leaves its
place in the row empty, so the hand is a tile short, and the "flower" lies in line with the row,
in that place. Where it was read doubtfully and its runner-up is a tile that makes the hand win,
that tile is what lies there: on the real photos 3 of the 13 bird 1s read as flowers (1f, 4f),
each doubtful and each with 1s as its first runner-up. A flower read surely, or lying away from
the row, stays a flower; so does one whose runner-ups make no winning hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from vision.layout.complete import runner_ups
from vision.layout.geometry import Frame
from vision.layout.tiles import LayoutTile

ACROSS_AT_MOST = 0.5
"""How far off the row's line (in pitches near the tile) a tile may lie and still be in it:
rows of a hand laid by hand wander by a fraction of a tile, a second row lies a tile away."""

PAST_THE_ENDS = 1.6
"""How far past the row's first or last tile (in pitches) a tile may lie and hold the next place
along it (touching tiles are 1 apart; ``gap.ONE_MISSING`` starts at 1.6)."""


def flower_read_as_tile(
    flowers: Sequence[LayoutTile],
    row: Sequence[LayoutTile],
    frame: Frame,
    wins_with: Callable[[LayoutTile, str], bool],
    gap: int | None = None,
) -> tuple[LayoutTile, str] | None:
    """The one doubtful flower in line with ``row`` and the first of its runner-up tiles that
    makes the hand win in its place (``wins_with(flower, code)``: the hand a tile short, that
    tile added, the other flowers still flowers); None when no flower does or more than one
    would (then the photo does not say which). Where the row shows a gap of one tile before
    its tile ``gap`` (``gap.missing_place``), only a flower lying in it counts: the missing
    tile lay there, not where the flower lies."""
    found = []
    for flower in flowers:
        if not flower.low_confidence or not in_the_row(flower, row, frame):
            continue
        if gap is not None and not fills_the_gap(flower, row[gap:], row, frame):
            continue
        codes = [code for code in runner_ups(flower) if not _is_flower(flower, code)]
        code = next((code for code in codes if wins_with(flower, code)), None)
        if code is not None:
            found.append((flower, code))
    return found[0] if len(found) == 1 else None


def in_the_row(tile: LayoutTile, row: Sequence[LayoutTile], frame: Frame) -> bool:
    """Whether ``tile`` lies on the row's line, between its ends or in the next place past one."""
    if not row:
        return False
    along, front = frame.project(tile)
    places = [frame.project(t) for t in row]
    line = sorted(f for _, f in places)[len(places) // 2]
    pitch = frame.scale(tile)
    first = min(a for a, _ in places)
    last = max(a for a, _ in places)
    return (
        abs(front - line) <= ACROSS_AT_MOST * pitch
        and first - PAST_THE_ENDS * pitch <= along <= last + PAST_THE_ENDS * pitch
    )


def fills_the_gap(
    tile: LayoutTile, cut_off: Sequence[LayoutTile], row: Sequence[LayoutTile], frame: Frame
) -> bool:
    """Whether ``tile`` lies in the gap between ``cut_off`` (tiles a gap cut off the row, read
    as the row's all the same) and the rest of ``row``: a gap it fills is no gap."""
    along = frame.project(tile)[0]
    apart = [frame.project(t)[0] for t in cut_off]
    rest = [frame.project(t)[0] for t in row if t not in cut_off]
    if not apart or not rest:
        return False
    if max(apart) < min(rest):
        return max(apart) < along < min(rest)
    return max(rest) < along < min(apart)


def _is_flower(tile: LayoutTile, code: str) -> bool:
    return LayoutTile(tile.index, code, tile.box).is_flower
