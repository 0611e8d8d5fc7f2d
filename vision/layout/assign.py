"""Which group is what: the concealed row, the winning tile, the melds, and which way the hand reads.

The layout players are asked for (docs/layout.md) says: concealed tiles in one row, the winning
tile a little apart at its right end, melds further right or in a row in front. The photo may be
upside down, so "right" is worked out from the layout, strongest sign first:

1. a lone tile at exactly one end of the concealed row is the winning tile: that end is right;
2. more groups on one side of the concealed row: melds lie on the right;
3. another row of groups: it lies in front (toward the player), which fixes right by handedness;
4. a row of 8 tiles or more whose tiles but its last (the winning tile, apart or not) are sorted
   read one way only (each suit together, numbers rising, as most players lay a hand): that way
   is left to right;
5. otherwise the photo is taken to be upright (right is rightward in the image).

The order comes after the melds: a player who sorts high to low would be read backwards, and
a short row may be in order by chance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from vision.layout import problems
from vision.layout.gap import ONE_MISSING, in_order, one_suit, pitches_apart
from vision.layout.geometry import Frame
from vision.layout.melds import type_face_up, type_meld
from vision.layout.problems import Problem
from vision.layout.rows import Run
from vision.layout.tiles import LayoutTile


@dataclass(frozen=True)
class Assignment:
    frame: Frame
    concealed: tuple[LayoutTile, ...]
    win: LayoutTile | None
    meld_runs: tuple[Run, ...]
    lone: tuple[Run, ...]
    """Groups of one tile away from the concealed row: the fourth tile of an added kong, an end
    of a meld whose middle tile was missed, or strays."""
    hand_row: int
    """The row the concealed tiles lie in."""
    problems: tuple[Problem, ...] = field(default=())

    @property
    def loose(self) -> tuple[LayoutTile, ...]:
        return tuple(run.tiles[0] for run in self.lone)


def is_meld_like(run: Run) -> bool:
    return len(run) in (3, 4) and type_meld(run.tiles).type is not None


def is_single(run: Run) -> bool:
    return len(run) == 1 and not run.tiles[0].face_down


def pick_concealed(runs: Sequence[Run], melds_too: bool = False) -> Run:
    """The longest group that is not itself a meld (a hand of melds still has a concealed pair);
    ``melds_too``: the longest group, one that reads as a meld too (four alike soldiers are a
    xiangqi hand's whole concealed row)."""
    readable = [r for r in runs if any(not t.face_down for t in r.tiles)] or list(runs)
    return max(
        readable,
        key=lambda r: (melds_too or not is_meld_like(r), len(r), -r.front, -r.along),
    )


def _flip_needed(
    before: Sequence[Run],
    segment: Sequence[Run],
    after: Sequence[Run],
    others: Sequence[Run],
    front: float,
) -> bool:
    single_before = bool(before) and is_single(before[-1])
    single_after = bool(after) and is_single(after[0])
    if single_before != single_after:
        return single_before
    if len(before) != len(after):
        return len(before) > len(after)
    # One end of the row turned, the other not: the winning tile, taken off a discard and laid
    # turned at the row's right end (IMG_3085, 3088, 3089). Turned photos and loose tiles
    # behind the row read the row backwards without this.
    tiles = [t for run in segment for t in run.tiles]
    first, last = _turned_end(tiles), _turned_end(tiles[::-1])
    if first != last:
        return first
    # Melds in front: groups that read as melds, not a pile of loose tiles behind the row.
    melds = [r for r in others if is_meld_like(r)]
    if melds:
        return sum(r.front for r in melds) / len(melds) < front
    ends = [before[-1]] if single_before else []
    ends_after = [after[0]] if single_after else []
    return bool(_sorted_way([t for run in [*ends, *segment, *ends_after] for t in run.tiles]))


SORTED_AT_LEAST = 8
"""The fewest tiles a row needs for its order to say which way it reads: a helper's probe found
12% of unsorted rows of 5 tiles in order one way by chance, 0.6% of 8, none of 11 or more."""


def _sorted_way(tiles: Sequence[LayoutTile]) -> bool | None:
    """Whether the row reads the other way (True) or this way (False) by its order: most players
    sort their hand (each suit together, numbers rising, ``gap.in_order``) and lay the winning
    tile last, so a row whose tiles but the last are sorted one way only reads that way. None
    when both ways or neither are sorted (a row of one tile repeated, a row not sorted) or the
    row is too short to tell."""
    if len(tiles) < SORTED_AT_LEAST:
        return None
    codes = [t.code or "" for t in tiles]
    this_way, other_way = in_order(codes[:-1]), in_order(codes[::-1][:-1])
    return None if this_way == other_way else other_way


def _extendable(run: Run) -> bool:
    # A piece of the concealed row cut off by a gap: players often leave one between suits. A
    # lone tile is not, as it may be the winning tile, nor is a group that makes a meld.
    return len(run) >= 2 and not is_meld_like(run)


def _turned(tile: LayoutTile) -> bool:
    return tile.rotated and not tile.is_piece


def _turned_end(row: Sequence[LayoutTile]) -> bool:
    """Whether the row's first tile lies turned and the next one not (a whole row turned, or
    a bent end of several, says nothing of its way), and is no claimed meld's: with the two
    beside it it makes no chi or pon (a pon pushed against the row turns its outer tile)."""
    if len(row) < 2 or not _turned(row[0]) or _turned(row[1]):
        return False
    return len(row) < 3 or type_meld(row[:3]).type is None


def _lone_sideways(row: Sequence[LayoutTile]) -> list[LayoutTile]:
    """The tiles of a row that lie sideways between upright ones: a claimed meld's turned tile.
    A run of them side by side is no meld's (one turned tile each): the end of a row bent past
    45 degrees, whose tiles the detector calls sideways in the image."""
    turned = [_turned(t) for t in row]
    return [
        tile
        for i, tile in enumerate(row)
        if turned[i] and not any(turned[j] for j in (i - 1, i + 1) if 0 <= j < len(row))
    ]


def _reverse(run: Run) -> Run:
    return replace(run, tiles=tuple(reversed(run.tiles)), along=-run.along, front=-run.front)


def _cut_off(row: Run, run: Run, frame: Frame) -> bool:
    """Whether ``run`` is what a missed tile's gap cut off the end of the concealed ``row``: at
    most one missed tile past it, no tile sideways or face down (a claimed meld, a kong), and
    a lone tile, or a set whose first tile is of the suit of the row's last (a set of another
    suit parted from the row is the row's already where the winning tile lies past it:
    ``_suit_gaps``)."""
    last, first = row.tiles[-1], run.tiles[0]
    if pitches_apart(last, first, frame) > ONE_MISSING[1]:
        return False
    if any(t.rotated or t.face_down for t in run.tiles):
        return False
    return is_single(run) or (is_meld_like(run) and one_suit(last, first))


SUIT_GAP = 2.0
"""The widest step, in pitches, between two groups of the concealed row that a player parted
between suits: a gap of up to a tile (touching tiles are 1 apart, a half-tile gap 1.5). Wider,
a set apart is laid as a meld."""


def _suit_gaps(
    before: list[Run], segment: list[Run], after: list[Run], frame: Frame
) -> tuple[list[Run], list[Run], list[Run]]:
    """The concealed row with the sets a player parted from it between suits, once the way the
    hand reads is known: those before it (melds lie past the winning tile or in front, never
    before the row) and those between it and a lone tile past it (the winning tile), where no
    tile of them lies sideways or face down (a claimed meld shows its claimed tile, a concealed
    kong its backs), none is four alike (a kong laid flat), and each lies within a suit's gap of
    the next. Read as melds, a concealed hand sorted with a half-tile gap between its suits lost
    門清 (平和 and 門前清自摸 in riichi) without a word. Pieces have no way up to tell a claimed
    set by: a xiangqi hand is left."""
    if any(t.is_piece for run in segment for t in run.tiles):
        return before, segment, after
    while before and _parted(before[-1], segment[0], frame):
        before, segment = before[:-1], [before[-1], *segment]
    lone = next((i for i, run in enumerate(after) if is_single(run)), 0)
    if lone + 1 < len(after) and is_single(after[lone + 1]):
        lone = 0  # lone tiles in a row: a claimed meld's ends (its middle missed), no winning tile
    between = after[:lone]
    steps = zip([segment[-1], *between[:-1]], between, strict=True)
    if between and all(_parted(run, nxt, frame) for run, nxt in steps):
        segment, after = [*segment, *between], after[lone:]
    return before, segment, after


def _parted(first: Run, then: Run, frame: Frame) -> bool:
    """Whether two neighbouring groups of a row are one row parted between suits."""
    if any(t.rotated or t.face_down for run in (first, then) for t in run.tiles):
        return False
    if any(type_face_up([t.code or "" for t in run.tiles]) == "kong" for run in (first, then)):
        return False  # a kong laid flat, never a row's
    return len(first) >= 2 and pitches_apart(first.tiles[-1], then.tiles[0], frame) <= SUIT_GAP


def _mend_gaps(
    before: list[Run], segment: list[Run], after: list[Run], frame: Frame
) -> tuple[list[Run], list[Run], list[Run]]:
    """The concealed row with what a missed tile's gap cut off its ends put back.

    After the row: a lone tile or a set, when one lone tile lies past it (the winning tile; the
    layout has melds beyond it), but not where more lone tiles follow (the ends of a claimed
    meld whose middle tile was missed). Before it: a lone tile (the other end then holds a lone
    tile too, so which is the winning tile rests on the weaker signs) only where it keeps the
    row in order: a sorted row read the wrong way round is not in order, and the winning tile
    would be taken into it."""
    while (
        len(after) >= 2
        and is_single(after[1])
        and (len(after) == 2 or not is_single(after[2]))
        and _cut_off(segment[-1], after[0], frame)
    ):
        segment, after = [*segment, after[0]], after[1:]
    if before and is_single(before[-1]):
        lone = before[-1].tiles[0]
        codes = [lone.code or "", *(t.code or "" for run in segment for t in run.tiles)]
        near = pitches_apart(lone, segment[0].tiles[0], frame) <= ONE_MISSING[1]
        if near and in_order(codes):
            before, segment = before[:-1], [before[-1], *segment]
    return before, segment, after


def assign(
    rows: Sequence[Sequence[Run]],
    frame: Frame,
    mend_gaps: bool = False,
    melds_too: bool = False,
) -> Assignment:
    """Roles for every group of every row (rows hold runs in order along ``frame``).

    ``mend_gaps`` (for a hand found short of tiles): what the gap of a tile the detector missed
    cut off the concealed row's end is the row's (``_mend_gaps``), not the winning tile or a
    meld. ``melds_too``: the concealed row may be a group that reads as a meld
    (``pick_concealed``)."""
    found: list[Problem] = []
    runs = [r for row in rows for r in row]
    concealed = pick_concealed(runs, melds_too)
    row_index = next(i for i, row in enumerate(rows) if concealed in row)
    row = list(rows[row_index])
    lo = hi = row.index(concealed)
    while lo > 0 and _extendable(row[lo - 1]):
        lo -= 1
    while hi + 1 < len(row) and _extendable(row[hi + 1]):
        hi += 1
    others = [r for i, rw in enumerate(rows) if i != row_index for r in rw]
    if _flip_needed(row[:lo], row[lo : hi + 1], row[hi + 1 :], others, concealed.front):
        frame = frame.flipped()
        row = [_reverse(r) for r in reversed(row)]
        lo, hi = len(row) - 1 - hi, len(row) - 1 - lo
        others = [_reverse(r) for r in others]
    before, after = row[:lo], row[hi + 1 :]
    segment = row[lo : hi + 1]
    before, segment, after = _suit_gaps(before, segment, after, frame)
    if mend_gaps:
        before, segment, after = _mend_gaps(before, segment, after, frame)
    concealed = max(segment, key=len)
    hand = [t for run in segment for t in run.tiles]
    for position, run in enumerate(segment):
        if run is not concealed:
            ahead = position < segment.index(concealed)
            found.append(problems.split_row(run.tiles, before_the_rest=ahead))
    # The row's last tile turned, alone, is the winning tile laid so, not a claimed meld's.
    turned_win = not (after and is_single(after[0])) and _turned_end(hand[::-1])
    sideways = _lone_sideways(hand[:-1] if turned_win else hand)
    if sideways:
        found.append(problems.sideways_in_row(sideways))
    backs = [t for t in hand if t.face_down]
    if backs:
        found.append(problems.face_down(backs))
        hand = [t for t in hand if not t.face_down]

    win = None
    if after and is_single(after[0]):
        win = after[0].tiles[0]
        after = after[1:]
    elif hand:
        win = hand[-1]
        if not turned_win:
            found.append(problems.win_not_apart(win))
    else:
        found.append(problems.no_win_tile())
    if win is not None and win not in hand:
        hand.append(win)

    runs_apart = [*before, *after, *others]
    lone = tuple(run for run in runs_apart if len(run) == 1)
    meld_runs = in_reading_order([run for run in runs_apart if len(run) > 1], concealed.row)
    return Assignment(frame, tuple(hand), win, meld_runs, lone, concealed.row, tuple(found))


def in_reading_order(runs: Sequence[Run], hand_row: int) -> tuple[Run, ...]:
    """Melds in reading order: the hand's own row first, then the rows in front, each along
    its row."""
    fronts: dict[int, list[float]] = {}
    for run in runs:
        fronts.setdefault(run.row, []).append(run.front)
    row_front = {k: sum(v) / len(v) for k, v in fronts.items()}
    row_front[hand_row] = -math.inf
    return tuple(sorted(runs, key=lambda r: (row_front[r.row], r.along)))
