"""Facts of a 明將麻雀 hand and of each way to read it, computed once so table checks only read fields.

Implements the hand shapes of ``shared/rules/002`` (明將麻雀): four sets and a pair, 七對子 (four
identical tiles count as two pairs), 十三么九. Tiles are engine indices 0-33 here, groups plain
tuples ``(kind, index, concealed)``: scoring reads thousands of hands a second, and small objects
per group cost more than every check together.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from functools import cache
from itertools import product
from typing import Any

from scoring.hand import Hand, MeldType, WinContext
from scoring.shapes import tile_index
from scoring.tiles import MAHJONG_TILES, Tile, index34

SEQUENCE, TRIPLET, KONG, PAIR = 0, 1, 2, 3
_CHI, _PON, _CONCEALED_KONG = MeldType.CHI, MeldType.PON, MeldType.CONCEALED_KONG
# A group: (kind, index of its lowest tile, concealed). Triplets and kongs share "triplet-like".
Group = tuple[int, int, bool]

# Tiles parsed from text are the shared objects of MAHJONG_TILES: looking them up by identity
# avoids Tile.__hash__, a Python call per tile that was a tenth of the scoring time.
_INDEX_BY_ID = {id(t): i for i, t in enumerate(MAHJONG_TILES)}
EAST, WHITE, GREEN, RED = 27, 31, 32, 33
WINDS = frozenset(range(27, 31))
DRAGONS = frozenset(range(31, 34))
_HONOURS = WINDS | DRAGONS
ENDS = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))
"""么九字牌: terminals and honours, the thirteen kinds of 十三么九."""
TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
SETS = 4


# What a reading holds, as bits, so the table checks only the items that could apply to it.
HAS_2_SEQUENCES = 1
HAS_3_SEQUENCES = 2
HAS_4_SEQUENCES = 4
HAS_TRIPLET = 8
HAS_3_TRIPLETS = 16
HAS_4_TRIPLETS = 32
HAS_HONOUR_TRIPLET = 64
HAS_FOUR_ALIKE = 128
HAS_END_PAIR = 256
IS_SEVEN_PAIRS = 512
IS_THIRTEEN_ORPHANS = 1024


class Shape(enum.Enum):
    STANDARD = "standard"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"


def group_has_end(group: Group) -> bool:
    """The group holds a terminal or an honour (混全帶么)."""
    kind, first, _ = group
    if kind == SEQUENCE:
        rank = first % 9
        return rank in (0, 6)
    return first in ENDS


def group_has_terminal(group: Group) -> bool:
    """The group holds a terminal number tile (純全帶么)."""
    kind, first, _ = group
    if first >= 27:
        return False
    return first % 9 in (0, 6) if kind == SEQUENCE else first in TERMINALS


def tile_indices(tiles: tuple[Tile, ...]) -> list[int]:
    """The engine indices of the tiles (a red five would count as a five)."""
    get = _INDEX_BY_ID.get
    indices = [get(id(t), -1) for t in tiles]
    if -1 in indices:
        return [index34(t) for t in tiles]
    return indices


class HandFacts:
    """What every reading of the hand shares: tile counts, suits, melds, the rule options."""

    __slots__ = (
        "all_ends",
        "all_honours",
        "all_simples",
        "all_terminals",
        "concealed",
        "concealed_counts",
        "concealed_kongs",
        "counts",
        "ctx",
        "dragons",
        "fours",
        "hand",
        "honours",
        "kongs",
        "meld_groups",
        "rules",
        "self_draw",
        "suits",
        "win_index",
        "winds",
    )

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        ctx = hand.context
        self.ctx: WinContext = ctx
        self.rules: Any = hand.rules
        self.self_draw = ctx.self_draw
        # The hand worked these out while it was checked (plain tiles, shared instances).
        concealed_counts = hand.concealed_counts
        self.concealed_counts = concealed_counts
        meld_groups: list[Group] = []
        kongs = concealed_kongs = 0
        concealed = True
        if hand.melds:
            counts = list(concealed_counts)
            for meld in hand.melds:
                indices = meld.plain_indices
                if indices is None:
                    indices = tuple(sorted(tile_indices(meld.tiles)))
                for i in indices:
                    counts[i] += 1
                first = indices[0]
                kind = meld.type
                if kind is _CHI:
                    meld_groups.append((SEQUENCE, first, False))
                    concealed = False
                elif kind is _PON:
                    meld_groups.append((TRIPLET, first, False))
                    concealed = False
                else:
                    kongs += 1
                    hidden = kind is _CONCEALED_KONG
                    concealed_kongs += hidden
                    concealed = concealed and hidden
                    meld_groups.append((KONG, first, hidden))
            held: Sequence[int] = counts
        else:
            held = concealed_counts
        self.counts = held
        self.meld_groups = tuple(meld_groups)
        self.kongs = kongs
        self.concealed_kongs = concealed_kongs
        self.concealed = concealed
        self.suits = tuple(s for s in range(3) if any(held[9 * s : 9 * s + 9]))
        winds = any(held[27:31])
        dragons = any(held[31:34])
        self.winds = winds
        self.dragons = dragons
        self.honours = winds or dragons
        ends = held[0] + held[8] + held[9] + held[17] + held[18] + held[26]
        honours = sum(held[27:34])
        total = sum(held)
        self.all_terminals = ends == total
        self.all_honours = honours == total
        self.all_ends = ends + honours == total
        self.all_simples = ends + honours == 0
        self.fours = tuple(i for i, c in enumerate(held) if c == 4) if 4 in held else ()
        win = hand.win_tile
        self.win_index = None if win is None else tile_index(win)


class MingjiangView:
    """One reading of the hand: its shape, its groups and the counts the table asks."""

    __slots__ = (
        "concealed_triplets",
        "facts",
        "holds",
        "pair",
        "sequences",
        "sets",
        "shape",
        "triplets",
        "win_group",
    )

    def __init__(
        self,
        facts: HandFacts,
        shape: Shape,
        sets: tuple[Group, ...] = (),
        pair: int | None = None,
        win_group: int | None = None,
    ) -> None:
        self.facts = facts
        self.shape = shape
        self.sets = sets
        self.pair = pair
        self.win_group = win_group
        """Index into ``sets`` of the set the winning tile completed; None for the pair."""
        sequences = []
        triplets = []
        hidden = 0
        # On a discard win the set the discard completed counts as claimed: 四暗刻's 雙碰 rule.
        claimed = -1 if facts.self_draw or win_group is None else win_group
        for n, (kind, first, concealed) in enumerate(sets):
            if kind == SEQUENCE:
                sequences.append(first)
            else:
                triplets.append(first)
                if concealed and n != claimed:
                    hidden += 1
        sequences.sort()
        self.sequences = tuple(sequences)
        self.triplets = tuple(triplets)
        self.concealed_triplets = hidden
        holds = 0
        if shape is not Shape.STANDARD:
            holds = IS_SEVEN_PAIRS if shape is Shape.SEVEN_PAIRS else IS_THIRTEEN_ORPHANS
        n = len(sequences)
        if n >= 2:
            holds |= HAS_2_SEQUENCES | (HAS_3_SEQUENCES if n >= 3 else 0)
            holds |= HAS_4_SEQUENCES if n == 4 else 0
        n = len(triplets)
        if n:
            holds |= HAS_TRIPLET | (HAS_3_TRIPLETS if n >= 3 else 0)
            holds |= HAS_4_TRIPLETS if n == 4 else 0
            holds |= HAS_HONOUR_TRIPLET if max(triplets) >= 27 else 0
        if facts.fours:
            holds |= HAS_FOUR_ALIKE
        if pair is not None and pair in ENDS:
            holds |= HAS_END_PAIR
        self.holds = holds
        """What the reading holds (the ``HAS_``/``IS_`` bits)."""

    @property
    def ctx(self) -> WinContext:
        return self.facts.ctx


def is_thirteen_orphans(counts: list[int]) -> bool:
    return sum(counts) == 14 and all(counts[i] for i in ENDS) and sum(counts[i] for i in ENDS) == 14


def is_seven_pairs(counts: list[int]) -> bool:
    """Seven pairs; four identical tiles count as two pairs (the rule text says so)."""
    return sum(counts) == 14 and all(c in (0, 2, 4) for c in counts)


Split = tuple[int, tuple[Group, ...]]
"""One suit cut into sets and at most one pair: (the pair's index or -1, the sets)."""

_SLICES = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


@cache
def _suit_splits(counts: tuple[int, ...], base: int, honours: bool) -> tuple[Split, ...]:
    """Every way to cut one suit's counts into concealed sets and at most one pair; cached, so a
    suit shape is worked out once per process."""
    first = next((i for i, c in enumerate(counts) if c), -1)
    if first < 0:
        return ((-1, ()),)
    found: set[Split] = set()
    cuts: list[tuple[Group | None, tuple[int, ...]]] = []
    if counts[first] >= 3:
        cuts.append(((TRIPLET, base + first, True), (first, first, first)))
    if counts[first] >= 2:
        cuts.append((None, (first, first)))
    if not honours and first <= 6 and counts[first + 1] and counts[first + 2]:
        cuts.append(((SEQUENCE, base + first, True), (first, first + 1, first + 2)))
    for group, used in cuts:
        rest = list(counts)
        for i in used:
            rest[i] -= 1
        for pair, sets in _suit_splits(tuple(rest), base, honours):
            if group is None:
                if pair < 0:
                    found.add((base + first, sets))
            else:
                found.add((pair, tuple(sorted((group, *sets)))))
    return tuple(sorted(found))


def views(facts: HandFacts) -> list[MingjiangView]:
    """Every reading of the hand: each split into sets, once per set the winning tile could end."""
    found: list[MingjiangView] = []
    counts = facts.concealed_counts
    melds = facts.meld_groups
    if not melds:
        if is_thirteen_orphans(list(counts)):
            found.append(MingjiangView(facts, Shape.THIRTEEN_ORPHANS))
        if is_seven_pairs(list(counts)):
            found.append(MingjiangView(facts, Shape.SEVEN_PAIRS))
    per_suit = []
    for start, stop, honours in _SLICES:
        options = _suit_splits(tuple(counts[start:stop]), start, honours)
        if not options:
            return found
        per_suit.append(options)
    win = facts.win_index
    for combo in product(*per_suit):
        pairs = [pair for pair, _ in combo if pair >= 0]
        if len(pairs) != 1:
            continue
        pair = pairs[0]
        concealed_sets = tuple(g for _, sets in combo for g in sets)
        sets = concealed_sets + melds
        # The winning tile completed either the pair or one concealed set holding it; each
        # distinct choice is its own reading, since it decides which triplets stay concealed.
        choices: list[int | None] = [None] if win is None or pair == win else []
        seen: set[Group] = set()
        for n, group in enumerate(concealed_sets if win is not None else ()):
            kind, first, _ = group
            holds_win = win is not None and (
                first <= win < first + 3 if kind == SEQUENCE else first == win
            )
            if holds_win and group not in seen:
                seen.add(group)
                choices.append(n)
        for choice in choices or [None]:
            found.append(MingjiangView(facts, Shape.STANDARD, sets, pair, choice))
    return found
