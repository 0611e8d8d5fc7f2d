"""Problems a person at the table can fix, each a short sentence plus the tiles it is about."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.layout.tiles import LayoutTile


@dataclass(frozen=True)
class Problem:
    kind: str
    """A stable name for tests and the app: no_tiles, overlap, low_confidence, stray, face_down,
    win_not_apart, no_win_tile, split_row, bad_meld, short_meld, count, unseen, placed,
    would_win_as."""
    message: str
    tiles: tuple[int, ...] = ()
    """Indices into the detections, for the display to point at."""

    def __str__(self) -> str:
        return self.message


LACKING = frozenset({"unseen", "short_meld"})
"""Kinds that say a hand lacks a tile: guessed (one not found taken for the tile that wins, a
meld a missed tile broke made whole) or said (a meld of two)."""
CHECKED = frozenset({"low_confidence", "placed"})
"""Kinds that ask a person to check a tile read: doubtful, or read where no box was found."""


def _labels(tiles: Sequence[LayoutTile]) -> str:
    return " ".join(t.label for t in tiles)


def no_tiles() -> Problem:
    return Problem("no_tiles", "no tiles found in the photo")


def overlap(kept: LayoutTile, lifted: LayoutTile) -> Problem:
    return Problem(
        "overlap",
        f"two tiles overlap: {kept.label} and {lifted.label}; {lifted.label} ignored",
        (kept.index, lifted.index),
    )


def low_confidence(tile: LayoutTile) -> Problem:
    options = [tile.label] + [a for a in tile.alternatives[:1] if a != tile.label]
    return Problem("low_confidence", f"low confidence: {' or '.join(options)}?", (tile.index,))


def substituted(tile: LayoutTile, used: str, kind: str) -> Problem:
    return Problem(
        "low_confidence",
        f"low confidence: {tile.label} read as {used} to make a {kind}",
        (tile.index,),
    )


def read_in_place(tile: LayoutTile) -> Problem:
    """A tile the detector missed, read where the layout said one lies (``missed_places``): no
    box found it, so a person checks it, as a tile the layout takes for one not found."""
    return Problem(
        "placed",
        f"tile {tile.label} not found by the detector, read in its place in the hand: check it",
        (tile.index,),
    )


def stray(tile: LayoutTile) -> Problem:
    return Problem(
        "stray", f"tile {tile.label} lies apart from the hand: not counted", (tile.index,)
    )


def face_down(tiles: Sequence[LayoutTile]) -> Problem:
    return Problem(
        "face_down",
        f"{len(tiles)} face-down tile(s) outside a concealed kong: turn them face up",
        tuple(t.index for t in tiles),
    )


def win_not_apart(tile: LayoutTile) -> Problem:
    return Problem(
        "win_not_apart",
        f"winning tile not set apart: last tile used ({tile.label})",
        (tile.index,),
    )


def no_win_tile() -> Problem:
    return Problem("no_win_tile", "no winning tile found")


def split_row(tiles: Sequence[LayoutTile], before_the_rest: bool) -> Problem:
    """``tiles`` lie apart from the rest of the concealed row, before it or after it: the gap
    is named by the tile beside it on their side."""
    where = f"after {tiles[-1].label}" if before_the_rest else f"before {tiles[0].label}"
    return Problem(
        "split_row",
        f"gap inside the concealed row {where}: read as one row",
        tuple(t.index for t in tiles),
    )


def sideways_in_row(tiles: Sequence[LayoutTile]) -> Problem:
    """A tile turned sideways read as one of the concealed row: a claimed meld laid against
    the row or the winning tile, taken into the row with it (1 台 of 門清 and the meld's own
    items at stake)."""
    return Problem(
        "sideways_in_row",
        f"{_labels(tiles)} lies sideways in the concealed row: a claimed meld laid against it?"
        " Set the melds apart",
        tuple(t.index for t in tiles),
    )


def not_played(tile: LayoutTile, why: str) -> Problem:
    """A tile the rule set has not (``sizes.not_played`` says ``why``), left out."""
    return Problem("not_played", f"tile {tile.label} {why}: not counted", (tile.index,))


def short_meld(
    tiles: Sequence[LayoutTile],
    kind: str | None = None,
    codes: Sequence[str] = (),
    winning: bool = False,
) -> Problem:
    """A meld group too short to count; where a missed tile broke it and several tiles could be
    that tile (``codes``, a ``kind`` with each; ``winning``: the hand wins with each), which."""
    said = (
        f"meld of {len(tiles)} tile{'s' if len(tiles) > 1 else ''} ({_labels(tiles)}): not counted"
    )
    if codes:
        said += f"; a tile not found? With {_either(codes)} it is a {kind}"
        said += ", and the hand wins either way" if winning else ""
    return Problem("short_meld", said, tuple(t.index for t in tiles))


def bad_meld(tiles: Sequence[LayoutTile]) -> Problem:
    said = f"group {_labels(tiles)} is no chi, pon or kong"
    if len(tiles) == 4 and all(t.face_down for t in tiles):
        said = "four tiles face down: a concealed kong shows which it is; turn one of them up"
    return Problem("bad_meld", said, tuple(t.index for t in tiles))


NAMED_AT_MOST = 4
"""The most tiles a hand a tile short is said to wait on, and the most reads of one tile that
would make a hand win said to check: beyond, the list says nothing."""


def worth_naming(would_win: Sequence[str]) -> tuple[str, ...]:
    """The tiles that would make a hand a tile short win, when they are few enough to name (one
    alone is taken as the unseen tile, not named)."""
    return tuple(would_win) if 1 < len(would_win) <= NAMED_AT_MOST else ()


def count(
    expected: int,
    found: int,
    has_kong: bool,
    would_win: Sequence[str] = (),
    without: Sequence[LayoutTile] = (),
) -> Problem:
    """A hand of the wrong size; one a tile short says which tiles would make it win (what
    the camera may have missed), and one a tile over the tiles without which it would win (a
    box on something that holds none), when they are few."""
    note = " (a kong counts as 3)" if has_kong else ""
    if worth_naming(would_win):
        note += f": {' or '.join(would_win)} would make a winning hand"
    if without:
        note += f": without {_either([t.label for t in without])} it is a winning hand"
    return Problem(
        "count", f"{expected} tiles expected, {found} found{note}", tuple(t.index for t in without)
    )


def unseen(code: str, expected: int, in_the_gap: bool = False) -> Problem:
    where = " in the gap it left" if in_the_gap else ""
    return Problem(
        "unseen",
        f"{expected} tiles expected, {expected - 1} found: the one not found taken as {code}, "
        f"the only tile that makes a winning hand{where}",
    )


def unseen_in_meld(found: Sequence[LayoutTile], code: str, kind: str, expected: int) -> Problem:
    """A meld a missed tile broke, made whole again with ``code`` (vision/layout/short_melds.py)."""
    return Problem(
        "unseen",
        f"{expected} tiles expected, {expected - 1} found: the one not found taken as {code}, "
        f"to make a {kind} of {_labels(found)}",
        tuple(t.index for t in found),
    )


def unseen_back(found: Sequence[LayoutTile], kong: str) -> Problem:
    """A concealed kong one of whose backs was missed, read whole as ``kong`` (its tiles in
    compact notation; vision/layout/short_melds.py)."""
    return Problem(
        "unseen",
        f"a back not found: {_labels(found)} taken as the concealed kong {kong}",
        tuple(t.index for t in found),
    )


def would_win_as(reads: Sequence[tuple[LayoutTile, str]], win: LayoutTile | None) -> Problem:
    """A hand of its size that does not win, and the few reads of one tile that would make it
    a winning hand (``complete.reads_that_win``): the tiles to look at first. The winning tile
    is said to be it: read otherwise, a copy of it in the row makes another hand."""
    by_tile: dict[LayoutTile, list[str]] = {}
    for tile, code in reads:
        by_tile.setdefault(tile, []).append(code)
    options = ", or ".join(
        f"{'the winning ' if tile is win else ''}{tile.label} read as {_either(codes)}"
        for tile, codes in by_tile.items()
    )
    return Problem(
        "would_win_as",
        f"not a winning hand as read; it wins with {options}",
        tuple(tile.index for tile in by_tile),
    )


def _either(codes: Sequence[str]) -> str:
    """``1p``, ``1p or 4p``, ``1p, 4p or 7p``."""
    return " or ".join(codes) if len(codes) < 3 else f"{', '.join(codes[:-1])} or {codes[-1]}"
