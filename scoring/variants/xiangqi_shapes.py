"""The winning shapes of 32-tile xiangqi mahjong (憨兒象棋麻將32張, ``shared/rules/003``).

A hand is one 面子 and one 對子 (five tiles; a laid-down meld, a kong of four or five soldiers too,
stands for the 面子), or one of the closed special shapes 將帥領兵, 兵卒襲將, 五路聯軍, 兩對, 鐵支.
This module reads the pieces into every shape they form; it scores nothing.

>>> from scoring.notation import parse_tiles
>>> [r.describe() for r in read_hand(parse_tiles("士象車帥將"), (), parse_tiles("將")[0])]
['士象車 將帥*']
>>> [r.describe() for r in read_hand(parse_tiles("將帥士士象"), (), parse_tiles("象")[0])]
['兩對 將帥 士士 象*']
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.hand import Meld, MeldType
from scoring.notation import format_tiles, sort_tiles
from scoring.tiles import PIECES, Suit, Tile

GENERAL, ADVISOR, ELEPHANT, CHARIOT, HORSE, CANNON, SOLDIER = range(1, 8)
BLACK_GENERAL, RED_GENERAL = Tile(Suit.BLACK, GENERAL), Tile(Suit.RED, GENERAL)
BLACK_SOLDIER, RED_SOLDIER = Tile(Suit.BLACK, SOLDIER), Tile(Suit.RED, SOLDIER)

# The 32-piece set: one general, two of each officer, five soldiers per colour.
COPIES = {GENERAL: 1, ADVISOR: 2, ELEPHANT: 2, CHARIOT: 2, HORSE: 2, CANNON: 2, SOLDIER: 5}

# 面子 of one colour, by rank: 將士象, 士象車, 車馬包, 卒卒卒 (not 象車馬, not 馬包卒).
SETS: tuple[tuple[int, int, int], ...] = (
    (GENERAL, ADVISOR, ELEPHANT),
    (ADVISOR, ELEPHANT, CHARIOT),
    (CHARIOT, HORSE, CANNON),
    (SOLDIER, SOLDIER, SOLDIER),
)
# 吃 takes only 車馬包/俥傌炮: the other 面子 (將士象, 士象車) are made in the hand, never claimed.
CHI_RANKS = (CHARIOT, HORSE, CANNON)
OFFICERS = (ADVISOR, ELEPHANT, CHARIOT, HORSE, CANNON)
GENERALS = frozenset({BLACK_GENERAL, RED_GENERAL})

# Built once: tiles are checked on construction, and read_hand runs for every piece a wait test
# tries. Each 面子 of each colour as (counts, sorted tiles), and the five officers per colour.
_BODIES: tuple[tuple[Counter[Tile], tuple[Tile, ...]], ...] = tuple(
    (Counter(body), body)
    for suit in (Suit.BLACK, Suit.RED)
    for body in (tuple(Tile(suit, r) for r in ranks) for ranks in SETS)
)
_FIVE_ARMIES: tuple[Counter[Tile], ...] = tuple(
    Counter(Tile(suit, r) for r in OFFICERS) for suit in (Suit.BLACK, Suit.RED)
)
_SOLDIER_OF = {Suit.BLACK: BLACK_SOLDIER, Suit.RED: RED_SOLDIER}
_ORDER = {tile: i for i, tile in enumerate(PIECES)}


def copies_in_set(tile: Tile) -> int:
    """How many of this piece the 32-piece set holds (將/帥 1, 卒/兵 5, the others 2)."""
    return COPIES[tile.number]


def is_chi(tiles: Sequence[Tile]) -> bool:
    """Whether these pieces may be laid down as a 吃: one colour's 車馬包 (俥傌炮). The scorer
    refuses any other chi, and the photo layout types a group as chi by this too."""
    return (
        all(t.is_piece for t in tiles)
        and len({t.suit for t in tiles}) == 1
        and sorted(t.number for t in tiles) == list(CHI_RANKS)
    )


def is_soldier(tile: Tile) -> bool:
    return tile.number == SOLDIER


def is_general(tile: Tile) -> bool:
    return tile.number == GENERAL


def other_colour(suit: Suit) -> Suit:
    return Suit.RED if suit is Suit.BLACK else Suit.BLACK


def prey(tile: Tile) -> Tile | None:
    """The 獵物 of a piece: 士→象→車→馬→包→士 per colour; 將帥 and soldiers have none."""
    return _PREY.get(tile)


_PREY = {
    Tile(suit, rank): Tile(suit, ADVISOR if rank == CANNON else rank + 1)
    for suit in (Suit.BLACK, Suit.RED)
    for rank in OFFICERS
}


def is_pair(a: Tile, b: Tile) -> bool:
    """A 對子: two identical pieces, or 將 with 帥."""
    return a == b or (a != b and a in GENERALS and b in GENERALS)


class Shape(enum.Enum):
    """The shape a reading has; the value is the rule text's name."""

    STANDARD = "面子+對子"
    GENERAL_LEADS = "將帥領兵"
    SOLDIERS_RAID = "兵卒襲將"
    FIVE_ARMIES = "五路聯軍"
    TWO_PAIRS = "兩對"
    IRON = "鐵支"

    @property
    def is_special(self) -> bool:
        return self is not Shape.STANDARD


@dataclass(frozen=True)
class Reading:
    """One way to read the pieces. A standard reading's groups are (面子, 對子); ``meld`` is the
    laid-down 面子 if there is one. ``pure`` says, for 兩對 and 鐵支, that the four tiles held before
    the win were already the two pairs."""

    shape: Shape
    groups: tuple[tuple[Tile, ...], ...]
    win_group: int | None
    meld: Meld | None = None
    pure: bool = False

    @property
    def body(self) -> tuple[Tile, ...]:
        """The 面子 of a standard reading (a kong's four or five soldiers included)."""
        return self.groups[0]

    @property
    def pair(self) -> tuple[Tile, ...]:
        return self.groups[1]

    def describe(self) -> str:
        """The reading as players write it: the shape when special, ``[...]`` a claimed meld (a
        concealed kong is no claimed meld: written bare, as every rule set writes it), ``*`` the
        group the winning tile completed."""
        parts = [] if self.shape is Shape.STANDARD else [self.shape.value]
        claimed = self.meld is not None and self.meld.type is not MeldType.CONCEALED_KONG
        for i, group in enumerate(self.groups):
            text = format_tiles(group)
            if i == 0 and claimed:
                text = f"[{text}]"
            parts.append(f"{text}*" if i == self.win_group else text)
        return " ".join(parts)


def _win_group(groups: Sequence[tuple[Tile, ...]], win: Tile | None, first: int = 0) -> int | None:
    # The winning tile goes to the last group holding it: the 對子 when both could hold it, which is
    # how a player reads 兵兵兵兵 + 兵 (waiting on the pair). No item depends on the choice.
    found = [i for i in range(first, len(groups)) if win in groups[i]]
    return found[-1] if found else None


def read_hand(concealed: Sequence[Tile], melds: Sequence[Meld], win: Tile | None) -> list[Reading]:
    """Every reading of the pieces; empty when they form no winning shape.

    ``concealed`` includes the winning tile. A meld is the 面子 (check_meld has made sure it is one),
    so a hand with a meld reads only as 面子 + 對子: the special shapes are closed.
    """
    tiles = sort_tiles(concealed)
    if melds:
        if len(melds) != 1 or len(tiles) != 2 or not is_pair(*tiles):
            return []
        meld = melds[0]
        groups = (tuple(sort_tiles(meld.tiles)), tuple(tiles))
        return [Reading(Shape.STANDARD, groups, _win_group(groups, win, first=1), meld)]
    if len(tiles) != 5:
        return []
    counts = Counter(tiles)
    return _standard(counts, win) + _special(tiles, counts, win)


def _standard(counts: Counter[Tile], win: Tile | None) -> list[Reading]:
    out: list[Reading] = []
    for body_counts, body in _BODIES:
        if body[0] not in counts or any(counts[t] < n for t, n in body_counts.items()):
            continue
        rest = sort_tiles((counts - body_counts).elements())
        if is_pair(*rest):
            groups = (body, tuple(rest))
            out.append(Reading(Shape.STANDARD, groups, _win_group(groups, win)))
    return out


def _special(tiles: list[Tile], counts: Counter[Tile], win: Tile | None) -> list[Reading]:
    out: list[Reading] = []
    for leader in (BLACK_GENERAL, RED_GENERAL):
        if counts[leader] != 1:
            continue
        for soldier, shape in (
            (_SOLDIER_OF[leader.suit], Shape.GENERAL_LEADS),
            (_SOLDIER_OF[other_colour(leader.suit)], Shape.SOLDIERS_RAID),
        ):
            if counts[soldier] == 4:
                groups = ((leader,), (soldier,) * 4)
                out.append(Reading(shape, groups, _win_group(groups, win)))
    for armies in _FIVE_ARMIES if len(counts) == len(OFFICERS) else ():
        if counts == armies:
            out.append(Reading(Shape.FIVE_ARMIES, (tuple(tiles),), 0 if win else None))
    out += _two_pairs_and_iron(tiles, counts, win)
    return out


def split_two_pairs(tiles: Iterable[Tile]) -> list[tuple[tuple[Tile, Tile], tuple[Tile, Tile]]]:
    """Every way to split four tiles into two 對子 (將帥 counts as one)."""
    four = sort_tiles(tiles)
    if len(four) != 4:
        return []
    first = four[0]
    out = []
    for i in range(1, 4):
        rest = [t for j, t in enumerate(four[1:], start=1) if j != i]
        if is_pair(first, four[i]) and is_pair(*rest):
            out.append(((first, four[i]), (rest[0], rest[1])))
    return out


def is_two_pairs(tiles: Iterable[Tile]) -> bool:
    return bool(split_two_pairs(tiles))


def _two_pairs_and_iron(
    tiles: list[Tile], counts: Counter[Tile], win: Tile | None
) -> list[Reading]:
    """Two 對子 of officers (or 將帥; never soldiers) and one more piece: 兩對 or 鐵支."""
    pairs: list[tuple[Tile, Tile]] = [
        (t, t) for t, n in counts.items() if n >= 2 and t.number in OFFICERS
    ]
    if counts[BLACK_GENERAL] and counts[RED_GENERAL]:
        pairs.append((BLACK_GENERAL, RED_GENERAL))
    if len(pairs) < 2:
        return []
    before = list(tiles)
    if win in before:
        before.remove(win)
    pure = is_two_pairs(before)
    pairs.sort(key=lambda p: _ORDER[p[0]])
    out: list[Reading] = []
    for i, p1 in enumerate(pairs):
        for p2 in pairs[i + 1 :]:
            rest = counts - Counter(p1 + p2)
            if sum(rest.values()) != 1:
                continue
            odd = next(iter(rest))
            shape = _pairs_shape(p1, p2, odd)
            if shape is not None:
                groups = (p1, p2, (odd,))
                out.append(Reading(shape, groups, _win_group(groups, win), pure=pure))
    return out


def _pairs_shape(p1: tuple[Tile, Tile], p2: tuple[Tile, Tile], odd: Tile) -> Shape | None:
    """兩對: pairs of different ranks, the odd piece the prey of one of them. 鐵支: a black and a
    red pair of one rank, the odd piece of the next rank (either colour)."""
    r1, r2 = p1[0].number, p2[0].number
    if r1 != r2:
        if odd in (prey(p1[0]), prey(p2[0])):
            return Shape.TWO_PAIRS
        return None
    hunter = prey(p1[0])
    if r1 in OFFICERS and p1[0].suit != p2[0].suit and hunter and odd.number == hunter.number:
        return Shape.IRON
    return None


def waits(concealed: Sequence[Tile], melds: Sequence[Meld]) -> list[Tile]:
    """The pieces that would complete a four-tile hand (聽), whatever the 台: a piece counts only
    while the set still has a copy the hand does not hold."""
    held = Counter(list(concealed) + [t for m in melds for t in m.tiles])
    out = []
    for tile in PIECES:
        if held[tile] < copies_in_set(tile) and read_hand([*concealed, tile], melds, tile):
            out.append(tile)
    return out
