"""A meld one tile short: the detector missed one of its tiles.

A meld lies apart from the concealed row, so a missed tile in it does not leave a gap in the
row (``vision.layout.gap``) but breaks the meld: a missed middle tile leaves its two ends lying
alone, one tile's width apart (each read as a stray), and a missed end leaves two tiles (read as
a meld of 2). Either way the hand is a meld's three tiles short as read. Where exactly one such
broken meld lies in a hand that short, the tiles found say what it was: two alike make a pon of
them, two of one suit a chi; the missed tile is the one that completes it, and where a missed
middle leaves one tile possible (between 4s and 6s only a 5s), or the table's rules let only
one of the possible tiles win, that tile is taken. A concealed kong that lost one of its backs
leaves a back and two alike faces together (read as no meld): it is the kong.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scoring.tiles import Tile
from vision.layout.gap import ONE_MISSING, box_between, pitches_apart
from vision.layout.geometry import Frame
from vision.layout.melds import claimed_from, type_face_up
from vision.layout.reading import MeldReading
from vision.layout.rows import Run
from vision.layout.tiles import LayoutTile


@dataclass(frozen=True)
class ShortMeld:
    run: Run
    """The meld's two tiles the detector found, in reading order, as one group."""
    middle_missing: bool
    """The missed tile lay between them (else at one end, which the photo does not show)."""

    @property
    def found(self) -> tuple[LayoutTile, ...]:
        return self.run.tiles

    @property
    def candidates(self) -> tuple[str, ...]:
        """The tiles the missed one may be: one for a pon or a missed middle, two for a chi
        missing an end (one at the ends of the suit)."""
        first, second = (t.tile for t in self.found)
        assert first is not None and second is not None
        if first.plain == second.plain:
            return (first.plain.code,)
        low, high = sorted((first.plain, second.plain), key=lambda t: t.rank)
        if self.middle_missing:
            return (Tile(low.suit, low.rank + 1).code,)
        return tuple(
            Tile(low.suit, rank).code for rank in (low.rank - 1, high.rank + 1) if 1 <= rank <= 9
        )

    @property
    def box(self) -> tuple[float, float, float, float] | None:
        """Where the missed tile lay: between the two found (a missed middle), else unknown."""
        return box_between(*self.found) if self.middle_missing else None

    def reading(self, code: str, seat: str | None) -> MeldReading:
        """The meld with ``code`` for the missed tile: in the middle, or at the end a chi's
        order puts it (a pon's, the end after the two found)."""
        tiles = self._with(code)
        codes = tuple(t.code or "" for t in tiles)
        # The sideways tile names the seat the meld was claimed from only where its place in
        # the meld is known: with a missed end, the found tiles' places are not.
        kind = self.kind(code)
        source = claimed_from(tiles, seat, kind) if self.middle_missing else None
        return MeldReading(kind, codes, source)

    def kind(self, code: str) -> str:
        """``pon`` or ``chi``, with ``code`` for the missed tile."""
        kind = type_face_up([t.code or "" for t in self._with(code)])
        assert kind is not None, "a candidate always completes the meld"
        return kind

    def _with(self, code: str) -> tuple[LayoutTile, ...]:
        first, second = self.found
        missed = LayoutTile(-1, code, self.box or first.box)
        if self.middle_missing:
            return (first, missed, second)
        low = min(t.tile.rank for t in self.found if t.tile is not None)
        below = missed.tile is not None and missed.tile.rank < low
        return (missed, first, second) if below else (first, second, missed)


@dataclass(frozen=True)
class ShortKong:
    """A concealed kong (back, face, face, back) one of whose backs the detector missed: a back
    and two alike faces lie together, the back at one end."""

    run: Run
    """The three tiles found, in reading order."""

    @property
    def found(self) -> tuple[LayoutTile, ...]:
        return self.run.tiles

    @property
    def candidates(self) -> tuple[str, ...]:
        """The kong's tile: the faces' (a back hides the plain tile)."""
        face = next(t.tile for t in self.found if not t.face_down)
        assert face is not None
        return (face.plain.code,)

    @property
    def box(self) -> None:
        """Which end the back lay at is known, but not drawn: a kong's ends lie at the table's."""
        return None

    def reading(self, code: str, seat: str | None) -> MeldReading:
        """The kong as a whole one reads (melds.type_meld): its backs the plain tile, its faces
        as read (a red five stays one)."""
        faces = [t.code or code for t in self.found if not t.face_down]
        return MeldReading("concealed_kong", (code, *faces, code))

    def kind(self, code: str) -> str:
        return "concealed_kong"


def find_short_kong(meld_runs: Sequence[Run]) -> ShortKong | None:
    """The one group of three that is a concealed kong with a back not found; None when none or
    more than one could be."""
    found = [ShortKong(run) for run in meld_runs if _kong_but_a_back(run.tiles)]
    return found[0] if len(found) == 1 else None


def _kong_but_a_back(tiles: Sequence[LayoutTile]) -> bool:
    """Back, face, face or face, face, back, the two faces alike mahjong tiles."""
    backs = [t.face_down for t in tiles]
    if backs not in ([True, False, False], [False, False, True]):
        return False
    faces = [t for t in tiles if not t.face_down]
    return all(_meld_tile(t) for t in faces) and faces[0].tile.plain == faces[1].tile.plain  # type: ignore[union-attr]


def find_short_meld(
    lone: Sequence[Run], meld_runs: Sequence[Run], frame: Frame
) -> ShortMeld | None:
    """The one meld a missed tile broke, among the lone tiles and the groups of two that lie
    apart from the concealed row; None when none or more than one could be."""
    found: list[ShortMeld] = []
    ends = sorted(lone, key=lambda run: (run.row, run.along))
    for first, second in itertools.pairwise(ends):
        a, b = first.tiles[0], second.tiles[0]
        apart = pitches_apart(a, b, frame)
        one_missing = first.row == second.row and ONE_MISSING[0] <= apart <= ONE_MISSING[1]
        if one_missing and _make_a_meld(a, b, middle_missing=True):
            along, front = (first.along + second.along) / 2, (first.front + second.front) / 2
            found.append(ShortMeld(Run(first.row, (a, b), along, front), middle_missing=True))
    for run in meld_runs:
        if len(run) == 2 and _make_a_meld(run.tiles[0], run.tiles[-1], middle_missing=False):
            found.append(ShortMeld(run, middle_missing=False))
    return found[0] if len(found) == 1 else None


def choices(short: ShortMeld | ShortKong, wins: Callable[[str], bool] | None) -> tuple[str, ...]:
    """The tiles the missed one may be: every candidate, or given the table's rules (``wins``),
    those with which the hand wins. Only one is taken for it."""
    return tuple(c for c in short.candidates if wins is None or wins(c))


def kong_left(short: ShortMeld, loose: Sequence[LayoutTile]) -> bool:
    """Whether another tile of a broken pon's kind lies loose: then the meld was a kong missing
    a tile (a pon, an added kong's fourth tile beside it or on it), and taking a third tile for
    it would read a kong as a pon."""
    first, second = (t.tile for t in short.found)
    if first is None or second is None or first.plain != second.plain:
        return False
    return any(t.tile is not None and t.tile.plain == first.plain for t in loose)


def _meld_tile(tile: LayoutTile) -> bool:
    """A face-up mahjong tile that melds: no flower, no xiangqi piece (a hand of pieces has no
    melds laid apart)."""
    read = tile.tile
    return read is not None and not read.is_flower and not read.is_piece


def _make_a_meld(first: LayoutTile, second: LayoutTile, middle_missing: bool) -> bool:
    """Whether two tiles are a pon or chi short of one tile: alike, or of one suit with one
    rank between them (a missed middle) or next to each other (a missed end)."""
    if not (_meld_tile(first) and _meld_tile(second)):
        return False
    a, b = first.tile, second.tile
    assert a is not None and b is not None
    if a.plain == b.plain:
        return True
    if not (a.is_suited and b.suit == a.suit):
        return False
    return abs(a.rank - b.rank) == (2 if middle_missing else 1)
