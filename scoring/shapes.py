"""Every way to split concealed mahjong tiles into sets and one pair, and the tiles a hand waits on.

Works on counts of the 34 tile kinds. Each suit is split on its own and the results are cached by
the suit's counts, so scoring many hands reuses work: a hand is complete when one split per suit
adds up to the sets needed plus exactly one pair.

>>> from scoring.notation import parse_tiles
>>> sorted(t.code for t in waiting_tiles(counts34(parse_tiles("1112345678999m")), 4))
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from functools import cache
from itertools import product

from scoring.tiles import ALL_TILES, MAHJONG_TILES, Tile, index34, tile34


class GroupKind(enum.Enum):
    SEQUENCE = "sequence"
    TRIPLET = "triplet"
    PAIR = "pair"
    KONG = "kong"

    # Members are singletons compared by identity; Enum's own hash is Python code, and raw groups
    # are hashed in every cached lookup.
    __hash__ = object.__hash__


SEQUENCE, TRIPLET, PAIR, KONG = (
    GroupKind.SEQUENCE,
    GroupKind.TRIPLET,
    GroupKind.PAIR,
    GroupKind.KONG,
)
"""The kinds as plain names: reading an Enum member off its class is slow in Python 3.11."""

# A group inside the engine: (kind, index34 of its lowest tile).
RawGroup = tuple[GroupKind, int]
# One split of the concealed tiles: the pair (or None) and the sets, sorted.
Split = tuple[RawGroup | None, tuple[RawGroup, ...]]


# The shared tile instances (``tiles.ALL_TILES``, which the parser hands out) by identity: their
# index is a dictionary lookup with no hashing of the tile (a Tile's hash is Python code).
_INDEX_BY_ID: dict[int, int] = {id(t): index34(t) for t in ALL_TILES if t.is_suited or t.is_honor}
_PLAIN_IDS = frozenset(id(t) for t in MAHJONG_TILES)
"""The 34 plain kinds (no red five): the tiles a plain mahjong hand holds."""
_PLAIN_INDEX_BY_ID = {id(t): i for i, t in enumerate(MAHJONG_TILES)}


def tile_index(tile: Tile) -> int:
    """``index34``, looked up by identity for the shared tile instances."""
    index = _INDEX_BY_ID.get(id(tile))
    return index34(tile) if index is None else index


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """Counts of the 34 kinds (red fives count as fives)."""
    counts = [0] * 34
    tiles = tuple(tiles)
    try:
        for index in map(_INDEX_BY_ID.__getitem__, map(id, tiles)):
            counts[index] += 1
    except KeyError:  # a tile that is not one of the shared instances: index it the long way
        counts = [0] * 34
        for tile in tiles:
            counts[tile_index(tile)] += 1
    return counts


def plain_counts(tiles: Iterable[Tile]) -> list[int] | None:
    """``counts34`` when every tile is one of the 34 plain kinds (shared instances), else None."""
    counts = [0] * 34
    try:
        for index in map(_PLAIN_INDEX_BY_ID.__getitem__, map(id, tiles)):
            counts[index] += 1
    except KeyError:
        return None
    return counts


def plain_indices(tiles: Iterable[Tile]) -> tuple[int, ...] | None:
    """The tiles' 34-kind indices, sorted, when every tile is one of the 34 plain kinds (shared
    instances); else None."""
    try:
        return tuple(sorted(map(_PLAIN_INDEX_BY_ID.__getitem__, map(id, tiles))))
    except KeyError:
        return None


def all_plain(tiles: Iterable[Tile]) -> bool:
    """Whether every tile is one of the 34 plain kinds (a quick check; False may still be fine)."""
    return _PLAIN_IDS.issuperset(map(id, tiles))


@cache
def _suit_splits(counts: tuple[int, ...], honors: bool) -> tuple[tuple[RawGroup, ...], ...]:
    """All ways to cut one suit's counts into sets and at most one pair (relative indices)."""
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return ((),)
    results: set[tuple[RawGroup, ...]] = set()
    c = list(counts)
    options: list[tuple[RawGroup, list[int]]] = []
    if c[first] >= 3:
        options.append(((TRIPLET, first), [first] * 3))
    if c[first] >= 2:
        options.append(((PAIR, first), [first] * 2))
    if not honors and first <= 6 and c[first + 1] and c[first + 2]:
        options.append(((SEQUENCE, first), [first, first + 1, first + 2]))
    for group, used in options:
        rest = c[:]
        for i in used:
            rest[i] -= 1
        for tail in _suit_splits(tuple(rest), honors):
            if group[0] is PAIR and any(g[0] is PAIR for g in tail):
                continue
            results.add(tuple(sorted((group, *tail), key=_group_key)))
    return tuple(sorted(results, key=lambda s: [_group_key(g) for g in s]))


def _group_key(group: RawGroup) -> tuple[int, str]:
    return group[1], group[0].value


@cache
def _suit_signature(counts: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int]]:
    """The (sets, pairs) totals one suit can be cut into; empty when it cannot be cut at all."""
    return frozenset(
        (sum(g[0] is not PAIR for g in split), sum(g[0] is PAIR for g in split))
        for split in _suit_splits(counts, honors)
    )


SUIT_SLICES = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
"""(start, stop, honours) of each suit in the 34-kind counts."""
_SUIT_SLICES = SUIT_SLICES


def is_complete(counts: list[int], sets_needed: int) -> bool:
    """Whether the counts cut into ``sets_needed`` sets and exactly one pair."""
    if sum(counts) != sets_needed * 3 + 2:
        return False
    signatures = [_suit_signature(tuple(counts[a:b]), h) for a, b, h in _SUIT_SLICES]
    return all(signatures) and (sets_needed, 1) in _combine(tuple(signatures))


def splits(counts: list[int], sets_needed: int) -> list[Split]:
    """Every split of the counts into ``sets_needed`` sets and one pair."""
    per_suit: list[tuple[tuple[RawGroup, ...], ...]] = []
    for start, stop, honors in _SUIT_SLICES:
        suit_splits = _placed_suit_splits(tuple(counts[start:stop]), start, honors)
        if not suit_splits:
            return []
        per_suit.append(suit_splits)
    found: list[Split] = []
    for combo in product(*per_suit):
        groups = [g for part in combo for g in part]
        pairs = [g for g in groups if g[0] is PAIR]
        if len(pairs) == 1 and len(groups) == sets_needed + 1:
            found.append((pairs[0], tuple(g for g in groups if g[0] is not PAIR)))
    return found


@cache
def _placed_suit_splits(
    counts: tuple[int, ...], start: int, honors: bool
) -> tuple[tuple[RawGroup, ...], ...]:
    """``_suit_splits`` with each group's index moved from the suit's own to the 34-kind index."""
    return tuple(
        tuple((kind, i + start) for kind, i in split) for split in _suit_splits(counts, honors)
    )


class SuitSplit:
    """One way to cut one suit, at 34-kind indices, with the facts a reading adds up over suits.

    ``sets`` keep the order ``splits`` gives them; ``pair`` is None when the suit holds no pair.
    Built once per suit shape and shared (see ``suit_splits``): treat as read-only.
    """

    __slots__ = ("_wins", "pair", "sequences", "sets", "triplet_mask", "triplets")

    def __init__(self, groups: tuple[RawGroup, ...]) -> None:
        self.pair = next((g for g in groups if g[0] is PAIR), None)
        self.sets = tuple(g for g in groups if g[0] is not PAIR)
        self.sequences = sum(1 for g in self.sets if g[0] is SEQUENCE)
        self.triplets = len(self.sets) - self.sequences
        mask = 0
        for kind, first in self.sets:
            if kind is not SEQUENCE:
                mask |= 1 << first
        self.triplet_mask = mask
        """Bit ``i`` set: a triplet of kind ``i``."""
        self._wins: dict[int, tuple[tuple[int, RawGroup], ...]] = {}

    def wins(self, index: int) -> tuple[tuple[int, RawGroup], ...]:
        """The distinct groups holding kind ``index``, pair first, as (position, group); the
        position is -1 for the pair, else the place in ``sets``."""
        found = self._wins.get(index)
        if found is None:
            out: list[tuple[int, RawGroup]] = []
            if self.pair is not None and self.pair[1] == index:
                out.append((-1, self.pair))
            seen: set[RawGroup] = set()
            for position, group in enumerate(self.sets):
                kind, first = group
                held = first <= index <= first + 2 if kind is SEQUENCE else first == index
                if held and group not in seen:
                    seen.add(group)
                    out.append((position, group))
            found = self._wins[index] = tuple(out)
        return found


class SuitShape:
    """What a hand's engine asks of one suit's counts, worked out once per suit shape (see
    ``suit_shape``): its cuts, the (sets, pairs) they total, and where one more tile completes it.
    """

    __slots__ = (
        "_completing",
        "_without",
        "counts",
        "honors",
        "signature",
        "size",
        "splits",
        "start",
        "triplet_kinds",
    )

    def __init__(self, counts: tuple[int, ...], start: int, honors: bool) -> None:
        self.counts = counts
        self.start = start
        self.honors = honors
        self.size = sum(counts)
        self.splits = tuple(SuitSplit(s) for s in _placed_suit_splits(counts, start, honors))
        """Every cut, as ``SuitSplit``s in the order ``splits`` combines them (empty: none)."""
        self.signature = _suit_signature(counts, honors)
        self.triplet_kinds = sum(1 << (start + i) for i, c in enumerate(counts) if c >= 3)
        """Bit ``i`` set: three or more of kind ``i`` (a triplet some cut may hold)."""
        self._completing: dict[frozenset[tuple[int, int]], tuple[int, ...]] = {}
        self._without: dict[int, SuitShape] = {}

    def without(self, index: int) -> SuitShape:
        """The shape with one tile of kind ``index`` (34-kind index, held) taken out."""
        found = self._without.get(index)
        if found is None:
            counts = list(self.counts)
            counts[index - self.start] -= 1
            found = self._without[index] = suit_shape(tuple(counts), self.start, self.honors)
        return found

    def completing(self, needed: frozenset[tuple[int, int]]) -> tuple[int, ...]:
        """The 34-kind indices where one more tile lets the suit be cut into one of ``needed``."""
        found = self._completing.get(needed)
        if found is None:
            offsets = _completing_offsets(self.counts, self.honors, needed)
            found = self._completing[needed] = tuple(self.start + o for o in offsets)
        return found


SHAPES_BY_SUIT: tuple[dict[tuple[int, ...], SuitShape], ...] = ({}, {}, {}, {})
"""The suit shapes made so far, one dictionary per suit (萬 筒 索 honours) keyed by the counts."""


def suit_shape(counts: tuple[int, ...], start: int, honors: bool) -> SuitShape:
    """The ``SuitShape`` of one suit's counts (the suit starting at index ``start``); cached, so a
    suit shape seen before costs one lookup."""
    shapes = SHAPES_BY_SUIT[start // 9]
    found = shapes.get(counts)
    if found is None:
        found = shapes[counts] = SuitShape(counts, start, honors)
    return found


def suit_splits(counts: tuple[int, ...], start: int, honors: bool) -> tuple[SuitSplit, ...]:
    """Every way to cut one suit's counts, as ``SuitSplit``s in the order ``splits`` combines them."""
    return suit_shape(counts, start, honors).splits


@cache
def needed_from_suits(
    signatures: tuple[frozenset[tuple[int, int]], ...], sets_needed: int
) -> tuple[frozenset[tuple[int, int]], ...]:
    """For each suit, the (sets, pairs) it must supply for the hand to total ``sets_needed`` sets
    and one pair, given what the other suits can be cut into (empty: it cannot)."""
    return tuple(_needed_from_suit(signatures, j, sets_needed) for j in range(len(signatures)))


@cache
def _combine(signatures: tuple[frozenset[tuple[int, int]], ...]) -> frozenset[tuple[int, int]]:
    """The (sets, pairs) totals several suits can be cut into together, at most one pair."""
    totals = {(0, 0)}
    for signature in signatures:
        totals = {(s + a, p + b) for s, p in totals for a, b in signature if p + b <= 1}
    return frozenset(totals)


def _can_help(suit: list[int], offset: int, honors: bool) -> bool:
    """A tile can complete a hand only next to tiles it could join: itself, or (in a suit) a
    neighbour within two."""
    if honors:
        return suit[offset] > 0
    return any(suit[i] for i in range(max(0, offset - 2), min(len(suit), offset + 3)))


@cache
def _completing_offsets(
    counts: tuple[int, ...], honors: bool, needed: frozenset[tuple[int, int]]
) -> tuple[int, ...]:
    """The offsets in one suit where one more tile lets the suit be cut into one of ``needed``.

    Cached by the suit's counts and what the other suits leave it to do, so once a suit has been
    seen the waits of a hand cost a few lookups.
    """
    suit = list(counts)
    found = []
    for offset in range(len(suit)):
        if suit[offset] >= 4 or not _can_help(suit, offset, honors):
            continue
        suit[offset] += 1
        if not needed.isdisjoint(_suit_signature(tuple(suit), honors)):
            found.append(offset)
        suit[offset] -= 1
    return tuple(found)


@cache
def _needed_from_suit(
    signatures: tuple[frozenset[tuple[int, int]], ...], suit: int, sets_needed: int
) -> frozenset[tuple[int, int]]:
    """The (sets, pairs) one suit must supply, given what the other suits can be cut into."""
    others = signatures[:suit] + signatures[suit + 1 :]
    if not all(others):
        return frozenset()
    return frozenset((sets_needed - s, 1 - p) for s, p in _combine(others))


def waiting_tiles(counts: list[int], sets_needed: int, held: list[int] | None = None) -> set[Tile]:
    """The tile kinds that complete the counts (one tile short of a hand).

    ``held`` counts every tile the player holds (melds included); a kind of which all four are
    already held cannot arrive, so it is no wait. Per suit, what the other suits leave it to do and
    where one more tile does it are both cached, so a hand's waits cost eight lookups.
    """
    return {tile34(i) for i in waiting_indices(counts, sets_needed, held)}


def waiting_indices(
    counts: list[int], sets_needed: int, held: list[int] | None = None
) -> list[int]:
    """``waiting_tiles`` as 34-kind indices, in index order."""
    held = held or counts
    if sum(counts) != sets_needed * 3 + 1:
        return []
    suits = [tuple(counts[start:stop]) for start, stop, _ in _SUIT_SLICES]
    signatures = (
        _suit_signature(suits[0], False),
        _suit_signature(suits[1], False),
        _suit_signature(suits[2], False),
        _suit_signature(suits[3], True),
    )
    waits: list[int] = []
    for j, (start, _, honors) in enumerate(_SUIT_SLICES):
        needed = _needed_from_suit(signatures, j, sets_needed)
        if not needed:
            continue
        for offset in _completing_offsets(suits[j], honors, needed):
            if held[start + offset] < 4:
                waits.append(start + offset)
    return waits


def group_tiles(group: RawGroup) -> tuple[Tile, ...]:
    kind, first = group
    if kind is SEQUENCE:
        return (tile34(first), tile34(first + 1), tile34(first + 2))
    size = {PAIR: 2, TRIPLET: 3, KONG: 4}[kind]
    return (tile34(first),) * size


def is_seven_pairs(counts: list[int], *, allow_four: bool) -> bool:
    """Seven pairs; with ``allow_four`` four identical tiles count as two pairs."""
    if sum(counts) != 14:
        return False
    if allow_four:
        return all(c in (0, 2, 4) for c in counts)
    return all(c in (0, 2) for c in counts)
